import Link from "next/link";
import type { Db } from "@/db/client";
import { DISCOVERY_CHECKS } from "@/lib/vocabulary/checks";
import { CHECK_LABELS, type Lang } from "@/lib/site/labels";
import { faqPath } from "@/lib/site/paths";
import { regionalNoteSentenceIn, SECTIONS_TEXT } from "@/lib/site/server-text";
import { formatUtc } from "@/lib/site/format";
import { formatUptime } from "@/lib/site/uptime";
import { latestRoundRegions, regionUptime } from "@/lib/store/regions";
import { LOCAL_REGION } from "@/lib/vocabulary/regions";
import { StateChip } from "../StateChip";

/** architecture.md §8: which region read the server in the latest round, which confirmed, each one's handshake time, the
 * regional note, and uptime per region. Nothing shows for a site that probes alone (`local`). */
export function RegionsSection({
  db,
  serverId,
  lastRunId,
  checks,
  now,
  lang = "en",
}: {
  db: Db;
  serverId: number;
  lastRunId: number | null;
  checks: Parameters<typeof latestRoundRegions>[2];
  now: Date;
  lang?: Lang;
}) {
  const round = latestRoundRegions(db, lastRunId, checks);
  const from = new Date(now.getTime() - 30 * 86_400_000);
  const uptime = regionUptime(db, serverId, from.toISOString());
  const regional = round.regions.some((r) => r.region !== LOCAL_REGION) || uptime.some((u) => u.region !== LOCAL_REGION);
  if (!regional) return null;
  const t = SECTIONS_TEXT[lang];
  return (
    <section aria-labelledby="regions-h" id="regions">
      <h2 id="regions-h">{t.regionsH}</h2>
      <p className="sub">
        {t.regionsSub[0]}
        <Link href={faqPath(lang, "regions")}>{t.regionsSub[1]}</Link>
        {t.regionsSub[2]}
      </p>
      {round.quorum?.note ? (
        <p className="regional-note" data-testid="regional-note">
          <strong>{t.regionalNote}</strong> {regionalNoteSentenceIn(lang, round.quorum.note)}
        </p>
      ) : null}
      <table className="stack regions">
        <caption>{t.regionsCaption}</caption>
        <thead>
          <tr>
            <th scope="col">{t.colRegion}</th>
            <th scope="col">{t.colRole}</th>
            {DISCOVERY_CHECKS.map((id) => (
              <th scope="col" key={id}>
                {CHECK_LABELS[lang][id]}
              </th>
            ))}
            <th scope="col">{t.colHandshakeTime}</th>
            <th scope="col">{t.colWhen}</th>
          </tr>
        </thead>
        <tbody>
          {round.regions.map((r) => (
            <tr key={r.runId} data-region={r.region} data-deciding={r.deciding ? "yes" : "no"}>
              <td data-label={t.colRegion}>
                <code>{r.region}</code>
                {r.deciding ? t.deciding : ""}
              </td>
              <td data-label={t.colRole}>{t.roles[r.role]}</td>
              {DISCOVERY_CHECKS.map((id) => (
                <td data-label={CHECK_LABELS[lang][id]} key={id}>
                  <StateChip state={r.states[id] ?? null} prefix={`${r.region} ${CHECK_LABELS[lang][id]}`} lang={lang} />
                </td>
              ))}
              <td data-label={t.colHandshakeTime}>{r.handshakeMs === null ? t.noAnswer : `${r.handshakeMs} ms`}</td>
              <td data-label={t.colWhen}>
                <time dateTime={r.at}>{formatUtc(r.at)}</time>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <table className="stack region-uptime">
        <caption>{t.regionUptimeCaption}</caption>
        <thead>
          <tr>
            <th scope="col">{t.colRegion}</th>
            <th scope="col">{t.colUptime}</th>
            <th scope="col">{t.colReached}</th>
          </tr>
        </thead>
        <tbody>
          {uptime.map((u) => (
            <tr key={u.region} data-region={u.region}>
              <td data-label={t.colRegion}>
                <code>{u.region}</code>
              </td>
              <td data-label={t.colUptime}>{u.reached === 0 ? t.noData : formatUptime(u)}</td>
              <td data-label={t.colReached}>{u.reached}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
