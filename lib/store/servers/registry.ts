// The registry's view of each server (architecture.md §3): a listing written over the rows in one transaction or
// in short steps, servers that left kept with their history, and the listed remotes (§2.6) read back.
import { eq, inArray, sql } from "drizzle-orm";
import { transaction, type Db } from "../../../db/client";
import { servers } from "../../../db/schema";
import { REMOTE_STANDINGS, TRANSPORTS, type RegistryRemote } from "../../probe/protocol";
import type { UrlVariables } from "../../probe/protocol";
import type { RegistryWithdrawal } from "../../vocabulary/store";
import { placeholders, prepared } from "../prepared";
import { parseJson } from "../runs";
import type { ServerRow } from "./row";

/** A registry listing in the shape the store keeps; `remotes` absent keeps one remote, the probed one. */
export type ListedServer = Pick<ServerRow, "name" | "title" | "description" | "version" | "host" | "needsConfig" | "registryUpdatedAt"> & {
  url: string;
  transport: NonNullable<ServerRow["transport"]>;
  remotes?: RegistryRemote[];
  /** Suite 0.15.0: header names the probed remote lists as needed (never sent); absent or empty when none. */
  configHeaders?: string[];
  /** architecture.md §11: the URL variables an owner may fill in; absent or null when none. */
  urlVariables?: UrlVariables | null;
  /** The owner's words on the entry's status, when the registry gives any. */
  registryStatusMessage?: string | null;
};

/** A server whose owner withdrew its latest version in the registry (deprecated or deleted), with the owner's words. */
export interface WithdrawnServer {
  name: string;
  status: RegistryWithdrawal;
  statusMessage: string | null;
  registryUpdatedAt: string | null;
}

/** The stored header names back as a list (architecture.md §2.6, 0.15.0); null when the row lists none. */
export function configHeadersOf(stored: string | null): string[] | null {
  const v = parseJson<unknown>(stored, null);
  return Array.isArray(v) && v.length && v.every((n) => typeof n === "string") ? (v as string[]) : null;
}

/** The stored URL variables back as a value (architecture.md §11); null when the row has none or they do not parse. */
export function urlVariablesOf(stored: string | null | undefined): UrlVariables | null {
  const v = parseJson<unknown>(stored ?? null, null) as Partial<UrlVariables> | null;
  const strings = (a: unknown): a is string[] => Array.isArray(a) && a.every((n) => typeof n === "string");
  if (!v || typeof v !== "object" || typeof v.template !== "string" || !strings(v.names) || !v.names.length) return null;
  return { template: v.template, names: v.names, headers: strings(v.headers) ? v.headers : [] };
}

/** The remotes column back as values; rows written before suite 0.13.0 (or without it) get their one remote. */
export function remotesOf(row: Pick<ServerRow, "remotes" | "remoteUrl" | "transport" | "needsConfig">): RegistryRemote[] {
  const fromJson = parseJson<unknown>(row.remotes, null);
  if (Array.isArray(fromJson)) {
    const ok = fromJson.filter(
      (r): r is RegistryRemote =>
        typeof r === "object" &&
        r !== null &&
        typeof (r as RegistryRemote).url === "string" &&
        (TRANSPORTS as readonly string[]).includes((r as RegistryRemote).transport) &&
        (REMOTE_STANDINGS as readonly string[]).includes((r as RegistryRemote).standing),
    );
    if (ok.length) return ok.map((r) => ({ ...r, why: typeof r.why === "string" ? r.why : null }));
  }
  if (!row.remoteUrl) return [];
  return [
    {
      url: row.remoteUrl,
      transport: row.transport ?? "streamable-http",
      standing: row.needsConfig ? "needs_configuration" : "probed",
      why: row.needsConfig,
    },
  ];
}

export interface RegistryApplyResult {
  added: number;
  updated: number;
  /** Servers newly marked as gone from the registry. */
  left: number;
  /** Servers listed again after leaving. */
  returned: number;
  /** Known servers whose owner marked them deprecated or deleted in this read (already withdrawn ones included). */
  withdrawn: number;
}

/** The columns a registry listing sets on a row it updates (an insert also writes `name` and `firstSeenAt`). */
const REGISTRY_FIELDS = [
  "title",
  "description",
  "version",
  "remoteUrl",
  "transport",
  "host",
  "needsConfig",
  "remotes",
  "configHeaders",
  "urlVariables",
  "registryUpdatedAt",
  "registryStatus",
  "registryStatusMessage",
  "lastSeenAt",
  "leftRegistryAt",
] as const;

function registryStatements(db: Db) {
  return prepared(db, "servers.registry", () => {
    const set = Object.fromEntries(REGISTRY_FIELDS.map((f) => [f, sql`${sql.placeholder(f)}`]));
    const byId = eq(servers.id, sql.placeholder("id"));
    return {
      insert: db
        .insert(servers)
        .values(placeholders(["name", "firstSeenAt", ...REGISTRY_FIELDS] as const))
        .prepare(),
      update: db.update(servers).set(set).where(byId).prepare(),
      // A new remote or configuration need makes the old verdicts stale: probe it in the next round.
      updateDue: db
        .update(servers)
        .set({ ...set, nextDueAt: null, unchangedStreak: 0 })
        .where(byId)
        .prepare(),
    };
  });
}

interface RegistryApply {
  existing: Map<
    string,
    {
      id: number;
      name: string;
      remoteUrl: string | null;
      transport: string | null;
      needsConfig: string | null;
      configHeaders: string | null;
      leftRegistryAt: string | null;
    }
  >;
  seen: Set<string>;
  result: RegistryApplyResult;
}

