// One row per registry server: the registry's listing, the latest state of each check (denormalised so the index
// filters and pages on indexes alone), and the schedule. This file holds the row's type and its state columns;
// registry.ts writes the listing, round.ts the probe's results and schedule, list/detail/counts.ts read it.
import { servers } from "../../../db/schema";
import { CHECK_IDS, type CheckId, type CheckState } from "../../vocabulary/checks";

export type ServerRow = typeof servers.$inferSelect;

/** The denormalised state field behind each check: the one place a check id meets its column. */
export const STATE_FIELDS = {
  handshake: "stateHandshake",
  protocol_version: "stateProtocolVersion",
  tools_list: "stateToolsList",
  error_taxonomy: "stateErrorTaxonomy",
  auth_metadata: "stateAuthMetadata",
} as const satisfies Record<CheckId, keyof ServerRow>;
export type StateField = (typeof STATE_FIELDS)[CheckId];

/** The column holding a check's latest state (`stateColumn(id).name` is its SQL name). */
export function stateColumn(id: CheckId) {
  return servers[STATE_FIELDS[id]];
}

/** The five state columns, keyed by field, for a select. */
export const stateSelect = Object.fromEntries(CHECK_IDS.map((id) => [STATE_FIELDS[id], stateColumn(id)])) as {
  [F in StateField]: (typeof servers)[F];
};

/** A server row's states keyed by check id; null until the first run. */
export function statesOf(row: Pick<ServerRow, StateField>): Record<CheckId, CheckState | null> {
  return Object.fromEntries(CHECK_IDS.map((id) => [id, row[STATE_FIELDS[id]]])) as Record<CheckId, CheckState | null>;
}

/** The state fields of a server row for states keyed by check id. */
export function stateFields(states: Record<CheckId, CheckState | null>): Pick<ServerRow, StateField> {
  return Object.fromEntries(CHECK_IDS.map((id) => [STATE_FIELDS[id], states[id]])) as Pick<ServerRow, StateField>;
}

/** `s` inside a LIKE pattern written with `escape '\\'`: its %, _ and \ match only themselves. */
export function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}
