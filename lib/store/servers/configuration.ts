// A server's configuration need and what reaching it anonymously found (architecture.md §2.6, suite 0.15.0): the
// registry's part (needs configuration, the header names) beside the latest probe's reach, as one value, and the SQL
// condition behind the list's `?reach=` filter. The same rule for both, so a filter never disagrees with a page.
import { and, eq, isNotNull, isNull, type SQL } from "drizzle-orm";
import { servers } from "../../../db/schema";
import { REACHES, REACH_REFUSAL_SHAPES, type Reach, type ReachRefusalShape } from "../../vocabulary/checks";
import { parseJson } from "../runs";
import { configHeadersOf } from "./registry";
import type { ServerRow } from "./row";

export interface ServerConfiguration {
  /** The registry entry needs the user's own values (a header, a URL variable) before a client can connect. */
  needed: boolean;
  /** Names of the headers the probed remote lists as needed: never sent, shown escaped. */
  headers: string[];
  /** null while no probe could tell yet (never probed since, or only slowed down or opted out). */
  reach: Reach | null;
  /** The refusal's status and shape, when `reach` is refused. */
  refusal?: { status: number; shape: ReachRefusalShape };
}

export type ConfigurationRow = Pick<ServerRow, "needsConfig" | "configHeaders" | "reach" | "reachRefusal">;

/** The columns a configuration is read from. */
export const configurationColumns = {
  needsConfig: servers.needsConfig,
  configHeaders: servers.configHeaders,
  reach: servers.reach,
  reachRefusal: servers.reachRefusal,
};

function refusalOf(stored: string | null): ServerConfiguration["refusal"] {
  const v = parseJson<{ status?: unknown; shape?: unknown } | null>(stored, null);
  if (!v || typeof v.status !== "number" || !(REACH_REFUSAL_SHAPES as readonly unknown[]).includes(v.shape)) return undefined;
  return { status: v.status, shape: v.shape as ReachRefusalShape };
}

export function configurationOf(row: ConfigurationRow): ServerConfiguration {
  if (row.needsConfig === null) return { needed: false, headers: [], reach: "not_needed" };
  const headers = configHeadersOf(row.configHeaders);
  if (!headers) return { needed: true, headers: [], reach: "no_address" };
  const stored = row.reach && (REACHES as readonly string[]).includes(row.reach) ? row.reach : null;
  // A reach stored before the listing changed (not needed then, or no address) says nothing about this one.
  const reach = stored === "not_needed" || stored === "no_address" ? null : stored;
  const refusal = reach === "refused" ? refusalOf(row.reachRefusal) : undefined;
  return { needed: true, headers, reach, ...(refusal ? { refusal } : {}) };
}

/** The list filter `?reach=<value>`: the servers whose configuration says that reach. */
export function reachCondition(reach: Reach): SQL {
  if (reach === "not_needed") return isNull(servers.needsConfig);
  if (reach === "no_address") return and(isNotNull(servers.needsConfig), isNull(servers.configHeaders)) as SQL;
  return and(isNotNull(servers.needsConfig), isNotNull(servers.configHeaders), eq(servers.reach, reach)) as SQL;
}
