// What a run changed, as subscribers are told of it (architecture.md §10). Called by the run's writer inside the run's own
// transaction, so a change and its messages are stored together or not at all.
import type { Db } from "../../../db/client";
import type { ChangeFacts } from "../../site/notify-text";
import { enqueueServerEvent } from "../../store/subscriptions";
import type { CheckState } from "../../vocabulary/checks";
import type { ToolChangeKind } from "../../vocabulary/store";

export interface RunChanges {
  /** The overall state moved (not on a server's first run: there is nothing it changed from). */
  overall?: { from: CheckState; to: CheckState; reason: string | null };
  incident?: { kind: "open"; reason: string } | { kind: "close" };
  tools?: readonly { kind: ToolChangeKind }[];
  /** The observation codes of this complete read, when they differ from the last one's. */
  observations?: readonly string[];
}

const VERIFIED_REASON = "The handshake completed and the tool list was read to its end; no check failed or observed a risk.";

/** Puts each change in the outbox of the subscriptions that asked for it; returns the rows written. */
export function enqueueRunChanges(db: Db, serverId: number, c: RunChanges, now: Date): number {
  const at = now.toISOString();
  let n = 0;
  const put = (event: Parameters<typeof enqueueServerEvent>[2], facts: ChangeFacts) =>
    (n += enqueueServerEvent(db, serverId, event, facts, now));
  if (c.overall) put("state_changed", { from: c.overall.from, to: c.overall.to, reason: c.overall.reason ?? VERIFIED_REASON, at });
  if (c.incident?.kind === "open") put("incident_opened", { reason: c.incident.reason, at });
  if (c.incident?.kind === "close")
    put("incident_resolved", { reason: "A probe reached the server again with no discovery check failed.", at });
  if (c.tools && c.tools.length > 0) {
    const count = (k: ToolChangeKind) => c.tools!.filter((t) => t.kind === k).length;
    const tools = { added: count("added"), removed: count("removed"), changed: count("changed") };
    put("tools_changed", {
      reason: `The tool list changed: ${tools.added} added, ${tools.removed} removed, ${tools.changed} changed.`,
      at,
      tools,
    });
  }
  if (c.observations) {
    const codes = [...c.observations];
    const reason = codes.length
      ? `The latest complete read has observations on its tool definitions: ${codes.join(", ")}.`
      : "The latest complete read has no observations on its tool definitions any more.";
    put("observations_changed", { reason, at, codes });
  }
  return n;
}
