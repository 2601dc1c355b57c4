import type { Exchange } from "@/lib/probe/types";
import { curlCommand } from "@/lib/site/curl";
import { formatDuration } from "@/lib/site/format";
import { CopyField } from "./CopyField";

function HeaderTable({ caption, headers }: { caption: string; headers: Record<string, string> }) {
  const entries = Object.entries(headers ?? {});
  if (entries.length === 0) return null;
  return (
    <table className="headers">
      <caption>{caption}</caption>
      <tbody>
        {entries.map(([k, v]) => (
          <tr key={k}>
            <th scope="row">{k}</th>
            <td>{v}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** One HTTP exchange as evidence: what was sent, what came back, and a curl command that sends it again. */
export function ExchangeView({
  exchange,
  anchor,
  open = true,
  children,
}: {
  exchange: Exchange;
  anchor: string;
  open?: boolean;
  children?: React.ReactNode;
}) {
  const outcome = exchange.status !== undefined ? `HTTP ${exchange.status}` : exchange.error ? `no answer: ${exchange.error}` : "no answer";
  return (
    <article className="exchange" id={anchor} aria-label={`Exchange ${exchange.seq}`}>
      <details open={open}>
        <summary className="exchange-summary">
          #{exchange.seq} {exchange.phase}: {exchange.method} {exchange.url} → {outcome} ({formatDuration(exchange.durationMs)})
        </summary>
        {children}
        {exchange.error && exchange.status !== undefined ? <p>Error: {exchange.error}</p> : null}
        <HeaderTable caption="Request headers" headers={exchange.requestHeaders} />
        {exchange.requestBody !== undefined ? (
          <>
            <p className="sub">Request body</p>
            <pre tabIndex={0}>{exchange.requestBody}</pre>
          </>
        ) : null}
        <HeaderTable caption="Response headers" headers={exchange.responseHeaders} />
        {exchange.bodyExcerpt !== undefined ? (
          <>
            <p className="sub">
              Response body{exchange.bodyBytes !== undefined ? ` (${exchange.bodyBytes} bytes` : ""}
              {exchange.bodyBytes !== undefined ? (exchange.truncated ? ", cut short by the size cap)" : ")") : ""}
              {exchange.bodyExcerpt.length > 0 ? ", excerpt:" : ": empty"}
            </p>
            {exchange.bodyExcerpt.length > 0 ? <pre tabIndex={0}>{exchange.bodyExcerpt}</pre> : null}
          </>
        ) : null}
        <CopyField label={`curl for exchange #${exchange.seq}`} text={curlCommand(exchange)} className="curl" />
      </details>
    </article>
  );
}
