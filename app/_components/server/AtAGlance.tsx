import Link from "next/link";
import type { Overall } from "@/lib/checks/overall";
import { CHECK_IDS, type CheckId } from "@/lib/vocabulary/checks";
import { crossReadSentence } from "@/lib/site/cross-read";
import { CHECK_LABELS } from "@/lib/site/labels";
import { checkAnchor } from "@/lib/site/paths";
import { whatToDoHref } from "@/lib/site/what-to-do";
import type { CrossReadRow } from "@/lib/store/cross-reads";
import type { CheckResultRow } from "@/lib/store/runs";
import { StateChip } from "../StateChip";
import { CheckHint } from "./CheckHint";
import { ClientLines } from "./ClientLines";
import type { ClientsVerdict } from "@/lib/checks/clients";

function OverallLine({ overall }: { overall: Overall | null }) {
  return (
    <div className={`overall overall-${overall?.state ?? "none"}`}>
      <p className="overall-state">
        <span className="overall-label">Overall</span>
        <StateChip state={overall?.state ?? null} cause={overall?.cause} />
      </p>
      <p className="overall-why">
        {!overall ? (
          "Not probed yet: the checks appear after the server's first probe."
        ) : overall.state === "verified" ? (
          "The handshake completed and the whole tool list was read."
        ) : overall.check ? (
          <>
            Decided by <a href={`#${checkAnchor(overall.check)}`}>{CHECK_LABELS.en[overall.check]}</a>
            {overall.reason ? `: ${overall.reason}` : "."}
          </>
        ) : null}
      </p>
    </div>
  );
}

/** In place of a reason that is the overall state's, said once above (architecture.md §2: one cause, often three checks). */
export function SameReason() {
  return (
    <span className="same-reason">
      Same reason as the <a href="#glance-h">overall state</a>.
    </span>
  );
}

function CheckRow({ id, check, overallReason }: { id: CheckId; check: CheckResultRow | undefined; overallReason: string | null }) {
  return (
    <tr id={`glance-${id}`}>
      <th scope="row" data-label="Check">
        <a href={`#${checkAnchor(id)}`}>{CHECK_LABELS.en[id]}</a>
      </th>
      <td data-label="State">
        <StateChip state={check?.state ?? null} cause={check?.notCheckedCause} />
      </td>
      <td data-label="Why">
        {!check ? "Not evaluated yet." : check.reason === overallReason ? <SameReason /> : check.reason}
        <CheckHint hint={check?.hint ?? null} />
      </td>
      <td data-label="FAQ" className="cell-faq">
        {check ? <Link href={whatToDoHref(id, check)}>{check.state === "verified" ? "How it is judged" : "What to do"}</Link> : null}
      </td>
    </tr>
  );
}

/** The server's latest cross-read in one sentence, beside the checks (architecture.md §6). */
export function CrossReadNote({ crossRead }: { crossRead: (CrossReadRow & { day: string }) | null }) {
  if (!crossRead) return null;
  const unexplained = (crossRead.outcome === "only_cross_reader" || crossRead.outcome === "disagreed") && !crossRead.explained;
  return (
    <p className={unexplained ? "cross-read-note warn" : "cross-read-note"} id="cross-read">
      <strong>Second reader:</strong> {crossReadSentence(crossRead)}{" "}
      <Link href={crossRead.explained ? "/faq/operating#explained" : "/faq/operating#cross-reader"}>About the cross-reader</Link>
    </p>
  );
}

/** The top of a server page: the overall state and the five checks with reason, hint and what to do, and the
 * latest cross-read; everything an operator arriving from a badge needs, above the fold. */
export function AtAGlance({
  overall,
  checks,
  crossRead,
  clients,
}: {
  overall: Overall | null;
  checks: CheckResultRow[];
  crossRead: (CrossReadRow & { day: string }) | null;
  /** architecture.md §2.10: shown right under the overall state, one line per kind of client. */
  clients?: ClientsVerdict;
}) {
  return (
    <section className="glance" aria-labelledby="glance-h">
      <h2 id="glance-h" className="visually-hidden" tabIndex={-1}>
        At a glance
      </h2>
      <OverallLine overall={overall} />
      {clients ? <ClientLines clients={clients} /> : null}
      <table className="stack glance-table">
        <caption className="visually-hidden">The five checks: state, reason and where the FAQ says what to do</caption>
        <thead className="visually-hidden">
          <tr>
            <th scope="col">Check</th>
            <th scope="col">State</th>
            <th scope="col">Why</th>
            <th scope="col">FAQ</th>
          </tr>
        </thead>
        <tbody>
          {CHECK_IDS.map((id) => (
            <CheckRow key={id} id={id} check={checks.find((c) => c.check === id)} overallReason={overall?.reason ?? null} />
          ))}
        </tbody>
      </table>
      <CrossReadNote crossRead={crossRead} />
    </section>
  );
}