function startRegistryApply(db: Db): RegistryApply {
  const rows = db
    .select({
      id: servers.id,
      name: servers.name,
      remoteUrl: servers.remoteUrl,
      transport: servers.transport,
      needsConfig: servers.needsConfig,
      configHeaders: servers.configHeaders,
      leftRegistryAt: servers.leftRegistryAt,
    })
    .from(servers)
    .all();
  return {
    existing: new Map(rows.map((r) => [r.name, r])),
    seen: new Set(),
    result: { added: 0, updated: 0, left: 0, returned: 0, withdrawn: 0 },
  };
}

function applyListed(db: Db, a: RegistryApply, listed: ListedServer[], now: string): void {
  const st = registryStatements(db);
  for (const s of listed) {
    a.seen.add(s.name);
    const prev = a.existing.get(s.name);
    const fields = {
      title: s.title,
      description: s.description,
      version: s.version,
      remoteUrl: s.url,
      transport: s.transport,
      host: s.host,
      needsConfig: s.needsConfig,
      remotes: s.remotes ? JSON.stringify(s.remotes) : null,
      configHeaders: s.configHeaders?.length ? JSON.stringify(s.configHeaders) : null,
      urlVariables: s.urlVariables ? JSON.stringify(s.urlVariables) : null,
      registryUpdatedAt: s.registryUpdatedAt,
      registryStatus: "active" as const,
      registryStatusMessage: s.registryStatusMessage ?? null,
      lastSeenAt: now,
      leftRegistryAt: null,
    };
    if (!prev) {
      st.insert.run({ name: s.name, firstSeenAt: now, ...fields });
      a.result.added++;
      continue;
    }
    // urlVariables change only with the URL or the needs clause: alone they make nothing due (so the first read after
    // migration 0022 fills them in without a round of skips).
    const moved =
      prev.remoteUrl !== s.url ||
      prev.transport !== s.transport ||
      prev.needsConfig !== s.needsConfig ||
      prev.configHeaders !== fields.configHeaders;
    if (prev.leftRegistryAt) a.result.returned++;
    (moved || prev.leftRegistryAt ? st.updateDue : st.update).run({ ...fields, id: prev.id });
    a.result.updated++;
  }
}

/** The owner withdrew these: each known one stops being probed, keeps its history and the owner's words. A server that
 * had already left keeps the day it left; one never seen is not added. */
function applyWithdrawn(db: Db, a: RegistryApply, withdrawn: WithdrawnServer[], now: string): void {
  for (const w of withdrawn) {
    a.seen.add(w.name);
    const prev = a.existing.get(w.name);
    if (!prev) continue;
    db.update(servers)
      .set({
        registryStatus: w.status,
        registryStatusMessage: w.statusMessage,
        registryUpdatedAt: w.registryUpdatedAt,
        leftRegistryAt: prev.leftRegistryAt ?? now,
      })
      .where(eq(servers.id, prev.id))
      .run();
    a.result.withdrawn++;
  }
}

function markGone(db: Db, a: RegistryApply, now: string): RegistryApplyResult {
  const gone = [...a.existing.values()].filter((r) => !a.seen.has(r.name) && !r.leftRegistryAt).map((r) => r.id);
  for (let i = 0; i < gone.length; i += 500) {
    db.update(servers)
      .set({ leftRegistryAt: now, registryStatus: "left" })
      .where(inArray(servers.id, gone.slice(i, i + 500)))
      .run();
  }
  a.result.left = gone.length;
  return a.result;
}

/** Replaces the registry view in one transaction: upserts every listed server, marks the withdrawn and the unlisted
 * ones as having left (their history stays), and clears that mark for servers listed again. */
export function applyRegistrySnapshot(db: Db, listed: ListedServer[], now: string, withdrawn: WithdrawnServer[] = []): RegistryApplyResult {
  return transaction(db, () => {
    const a = startRegistryApply(db);
    applyListed(db, a, listed, now);
    applyWithdrawn(db, a, withdrawn, now);
    return markGone(db, a, now);
  });
}

/** The same in short transactions of `step` servers, yielding to the event loop between them, so a large
 * registry never blocks a process that also serves pages. Upserts are idempotent: an interrupted apply is
 * completed by the next one; servers are marked as gone only once every listed one was written. */
export async function applyRegistrySnapshotInSteps(
  db: Db,
  listed: ListedServer[],
  now: string,
  options: { withdrawn?: WithdrawnServer[]; step?: number } = {},
): Promise<RegistryApplyResult> {
  const a = await applyInSteps(db, listed, options.withdrawn ?? [], now, options.step ?? 250);
  return transaction(db, () => markGone(db, a, now));
}

/** An incremental read (the registry's `updated_since`): upserts the changed servers and withdraws the deprecated and
 * deleted ones, in short transactions; servers the read did not mention are left as they are. */
export async function applyRegistryChangesInSteps(
  db: Db,
  listed: ListedServer[],
  withdrawn: WithdrawnServer[],
  now: string,
  step = 250,
): Promise<RegistryApplyResult> {
  return (await applyInSteps(db, listed, withdrawn, now, step)).result;
}

async function applyInSteps(
  db: Db,
  listed: ListedServer[],
  withdrawn: WithdrawnServer[],
  now: string,
  step: number,
): Promise<RegistryApply> {
  const a = startRegistryApply(db);
  for (let i = 0; i < listed.length; i += step) {
    transaction(db, () => applyListed(db, a, listed.slice(i, i + step), now));
    await new Promise((r) => setImmediate(r));
  }
  for (let i = 0; i < withdrawn.length; i += step) {
    transaction(db, () => applyWithdrawn(db, a, withdrawn.slice(i, i + step), now));
    await new Promise((r) => setImmediate(r));
  }
  return a;
}
