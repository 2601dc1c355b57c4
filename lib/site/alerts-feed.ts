import { Feed } from "feed";
import { alertSentence } from "./alert-text";
import type { AlertEvent } from "../store/alerts";

/** Atom of alert openings and resolutions, newest first; the same sentences the webhook sends. */
export function alertsAtom(opts: { origin: string; events: AlertEvent[]; now: Date }): string {
  const { origin, events } = opts;
  const self = `${origin}/coverage/feed.xml`;
  const feed = new Feed({
    id: self,
    title: "Alerts (mcp-status)",
    link: `${origin}/coverage`,
    updated: events[0] ? new Date(events[0].event.at) : opts.now,
    generator: "mcp-status",
    copyright: "Observations by mcp-status",
    feedLinks: { atom: self },
  });
  for (const e of events) {
    const text = alertSentence(e);
    feed.addItem({
      id: `${origin}/coverage#alert-${e.alert.id}-${e.event.state}`,
      title: text,
      link: `${origin}/coverage#alert-${e.alert.id}`,
      date: new Date(e.event.at),
      description: [text, `Open since ${e.alert.createdAt}.`, e.alert.resolvedAt ? `Resolved at ${e.alert.resolvedAt}.` : null]
        .filter((l): l is string => l !== null)
        .join("\n"),
    });
  }
  return feed.atom1();
}
