import type Database from "better-sqlite3";
import type { Db } from "../../db/client";
import { META_KEYS } from "./meta";

// Cheap data versions read on every request, so a cached answer is reused exactly until a write changes
// what it shows, whichever process wrote (the site's own rounds, `npm run round`, `npm run opt-out`).
// Between two commits a version is read from memory (a commit of another process shows within 1 ms).

const SERVER_VERSION_SQL = `
  select s.last_run_id as runId, s.next_due_at as nextDueAt, s.left_registry_at as leftAt, s.last_seen_at as seenAt,
         (select o.since || o.source from opt_outs o where o.host = s.host) as optOut,
         (select max(r.requested_at) from reprobe_requests r where r.server_id = s.id) as reprobe,
         (select c.day || c.read_at || c.outcome || c.explained from cross_reads c where c.server_id = s.id
           order by c.day desc limit 1) as crossRead,
         (select count(*) || ':' || coalesce(max(c.verified_at), '') || ':' || coalesce(max(c.lapsed_at), '') ||
            (select ':' || count(*) || coalesce(max(o.set_at), '') from owner_secrets o join claims k on k.id = o.claim_id
              where k.server_id = s.id)
            from claims c where c.server_id = s.id) as owners
    from servers s where s.name = ?`;

// Aggregate pages change once per round: the last finished round, plus registry refreshes and opt-out edits.
const SITE_VERSION_SQL = `
  select (select max(id) from rounds where finished_at is not null) as round,
         (select value from meta where key = ?) as registry,
         (select count(*) || '/' || coalesce(max(since), '') from opt_outs) as optOuts`;

// Whether anything was committed since the last read: SQLite's data_version moves with every commit of
// another connection, total_changes with every row this connection changed. Reading data_version starts a
// read transaction, which costs more than the rest of a cached answer, so it is read at most once a
// millisecond: another process's write shows within that, this connection's own at once.
const OTHERS_CHECKED_EVERY_MS = 1;

interface Statements {
  server: Database.Statement<[string], Record<string, string | number | null>>;
  site: Database.Statement<[string], Record<string, string | number | null>>;
  dataVersion: Database.Statement<[], number>;
  ownChanges: Database.Statement<[], number>;
  checkedAt: number;
  seen: { dataVersion: number; ownChanges: number };
  /** Versions read since the last commit anywhere. */
  servers: Map<string, string>;
  siteVersion: string | null;
}

// Prepared once per connection: a version read costs one indexed lookup, not a query build, and between
// two writes not even that.
const prepared = new WeakMap<Database.Database, Statements>();

function statements(db: Db): Statements {
  let s = prepared.get(db.$client);
  if (!s) {
    s = {
      server: db.$client.prepare(SERVER_VERSION_SQL),
      site: db.$client.prepare(SITE_VERSION_SQL),
      dataVersion: db.$client.prepare("pragma data_version").pluck() as Database.Statement<[], number>,
      ownChanges: db.$client.prepare("select total_changes()").pluck() as Database.Statement<[], number>,
      checkedAt: -Infinity,
      seen: { dataVersion: -1, ownChanges: -1 },
      servers: new Map(),
      siteVersion: null,
    };
    prepared.set(db.$client, s);
  }
  const ownChanges = s.ownChanges.get()!;
  const now = performance.now();
  if (ownChanges !== s.seen.ownChanges || now - s.checkedAt >= OTHERS_CHECKED_EVERY_MS) {
    s.checkedAt = now;
    const dataVersion = s.dataVersion.get()!;
    if (dataVersion !== s.seen.dataVersion || ownChanges !== s.seen.ownChanges) {
      s.seen = { dataVersion, ownChanges };
      s.servers.clear();
      s.siteVersion = null;
    }
  }
  return s;
}

function join(row: Record<string, string | number | null> | undefined): string | null {
  return row
    ? Object.values(row)
        .map((v) => v ?? "")
        .join("|")
    : null;
}

/** Changes with every committed write that alters what one server's page, badge or JSON shows (its latest
 * cross-read included); null for an unknown name. */
export function serverDataVersion(db: Db, name: string): string | null {
  const s = statements(db);
  const known = s.servers.get(name);
  if (known !== undefined) return known;
  const version = join(s.server.get(name));
  // Unknown names are read each time: anyone can ask for any name, and the memory stays one entry per server.
  if (version !== null) s.servers.set(name, version);
  return version;
}

/** Changes once per finished round, registry refresh or opt-out edit: the version of aggregate pages. */
export function siteDataVersion(db: Db): string {
  const s = statements(db);
  s.siteVersion ??= join(s.site.get(META_KEYS.registryRefreshedAt)) ?? "";
  return s.siteVersion;
}

/** `now` cut to a UTC hour or day as text, the last one kept: versions are read on every request. */
function utcPrefix(ms: number, chars: number) {
  let last = { at: NaN, text: "" };
  return (now: Date) => {
    const at = Math.floor(now.getTime() / ms);
    if (at !== last.at) last = { at, text: now.toISOString().slice(0, chars) };
    return last.text;
  };
}
const utcHour = utcPrefix(3_600_000, 13);
const utcDay = utcPrefix(86_400_000, 10);

/** `/`: changes once per finished round, registry refresh or opt-out edit, and at UTC midnight (the 90-day strips move). */
export const indexVersion = (db: Db, now: Date) => `${siteDataVersion(db)}|${utcDay(now)}`;

/** A server page and `/api/servers/<name>`: every write about the server, and the hour (the page's "probe
 * again" token lives two hours; history and response times count back from now). */
export const serverPageVersion = (db: Db, name: string, now: Date) => `${serverDataVersion(db, name) ?? "unknown"}|${utcHour(now)}`;

/** Badges: every write about the server, and the UTC day (the latency badge reads the last 24 h). */
export const badgeVersion = (db: Db, name: string, now: Date) => `${serverDataVersion(db, name) ?? "unknown"}|${utcDay(now)}`;

/** A server's link-preview card: every write about the server (states, last probe, leaving the registry); null
 * for an unknown name. */
export const cardVersion = (db: Db, name: string) => serverDataVersion(db, name);
