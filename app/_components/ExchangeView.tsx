import type { Exchange } from "@/lib/probe/types";
import { curlCommand } from "@/lib/site/curl";
import { formatDuration } from "@/lib/site/format";
import type { Lang } from "@/lib/site/labels";
import { EXCHANGE_TEXT } from "@/lib/site/server-text";
import { CopyField } from "./CopyField";
import { Stored } from "./Stored";

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

/** One HTTP exchange as evidence: what was sent, what came back, and a curl command that sends it again. Header names,
 * bodies and errors are the wire's own text: on a Chinese page the recorded parts are marked lang="en". */
export function ExchangeView({
  exchange,
  anchor,
  open = true,
  lang = "en",
  children,
}: {
  exchange: Exchange;
  anchor: string;
  open?: boolean;
  lang?: Lang;
  children?: React.ReactNode;
}) {
  const t = EXCHANGE_TEXT[lang];
  const outcome = exchange.status !== undefined ? `HTTP ${exchange.status}` : exchange.error ? t.noAnswerWith(exchange.error) : t.noAnswer;
  return (
    <article className="exchange" id={anchor} aria-label={t.label(exchange.seq)}>
      <details open={open}>
        <summary className="exchange-summary">
          #{exchange.seq} {exchange.phase}: {exchange.method} {exchange.url} → {outcome} ({formatDuration(exchange.durationMs)})
        </summary>
        {children}
        {exchange.error && exchange.status !== undefined ? (
          <p>
            {t.error}
            <Stored lang={lang}>{exchange.error}</Stored>
          </p>
        ) : null}
        <HeaderTable caption={t.requestHeaders} headers={exchange.requestHeaders} />
        {exchange.requestBody !== undefined ? (
          <>
            <p className="sub">{t.requestBody}</p>
            <pre tabIndex={0}>{exchange.requestBody}</pre>
          </>
        ) : null}
        <HeaderTable caption={t.responseHeaders} headers={exchange.responseHeaders} />
        {exchange.bodyExcerpt !== undefined ? (
          <>
            <p className="sub">{t.responseBody(exchange.bodyBytes, exchange.truncated, exchange.bodyExcerpt.length === 0)}</p>
            {exchange.bodyExcerpt.length > 0 ? <pre tabIndex={0}>{exchange.bodyExcerpt}</pre> : null}
          </>
        ) : null}
        <CopyField label={t.curlFor(exchange.seq)} text={curlCommand(exchange)} className="curl" lang={lang} />
      </details>
    </article>
  );
}
