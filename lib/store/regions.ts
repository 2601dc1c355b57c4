import { and, asc, desc, eq, gte, isNotNull, isNull, or, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { regionStates, runs, servers } from "../../db/schema";
import { DISCOVERY_CHECKS, type CheckId, type CheckState } from "../vocabulary/checks";
import type { QuorumFacts, RunRole } from "../vocabulary/regions";
import { parseJson } from "./runs";
import { dueServerColumns, type DueServer } from "./servers/round";

// architecture.md §8: each region's health as the site last judged it.

/** Why a region is down, as stored (the same facts lib/regions/health.ts keeps). */
export type StoredDownCause = { kind: "host_share"; failed: number; hosts: number } | { kind: "silent"; sinceMs: number };

export interface StoredRegionState {
  id: string;
  up: boolean;
  lastAnswerAt: string | null;
  hostShare: number | null;
  hostsTried: number;
  down: StoredDownCause | null;
  downSince: string | null;
  updatedAt: string;
}

export function storedRegionStates(db: Db): StoredRegionState[] {
  return db
    .select()
    .from(regionStates)
    .orderBy(asc(regionStates.id))
    .all()
    .map((r) => ({ ...r, down: parseJson<StoredDownCause | null>(r.down, null) }));
}

export function saveRegionStates(db: Db, states: readonly Omit<StoredRegionState, "updatedAt">[], at: string): void {
  for (const s of states) {
    const row = { ...s, down: s.down ? JSON.stringify(s.down) : null, updatedAt: at };
    db.insert(regionStates)
      .values(row)
      .onConflictDoUpdate({
        target: regionStates.id,
        set: {
          up: sql`excluded.up`,
          lastAnswerAt: sql`excluded.last_answer_at`,
          hostShare: sql`excluded.host_share`,
          hostsTried: sql`excluded.hosts_tried`,
          down: sql`excluded.down`,
          downSince: sql`excluded.down_since`,
          updatedAt: sql`excluded.updated_at`,
        },
      })
      .run();
  }
}

/** Servers a down region is asked to read between rounds (architecture.md §8): in the registry, with a remote that needs
 * no configuration, whose latest handshake the site verified, the most recently read first. */
export function recoveryCandidates(db: Db, limit: number): DueServer[] {
  return db
    .select(dueServerColumns)
    .from(servers)
    .where(
      and(
        isNull(servers.leftRegistryAt),
        isNotNull(servers.remoteUrl),
        isNull(servers.needsConfig),
        eq(servers.stateHandshake, "verified"),
      ),
    )
    .orderBy(desc(servers.lastSuccessAt), asc(servers.id))
    .limit(limit)
    .all();
}

/** One region's read of a server in the latest round (architecture.md §8), as the server page and JSON show it. */
export interface RegionRead {
  region: string;
  role: RunRole;
  runId: number;
  at: string;
  /** The discovery checks' states as this region saw them. */
  states: Partial<Record<CheckId, CheckState>>;
  reason: string;
  handshakeMs: number | null;
  /** This read set the server's state. */
  deciding: boolean;
}

/** The reads of the round behind a server's latest run, the deciding one first, and the quorum stored with it. Without
 * regions that is the one local run, with the states the server's checks hold. */
export function latestRoundRegions(
  db: Db,
  lastRunId: number | null,
  checks: readonly { check: CheckId; state: CheckState; reason: string }[],
): { regions: RegionRead[]; quorum: QuorumFacts | null } {
  if (lastRunId === null) return { regions: [], quorum: null };
  const rows = db
    .select({
      id: runs.id,
      region: runs.region,
      role: runs.role,
      startedAt: runs.startedAt,
      handshakeMs: runs.handshakeMs,
      discovery: runs.discovery,
      quorum: runs.quorum,
      verdictRunId: runs.verdictRunId,
    })
    .from(runs)
    .where(or(eq(runs.id, lastRunId), eq(runs.verdictRunId, lastRunId)))
    .orderBy(asc(runs.id))
    .all();
  const own = (id: CheckId) => checks.find((c) => c.check === id);
  const regions = rows.map((r): RegionRead => {
    const d = parseJson<{ states: Partial<Record<CheckId, CheckState>>; reason: string } | null>(r.discovery, null);
    const states = d?.states ?? Object.fromEntries(DISCOVERY_CHECKS.flatMap((id) => (own(id) ? [[id, own(id)!.state]] : [])));
    const reason = d?.reason ?? (DISCOVERY_CHECKS.map(own).find((c) => c && c.state !== "verified") ?? own("handshake"))?.reason ?? "";
    return {
      region: r.region,
      role: r.role,
      runId: r.id,
      at: r.startedAt,
      states,
      reason,
      handshakeMs: r.handshakeMs,
      deciding: r.id === lastRunId,
    };
  });
  regions.sort((a, b) => Number(b.deciding) - Number(a.deciding));
  const verdict = rows.find((r) => r.id === lastRunId);
  return { regions, quorum: parseJson<QuorumFacts | null>(verdict?.quorum, null) };
}

/** Uptime per region over the runs of the last `days` days (runs are kept 30 days): probes that reached the server and
 * those that found it up, as architecture.md §4 counts them, by the region that sent them. */
export function regionUptime(db: Db, serverId: number, sinceIso: string): { region: string; up: number; reached: number }[] {
  return db
    .select({
      region: runs.region,
      up: sql<number>`sum(case when ${runs.uptime} = 'up' then 1 else 0 end)`,
      reached: sql<number>`sum(case when ${runs.uptime} in ('up', 'down') then 1 else 0 end)`,
    })
    .from(runs)
    .where(and(eq(runs.serverId, serverId), gte(runs.startedAt, sinceIso)))
    .groupBy(runs.region)
    .orderBy(asc(runs.region))
    .all()
    .map((r) => ({ region: r.region, up: Number(r.up), reached: Number(r.reached) }));
}
