import Link from "next/link";
import type { Db } from "@/db/client";
import { DISCOVERY_CHECKS } from "@/lib/vocabulary/checks";
import { CHECK_LABELS } from "@/lib/site/labels";
import { regionalNoteSentence } from "@/lib/site/regions";
import { formatUtc } from "@/lib/site/format";
import { formatUptime } from "@/lib/site/uptime";
import { latestRoundRegions, regionUptime } from "@/lib/store/regions";
import { LOCAL_REGION, type RunRole } from "@/lib/vocabulary/regions";
import { StateChip } from "../StateChip";

const ROLE_WORDS: Record<RunRole, string> = {
  primary: "read it first",
  confirmation: "confirmed",
  recovery: "a copy to a region that is down (counts for nothing)",
};

/** architecture.md §8: which region read the server in the latest round, which confirmed, each one's handshake time, the
 * regional note, and uptime per region. Nothing shows for a site that probes alone (`local`). */
export function RegionsSection({
  db,
  serverId,
  lastRunId,
  checks,
  now,
}: {
  db: Db;
  serverId: number;
  lastRunId: number | null;
  checks: Parameters<typeof latestRoundRegions>[2];
  now: Date;
}) {
  const round = latestRoundRegions(db, lastRunId, checks);
  const from = new Date(now.getTime() - 30 * 86_400_000);
  const uptime = regionUptime(db, serverId, from.toISOString());
  const regional = round.regions.some((r) => r.region !== LOCAL_REGION) || uptime.some((u) => u.region !== LOCAL_REGION);
  if (!regional) return null;
  return (
    <section aria-labelledby="regions-h" id="regions">
      <h2 id="regions-h">Regions</h2>
      <p className="sub">
        One region reads each server per round; a failed handshake or tool list is asked again from two others, and Failed needs most of
        them (<Link href="/faq/regions">how regions vote</Link>).
      </p>
      {round.quorum?.note ? (
        <p className="regional-note" data-testid="regional-note">
          <strong>Regional note:</strong> {regionalNoteSentence(round.quorum.note)}
        </p>
      ) : null}
      <table className="stack regions">
        <caption>The latest round, by region</caption>
        <thead>
          <tr>
            <th scope="col">Region</th>
            <th scope="col">Role</th>
            {DISCOVERY_CHECKS.map((id) => (
              <th scope="col" key={id}>
                {CHECK_LABELS.en[id]}
              </th>
            ))}
            <th scope="col">Handshake time</th>
            <th scope="col">When</th>
          </tr>
        </thead>
        <tbody>
          {round.regions.map((r) => (
            <tr key={r.runId} data-region={r.region} data-deciding={r.deciding ? "yes" : "no"}>
              <td data-label="Region">
                <code>{r.region}</code>
                {r.deciding ? " (its read sets the state)" : ""}
              </td>
              <td data-label="Role">{ROLE_WORDS[r.role]}</td>
              {DISCOVERY_CHECKS.map((id) => (
                <td data-label={CHECK_LABELS.en[id]} key={id}>
                  <StateChip state={r.states[id] ?? null} prefix={`${r.region} ${CHECK_LABELS.en[id]}`} />
                </td>
              ))}
              <td data-label="Handshake time">{r.handshakeMs === null ? "no answer" : `${r.handshakeMs} ms`}</td>
              <td data-label="When">
                <time dateTime={r.at}>{formatUtc(r.at)}</time>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <table className="stack region-uptime">
        <caption>Uptime per region, last 30 days</caption>
        <thead>
          <tr>
            <th scope="col">Region</th>
            <th scope="col">Uptime</th>
            <th scope="col">Probes that reached the server</th>
          </tr>
        </thead>
        <tbody>
          {uptime.map((u) => (
            <tr key={u.region} data-region={u.region}>
              <td data-label="Region">
                <code>{u.region}</code>
              </td>
              <td data-label="Uptime">{formatUptime(u)}</td>
              <td data-label="Probes that reached the server">{u.reached}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
