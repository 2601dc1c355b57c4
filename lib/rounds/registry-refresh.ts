// The registry read at the start of a round (architecture.md §3): the registry's own advice is to poll hourly with
// `updated_since`; a full read once a day also finds servers that left without a trace. Decide, then read, then write.
import type { Db } from "../../db/client";
import { unwritableCode } from "../../db/write-watch";
import { fetchRegistry, RegistryError, type FetchRegistryOptions } from "../registry/client";
import { getMeta, META_KEYS, setMeta } from "../store/meta";
import { summaryCounts } from "../store/servers/counts";
import { applyRegistryChangesInSteps, applyRegistrySnapshotInSteps } from "../store/servers/registry";
import { hostOf } from "./hosts";
import { DAY, HOUR, MINUTE } from "./schedule";

/** Entries changed shortly before the last read began are asked for again: the registry's clock is not ours. */
export const REGISTRY_SINCE_OVERLAP_MS = 10 * MINUTE;

export type RegistryRead = { kind: "none" } | { kind: "full" } | { kind: "changes"; since: string };

export interface RegistryReadFacts {
  /** When the last read (of either kind) was stored; null before the first. */
  refreshedAt: string | null;
  /** When the last full read began; null before the first. */
  fullReadAt: string | null;
  /** When the last stored read began: the next incremental read asks for entries updated since then. */
  readSince: string | null;
  now: Date;
  /** A read younger than this is not repeated. */
  maxAgeMs: number;
  /** A full read older than this is due again. */
  fullMaxAgeMs: number;
}

/** Which read a round makes: none while the last is fresh, a full one daily (or when no read is known), else the
 * entries updated since the last read began, with an overlap. */
export function planRegistryRead(f: RegistryReadFacts): RegistryRead {
  const now = f.now.getTime();
  const age = (iso: string | null) => (iso && Number.isFinite(Date.parse(iso)) ? now - Date.parse(iso) : Infinity);
  if (age(f.refreshedAt) < f.maxAgeMs) return { kind: "none" };
  if (age(f.fullReadAt) >= f.fullMaxAgeMs || !Number.isFinite(age(f.readSince))) return { kind: "full" };
  return { kind: "changes", since: new Date(Date.parse(f.readSince!) - REGISTRY_SINCE_OVERLAP_MS).toISOString() };
}

export interface RegistryRefreshDeps {
  db: Db;
  registryUrl?: string;
  /** Read the registry again when the last read is older than this. Default 1 h. */
  registryMaxAgeMs?: number;
  /** A full read (every page) when the last one is older than this; incremental reads in between. Default 1 day. */
  registryFullReadMaxAgeMs?: number;
  registryOptions?: FetchRegistryOptions;
}

export type RegistryRefreshResult = { ok: boolean; kind?: "full" | "changes"; servers?: number; error?: string } | undefined;

/** Reads the registry when stale and stores what it lists. A read that fails (a page over its byte cap, garbage, a
 * registry that suddenly lists less than half) stores nothing and keeps the previous list. */
export async function refreshRegistryIfStale(
  deps: RegistryRefreshDeps,
  now: () => Date,
  log: (line: string) => void,
): Promise<RegistryRefreshResult> {
  if (!deps.registryUrl) return undefined;
  const plan = planRegistryRead({
    refreshedAt: getMeta(deps.db, META_KEYS.registryRefreshedAt),
    fullReadAt: getMeta(deps.db, META_KEYS.registryFullReadAt),
    readSince: getMeta(deps.db, META_KEYS.registryReadSince),
    now: now(),
    maxAgeMs: deps.registryMaxAgeMs ?? HOUR,
    fullMaxAgeMs: deps.registryFullReadMaxAgeMs ?? DAY,
  });
  if (plan.kind === "none") return undefined;
  const startedAt = now().toISOString();
  try {
    const res = await fetchRegistry(deps.registryUrl, {
      log,
      ...deps.registryOptions,
      ...(plan.kind === "changes" ? { updatedSince: plan.since } : {}),
    });
    const listed = res.servers.map((s) => ({ ...s, host: hostOf(s.url) }));
    const nowIso = now().toISOString();
    let line: string;
    if (plan.kind === "full") {
      // A registry that suddenly lists far fewer servers is more likely broken than emptied: keep what we have.
      const before = summaryCounts(deps.db).servers;
      if (before >= 20 && res.servers.length < before / 2) {
        throw new RegistryError(
          `registry listed ${res.servers.length} remote servers, fewer than half of the ${before} listed before; previous list kept`,
        );
      }
      const applied = await applyRegistrySnapshotInSteps(deps.db, listed, nowIso, { withdrawn: res.withdrawn });
      setMeta(deps.db, META_KEYS.registryFullReadAt, startedAt);
      line = `[registry] full read: ${res.servers.length} listed: ${applied.added} new, ${applied.left} left, ${applied.withdrawn} withdrawn by their owners, ${applied.returned} returned`;
    } else {
      const applied = await applyRegistryChangesInSteps(deps.db, listed, res.withdrawn, nowIso);
      line = `[registry] changes since ${plan.since}: ${res.servers.length} listed: ${applied.added} new, ${applied.updated - applied.returned} updated, ${applied.withdrawn} withdrawn by their owners, ${applied.returned} returned`;
    }
    setMeta(deps.db, META_KEYS.registryReadSince, startedAt);
    setMeta(deps.db, META_KEYS.registryRefreshedAt, nowIso);
    setMeta(deps.db, META_KEYS.registryLastError, "");
    log(line);
    return { ok: true, kind: plan.kind, servers: res.servers.length };
  } catch (e) {
    // A failed write is the round's to tell (architecture.md §6); the registry's error could not be stored either.
    if (unwritableCode(e)) throw e;
    const error = e instanceof RegistryError ? e.message : `registry ingestion failed: ${(e as Error).message}`;
    setMeta(deps.db, META_KEYS.registryLastError, `${now().toISOString()} ${error}`);
    log(`[registry] ingestion aborted, previous data kept: ${error}`);
    return { ok: false, kind: plan.kind, error };
  }
}
