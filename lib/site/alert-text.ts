import type { AlertEvent } from "../store/alerts";
import { ALERT_KIND_LABELS } from "./labels";

/** One sentence naming the kind and whether it opened or resolved, with the reason. */
export function alertSentence(e: AlertEvent): string {
  const { alert, event } = e;
  const said = (event.state === "open" ? alert.message : (alert.resolvedMessage ?? "")).replace(/\.\s*$/, "");
  const why = /^[A-Z](?![A-Z])/.test(said) ? said[0]!.toLowerCase() + said.slice(1) : said;
  const verb = event.state === "open" ? "opened" : "resolved";
  return `mcp-status alert ${alert.kind} (${ALERT_KIND_LABELS[alert.kind].toLowerCase()}) ${verb}${why ? `: ${why}` : ""}.`;
}
