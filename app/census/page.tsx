import type { Metadata } from "next";
import Link from "next/link";
import { MODERN_REVISION } from "@/lib/probe/protocol";
import { REFUSAL_STATES } from "@/lib/checks/refusal";
import type { CheckState } from "@/lib/checks/vocabulary";
import { completeReadCensus, refusalCounts } from "@/lib/store/runs";
import { revisionCensus } from "@/lib/store/servers/counts";
import { formatCount, formatPercent } from "@/lib/site/format";
import { REFUSAL_LABELS, tallyRefusals } from "@/lib/site/refusals";
import { StateChip } from "../_components/StateChip";
import { siteDb } from "../_lib/db";
import { pageMetadata } from "../_lib/meta";

export const dynamic = "force-dynamic";
export const generateMetadata = (): Promise<Metadata> =>
  pageMetadata({
    path: "/census",
    title: "Census",
    description:
      "Across remote MCP servers: tool lists read to the end, protocol revisions agreed, and how servers refuse a call to a tool that does not exist.",
  });

export default function CensusPage() {
  const db = siteDb();
  const revisions = revisionCensus(db);
  const refusals = tallyRefusals(refusalCounts(db));
  const totalRev = revisions.reduce((n, r) => n + r.count, 0);
  const modern = revisions.filter((r) => r.protocolVersion === MODERN_REVISION).reduce((n, r) => n + r.count, 0);
  const totalRef = refusals.total;
  const reads = completeReadCensus(db);
  const probed = reads.reduce((n, r) => n + r.count, 0);
  const readsOf = (complete: boolean, state?: CheckState) =>
    reads.filter((r) => r.complete === complete && (state === undefined || r.toolsList === state)).reduce((n, r) => n + r.count, 0);
  const readRows: { label: string; state: CheckState | null; count: number }[] = [
    { label: "Read to the end, every definition well-formed", state: "verified", count: readsOf(true, "verified") },
    {
      label: "Read to the end, some definitions malformed (duplicate names, no object inputSchema, no name)",
      state: "observed_risk",
      count: readsOf(true, "observed_risk"),
    },
    {
      label: "Not read to the end (pages that never end, failures, credential gates, slow-downs, the probe's deadline)",
      state: null,
      count: readsOf(false),
    },
  ];

  return (
    <>
      <h1>Census</h1>
      <p className="lede">
        How the servers in the registry speak MCP today: which protocol revision we agreed with each, and how each refuses a call to a tool
        that does not exist. Counts cover servers still in the registry, by their latest result. This describes these servers, not every MCP
        deployment.
      </p>

      <section aria-labelledby="read-h">
        <h2 id="read-h">Tool lists read to the end</h2>
        <p>
          A server counts as read when its whole tool list was read, page after page, to the end, even if some definitions in it are
          malformed: that is what clients get, so it counts for <Link href="/coverage">coverage</Link>, the last complete read and tool
          history. A list whose pages never end does not count. By each server&apos;s latest probe:
        </p>
        {probed === 0 ? (
          <p>No server probed yet.</p>
        ) : (
          <StateShareTable what="Tool list" rows={readRows.map((r) => ({ key: r.label, ...r }))} total={probed} />
        )}
      </section>

      <section aria-labelledby="rev-h">
        <h2 id="rev-h">Agreed protocol revisions</h2>
        {totalRev === 0 ? (
          <p>No revision agreed yet.</p>
        ) : (
          <>
            <p>
              Modern ({MODERN_REVISION}, <code>server/discover</code>): <strong>{formatCount(modern)}</strong> (
              {formatPercent(modern, totalRev)}). Legacy (<code>initialize</code>): <strong>{formatCount(totalRev - modern)}</strong> (
              {formatPercent(totalRev - modern, totalRev)}).
            </p>
            <table className="stack">
              <thead>
                <tr>
                  <th scope="col">Revision</th>
                  <th scope="col">Era</th>
                  <th scope="col" className="num">
                    Servers
                  </th>
                  <th scope="col" className="num">
                    Share
                  </th>
                  <th scope="col" className="bar-cell">
                    <span className="visually-hidden">Share as a bar</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {revisions.map((r) => (
                  <tr key={`${r.protocolVersion}-${r.era}`}>
                    <td data-label="Revision">
                      <code>{r.protocolVersion}</code>
                    </td>
                    <td data-label="Era">{r.protocolVersion === MODERN_REVISION ? "modern" : "legacy"}</td>
                    <td data-label="Servers" className="num">
                      {formatCount(r.count)}
                    </td>
                    <td data-label="Share" className="num">
                      {formatPercent(r.count, totalRev)}
                    </td>
                    <td className="bar-cell" aria-hidden="true">
                      <span className="share-bar" style={{ width: `${(r.count / totalRev) * 100}%` }} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </>
        )}
      </section>

      <section aria-labelledby="ref-h">
        <h2 id="ref-h">Refusal shapes</h2>
        <p>
          The <Link href="/faq/withheld-call">reserved-tool call</Link> asks each server for a tool that cannot exist. How it says no
          decides the error taxonomy check; <Link href="/faq/refusals">how refusals are recorded</Link> explains each outcome.
        </p>
        {totalRef === 0 ? (
          <p>No error taxonomy result yet.</p>
        ) : (
          <StateShareTable
            what="Shape of the answer"
            rows={refusals.byCode.map(([code, count]) => ({ key: code, label: REFUSAL_LABELS[code], state: REFUSAL_STATES[code], count }))}
            total={totalRef}
          />
        )}
        {refusals.uncoded > 0 && (
          <p>
            {formatCount(refusals.uncoded)} more results were stored before the probe recorded refusal shapes; they are counted here after
            their server&apos;s next probe.
          </p>
        )}
      </section>
    </>
  );
}

/** Servers per row with their share of `total`, and the state each row is recorded as ("–" when it varies). */
function StateShareTable({
  what,
  rows,
  total,
}: {
  what: string;
  rows: { key: string; label: string; state: CheckState | null; count: number }[];
  total: number;
}) {
  return (
    <table className="stack">
      <thead>
        <tr>
          <th scope="col">{what}</th>
          <th scope="col">Recorded as</th>
          <th scope="col" className="num">
            Servers
          </th>
          <th scope="col" className="num">
            Share
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.key}>
            <td data-label={what}>{r.label}</td>
            <td data-label="Recorded as">{r.state ? <StateChip state={r.state} /> : "–"}</td>
            <td data-label="Servers" className="num">
              {formatCount(r.count)}
            </td>
            <td data-label="Share" className="num">
              {formatPercent(r.count, total)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
