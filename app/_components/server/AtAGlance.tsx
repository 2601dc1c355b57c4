import Link from "next/link";
import type { Overall } from "@/lib/checks/overall";
import { CHECK_IDS, type CheckId } from "@/lib/vocabulary/checks";
import { crossReadSentence } from "@/lib/site/cross-read";
import { CHECK_LABELS } from "@/lib/site/labels";
import { checkAnchor } from "@/lib/site/paths";
import { reasonAfterChip } from "@/lib/site/states";
import { whatToDoHref } from "@/lib/site/what-to-do";
import type { CrossReadRow } from "@/lib/store/cross-reads";
import type { CheckResultRow } from "@/lib/store/runs";
import { StateChip } from "../StateChip";
import { CheckHint } from "./CheckHint";
import { ClientLines } from "./ClientLines";
import { countByCode, ObservationsLine } from "../ObservationCodes";
import type { ObservationFacts } from "@/lib/checks/observations";
import type { ClientsVerdict } from "@/lib/checks/clients";

/** "Protocol version, Tool list and Error taxonomy". */
function listed(ids: CheckId[]): string {
  const names = ids.map((id) => CHECK_LABELS.en[id]);
  return names.length <= 1 ? (names[0] ?? "") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}

/** The checks other than the deciding one whose reason is the overall state's: said once, in the overall line. */
export function sharingOverall(overall: Overall | null, checks: CheckResultRow[]): CheckId[] {
  if (!overall?.reason || !overall.check) return [];
  return CHECK_IDS.filter((id) => id !== overall.check && checks.find((c) => c.check === id)?.reason === overall.reason);
}

function OverallLine({ overall, sharing }: { overall: Overall | null; sharing: CheckId[] }) {
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
            {overall.reason ? `: ${reasonAfterChip(overall.reason, overall.state, overall.cause)}` : "."}
            {sharing.length ? ` The same reason holds for ${listed(sharing)}.` : null}
          </>
        ) : null}
      </p>
    </div>
  );
}

function CheckRow({ id, check, saidAbove }: { id: CheckId; check: CheckResultRow | undefined; saidAbove: boolean }) {
  return (
    <tr id={`glance-${id}`}>
      <th scope="row" data-label="Check">
        <a href={`#${checkAnchor(id)}`}>{CHECK_LABELS.en[id]}</a>
      </th>
      <td data-label="State">
        <StateChip state={check?.state ?? null} cause={check?.notCheckedCause} />
      </td>
      {/* Empty when the overall line above says this reason, so each reason is said once on the page. */}
      <td data-label="Why" className="cell-why">
        {!check ? "Not evaluated yet." : saidAbove ? null : reasonAfterChip(check.reason, check.state, check.notCheckedCause)}
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
  observations = [],
}: {
  overall: Overall | null;
  checks: CheckResultRow[];
  crossRead: (CrossReadRow & { day: string }) | null;
  /** architecture.md §2.10: shown right under the overall state, one line per kind of client. */
  clients?: ClientsVerdict;
  /** The observations of the latest complete read (architecture.md §2.9), counted by code for the line under the state. */
  observations?: readonly ObservationFacts[];
}) {
  const sharing = sharingOverall(overall, checks);
  return (
    <section className="glance" aria-labelledby="glance-h">
      <h2 id="glance-h" className="visually-hidden" tabIndex={-1}>
        At a glance
      </h2>
      <OverallLine overall={overall} sharing={sharing} />
      <ObservationsLine items={countByCode(observations)} />
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
            <CheckRow
              key={id}
              id={id}
              check={checks.find((c) => c.check === id)}
              saidAbove={(id === overall?.check && !!overall.reason) || sharing.includes(id)}
            />
          ))}
        </tbody>
      </table>
      <CrossReadNote crossRead={crossRead} />
    </section>
  );
}
