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
import { StackTable, type StackColumn } from "../StackTable";
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
      <StackTable
        className="regions"
        caption={t.regionsCaption}
        columns={[
          {
            label: t.colRegion,
            cell: (r) => (
              <>
                <code>{r.region}</code>
                {r.deciding ? t.deciding : ""}
              </>
            ),
          },
          { label: t.colRole, cell: (r) => t.roles[r.role] },
          ...DISCOVERY_CHECKS.map((id): StackColumn<(typeof round.regions)[number]> => ({
            label: CHECK_LABELS[lang][id],
            cell: (r) => <StateChip state={r.states[id] ?? null} prefix={`${r.region} ${CHECK_LABELS[lang][id]}`} lang={lang} />,
          })),
          { label: t.colHandshakeTime, cell: (r) => (r.handshakeMs === null ? t.noAnswer : `${r.handshakeMs} ms`) },
          { label: t.colWhen, cell: (r) => <time dateTime={r.at}>{formatUtc(r.at)}</time> },
        ]}
        rows={round.regions}
        rowKey={(r) => r.runId}
        rowProps={(r) => ({ "data-region": r.region, "data-deciding": r.deciding ? "yes" : "no" })}
      />
      <StackTable
        className="region-uptime"
        caption={t.regionUptimeCaption}
        columns={[
          { label: t.colRegion, cell: (u) => <code>{u.region}</code> },
          { label: t.colUptime, cell: (u) => (u.reached === 0 ? t.noData : formatUptime(u)) },
          { label: t.colReached, cell: (u) => u.reached },
        ]}
        rows={uptime}
        rowKey={(u) => u.region}
        rowProps={(u) => ({ "data-region": u.region })}
      />
    </section>
  );
}
