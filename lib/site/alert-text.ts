import type { AlertEvent } from "../store/alerts";
import { ALERT_KIND_LABELS } from "./labels";

/** One sentence naming the kind and whether it opened or resolved, with the reason (of a stored event, or of the opening
 * of an alert held in memory). */
export function alertSentence(e: {
  event: Pick<AlertEvent["event"], "state">;
  alert: Pick<AlertEvent["alert"], "kind" | "message" | "resolvedMessage">;
}): string {
  const { alert, event } = e;
  const said = (event.state === "open" ? alert.message : (alert.resolvedMessage ?? "")).replace(/\.\s*$/, "");
  const why = /^[A-Z](?![A-Z])/.test(said) ? said[0]!.toLowerCase() + said.slice(1) : said;
  const verb = event.state === "open" ? "opened" : "resolved";
  return `mcp-status alert ${alert.kind} (${ALERT_KIND_LABELS[alert.kind].toLowerCase()}) ${verb}${why ? `: ${why}` : ""}.`;
}
