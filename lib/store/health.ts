import type { Db } from "../../db/client";
import { getMeta, META_KEYS } from "./meta";
import { listRecentRounds } from "./rounds";
import { countServers } from "./servers/counts";

/** What `/api/health` says about the data: servers listed, the last round (running or not), the registry's
 * freshness. Liveness only: none of it makes the answer fail (architecture.md §6). */
export function healthFacts(db: Db, servers: number = countServers(db).inRegistry) {
  const last = listRecentRounds(db, 1)[0] ?? null;
  return {
    servers,
    lastRound: last && { id: last.id, status: last.status, startedAt: last.startedAt, finishedAt: last.finishedAt },
    registryRefreshedAt: getMeta(db, META_KEYS.registryRefreshedAt),
    registryError: getMeta(db, META_KEYS.registryLastError) || null,
  };
}
