import { and, asc, eq, inArray, isNotNull, isNull, sql, type SQL } from "drizzle-orm";
import type { Db } from "../../db/client";
import { observations, serverObservations, servers } from "../../db/schema";
import type { ObservationFacts } from "../checks/observations";
import { OBSERVATION_CODES, type ObservationCode } from "../vocabulary/checks";
import { prepared } from "./prepared";
import { parseJson } from "./runs";

// Observations on tool definitions (architecture.md §2.9): every one stored with the run whose complete read it was made
// on, and per server the codes of its latest complete read (the index filter, the census and the daily census row).

type Row = typeof observations.$inferSelect;
type StoredFacts = Pick<ObservationFacts, "inKey" | "codePoints" | "excerpt" | "names" | "value">;

function toRow(serverId: number, runId: number, f: ObservationFacts): Omit<Row, "id"> {
  const { code, tool, pointer, offset, count, decoded, ...rest } = f;
  return {
    runId,
    serverId,
    code,
    tool: tool ?? null,
    pointer,
    offset: offset ?? null,
    count: count ?? null,
    decoded: decoded ?? null,
    facts: Object.keys(rest).length ? JSON.stringify(rest) : null,
  };
}

function fromRow(r: Pick<Row, "code" | "tool" | "pointer" | "offset" | "count" | "decoded" | "facts">): ObservationFacts {
  const rest = parseJson<StoredFacts>(r.facts, {});
  return {
    code: r.code,
    ...(r.tool !== null ? { tool: r.tool } : {}),
    pointer: r.pointer,
    ...(r.offset !== null ? { offset: r.offset } : {}),
    ...(r.count !== null ? { count: r.count } : {}),
    ...(r.decoded !== null ? { decoded: r.decoded } : {}),
    ...rest,
  };
}

/** Writes a complete read's observations with its run and makes them the server's latest (in the caller's transaction). */
export function recordObservations(db: Db, serverId: number, runId: number, list: readonly ObservationFacts[]): void {
  for (let i = 0; i < list.length; i += 200) {
    db.insert(observations)
      .values(list.slice(i, i + 200).map((f) => toRow(serverId, runId, f)))
      .run();
  }
  prepared(db, "serverObservations.clear", () =>
    db
      .delete(serverObservations)
      .where(eq(serverObservations.serverId, sql.placeholder("serverId")))
      .prepare(),
  ).run({ serverId });
  const perCode = new Map<ObservationCode, number>();
  for (const f of list) perCode.set(f.code, (perCode.get(f.code) ?? 0) + 1);
  if (perCode.size) {
    db.insert(serverObservations)
      .values([...perCode].map(([code, count]) => ({ serverId, code, count, runId })))
      .run();
  }
}

/** The observation codes of a server's latest complete read, sorted; empty before the first one or when it had none. */
export function serverObservationCodes(db: Db, serverId: number): string[] {
  return prepared(db, "serverObservations.codes", () =>
    db
      .select({ code: serverObservations.code })
      .from(serverObservations)
      .where(eq(serverObservations.serverId, sql.placeholder("serverId")))
      .orderBy(asc(serverObservations.code))
      .prepare(),
  )
    .all({ serverId })
    .map((r) => r.code);
}

/** The observations of one run, in the order they were made. */
export function runObservations(db: Db, runId: number): ObservationFacts[] {
  return db.select().from(observations).where(eq(observations.runId, runId)).orderBy(asc(observations.id)).all().map(fromRow);
}

/** The observations of a server's latest complete read; none when that read had none, or before the first one. */
export function latestObservations(db: Db, serverId: number): ObservationFacts[] {
  const run = db
    .select({ runId: serverObservations.runId })
    .from(serverObservations)
    .where(eq(serverObservations.serverId, serverId))
    .limit(1)
    .get();
  return run ? runObservations(db, run.runId) : [];
}

/** latestObservations for a server known by its registry name. */
export function latestObservationsByName(db: Db, name: string): ObservationFacts[] {
  const run = db
    .select({ runId: serverObservations.runId })
    .from(serverObservations)
    .innerJoin(servers, eq(servers.id, serverObservations.serverId))
    .where(eq(servers.name, name))
    .limit(1)
    .get();
  return run ? runObservations(db, run.runId) : [];
}

/** What the index and the list API filter by: any observation, or one code (architecture.md §2.9). */
export type ObservationFilter = "any" | ObservationCode;

export function isObservationFilter(v: string): v is ObservationFilter {
  return v === "any" || (OBSERVATION_CODES as readonly string[]).includes(v);
}

/** A condition on `servers` for a list query: its latest complete read carries the code (or any code). */
export function observationCondition(filter: ObservationFilter): SQL {
  const code = filter === "any" ? sql`` : sql` and ${serverObservations.code} = ${filter}`;
  return sql`exists (select 1 from ${serverObservations} where ${serverObservations.serverId} = ${servers.id}${code})`;
}

/** Servers in the registry whose latest complete read carries each code, every code listed (0 when none). */
export function observationCensus(db: Db): { code: ObservationCode; servers: number; observations: number }[] {
  const rows = db
    .select({
      code: serverObservations.code,
      servers: sql<number>`count(*)`,
      observations: sql<number>`sum(${serverObservations.count})`,
    })
    .from(serverObservations)
    .innerJoin(servers, eq(servers.id, serverObservations.serverId))
    .where(isNull(servers.leftRegistryAt))
    .groupBy(serverObservations.code)
    .all();
  const by = new Map(rows.map((r) => [r.code, r]));
  return OBSERVATION_CODES.map((code) => ({
    code,
    servers: Number(by.get(code)?.servers ?? 0),
    observations: Number(by.get(code)?.observations ?? 0),
  }));
}

/** Servers in the registry with a complete read stored: the base the census counts observations against. */
export function serversRead(db: Db): number {
  const r = db
    .select({ n: sql<number>`count(*)` })
    .from(servers)
    .where(and(isNull(servers.leftRegistryAt), isNotNull(servers.lastSuccessAt)))
    .get();
  return Number(r?.n ?? 0);
}

/** Servers in the registry with at least one observation on their latest complete read. */
export function serversWithObservations(db: Db): number {
  const r = db
    .select({ n: sql<number>`count(distinct ${serverObservations.serverId})` })
    .from(serverObservations)
    .innerJoin(servers, eq(servers.id, serverObservations.serverId))
    .where(isNull(servers.leftRegistryAt))
    .get();
  return Number(r?.n ?? 0);
}

/** Each code of some servers' latest complete reads with how often it was made, by server name in code order: one
 * lookup for a page of the index, or for one server page's line beside its overall state. */
export function observationCountsByName(db: Db, names: readonly string[]): Map<string, { code: ObservationCode; count: number }[]> {
  const out = new Map<string, { code: ObservationCode; count: number }[]>();
  if (!names.length) return out;
  const rows = db
    .select({ name: servers.name, code: serverObservations.code, count: serverObservations.count })
    .from(serverObservations)
    .innerJoin(servers, eq(servers.id, serverObservations.serverId))
    .where(inArray(servers.name, [...names]))
    .all();
  for (const r of rows) out.set(r.name, [...(out.get(r.name) ?? []), { code: r.code, count: r.count }]);
  for (const codes of out.values()) codes.sort((a, b) => OBSERVATION_CODES.indexOf(a.code) - OBSERVATION_CODES.indexOf(b.code));
  return out;
}
