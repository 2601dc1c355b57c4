import { and, eq, isNotNull, isNull, sql } from "drizzle-orm";
import { runs, servers } from "../../db/schema";
import type { CheckState } from "../checks/vocabulary";
import type { SiteDb } from "./site";

export interface ReadCount {
  /** The latest probe read the tool list to its end (DESIGN §2.2). */
  complete: boolean;
  toolsList: CheckState | null;
  count: number;
}

/** Servers still in the registry and probed at least once, by whether their latest probe was a complete read and
 * by their tools_list state (a complete read is Verified, or Observed risk for malformed definitions). */
export function completeReadCensus(db: SiteDb): ReadCount[] {
  return db
    .select({ complete: runs.read, toolsList: servers.stateToolsList, count: sql<number>`count(*)` })
    .from(servers)
    .innerJoin(runs, eq(runs.id, servers.lastRunId))
    .where(and(isNull(servers.leftRegistryAt), isNotNull(servers.lastProbedAt)))
    .groupBy(runs.read, servers.stateToolsList)
    .all()
    .map((r) => ({ ...r, count: Number(r.count) }));
}
