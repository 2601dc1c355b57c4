import Link from "next/link";
import type { CheckId } from "@/lib/vocabulary/checks";
import { SUITE_VERSION } from "@/lib/probe/protocol";
import { formatUtc } from "@/lib/site/format";
import { CHECK_LABELS } from "@/lib/site/labels";
import { checkAnchor } from "@/lib/site/paths";
import type { CheckResultRow, TransitionRow } from "@/lib/store/runs";
import { StateChip } from "../StateChip";
import { CheckHint } from "./CheckHint";
import { reasonAfterChip } from "@/lib/site/states";

function SuiteVersion({ version }: { version: string }) {
  if (version === SUITE_VERSION) return <>{version}</>;
  return (
    <>
      {version} (current suite is {SUITE_VERSION}; see the <Link href="/faq/changelog">rule changes</Link>)
    </>
  );
}

/** Links to the exchanges a verdict cites, which the evidence section shows once for the whole page. */
function Cited({ cites, cited }: { cites: { seq: number; anchor: string | null }[]; cited: number }) {
  if (cited === 0) return <p className="sub">This verdict rests on no HTTP exchange (nothing was sent, or the reason says why).</p>;
  const kept = cites.filter((c) => c.anchor !== null);
  if (kept.length === 0) return <p className="sub">The exchanges behind this verdict were not kept.</p>;
  return (
    <p className="cites">
      Evidence:{" "}
      {kept.map((c, i) => (
        <span key={c.seq}>
          {i > 0 ? ", " : null}
          <a href={`#${c.anchor}`}>exchange #{c.seq}</a>
        </span>
      ))}
    </p>
  );
}

function TransitionTable({ history }: { history: TransitionRow[] }) {
  if (history.length === 0) return <p className="sub">No state changes recorded.</p>;
  return (
    <table className="stack">
      <thead>
        <tr>
          <th scope="col">When</th>
          <th scope="col">From</th>
          <th scope="col">To</th>
          <th scope="col">Reason</th>
          <th scope="col">Suite</th>
        </tr>
      </thead>
      <tbody>
        {history.map((t, i) => (
          <tr key={`${t.at}-${i}`}>
            <td data-label="When">
              <time dateTime={t.at}>{formatUtc(t.at)}</time>
            </td>
            <td data-label="From">{t.fromState ? <StateChip state={t.fromState} /> : "first result"}</td>
            <td data-label="To">
              <StateChip state={t.toState} />
            </td>
            <td data-label="Reason">{t.reason}</td>
            <td data-label="Suite">{t.suiteVersion}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** One check: state, reason, when it was decided, links to its evidence, and its state changes. */
export function CheckCard({
  id,
  check,
  cites,
  history,
}: {
  id: CheckId;
  check: CheckResultRow | undefined;
  cites: { seq: number; anchor: string | null }[];
  history: TransitionRow[];
  /** Unused: the reason is said once, at the top of the page (kept until the page stops passing it). */
  overallReason?: string | null;
}) {
  const anchor = checkAnchor(id);
  return (
    <section className="check" id={anchor} aria-labelledby={`${anchor}-h`}>
      <h3 id={`${anchor}-h`}>
        <a href={`#${anchor}`}>{CHECK_LABELS.en[id]}</a>
        <StateChip state={check?.state ?? null} cause={check?.notCheckedCause} />
      </h3>
      {check ? (
        <>
          {/* Said at the top of the page, in the overall line or the table of checks; shown here too only when a link
              lands on this check (#check-<id>, as the feeds link), so that place reads on its own. */}
          <div className="check-why">
            <p className="reason">{reasonAfterChip(check.reason, check.state, check.notCheckedCause)}</p>
            <CheckHint hint={check.hint} />
          </div>
          <dl className="facts">
            <dt>Decided</dt>
            <dd>
              <time dateTime={check.decidedAt}>{formatUtc(check.decidedAt)}</time>
            </dd>
            <dt>In this state since</dt>
            <dd>
              <time dateTime={check.since}>{formatUtc(check.since)}</time>
            </dd>
            <dt>Suite version</dt>
            <dd>
              <SuiteVersion version={check.suiteVersion} />
            </dd>
          </dl>
          <Cited cites={cites} cited={check.evidence.length} />
        </>
      ) : (
        <p>Not evaluated yet: this server has not been probed.</p>
      )}
      <details className="check-history">
        <summary>
          <h4>History</h4>
          <span className="sub fold-note">
            {history.length} {history.length === 1 ? "state change" : "state changes"}
          </span>
        </summary>
        <TransitionTable history={history} />
      </details>
    </section>
  );
}
