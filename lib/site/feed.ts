import { Feed } from "feed";
import { sameServerVersion, type ToolChangeRow } from "../store/tools";
import type { StateChangeRow } from "../store/history";
import type { IncidentEvent } from "../store/incidents";
import { CHECK_LABELS, NOT_CHECKED_CAUSE_LABELS, STATE_LABELS } from "./labels";
import { checkAnchor, serverPath } from "./paths";
import { formatIncidentDuration } from "./uptime";

function describe(c: ToolChangeRow): string {
  const where = c.path ? ` (${c.path})` : "";
  // architecture.md §2.9: a change under an unchanged serverInfo.version is said as a fact.
  const same = sameServerVersion(c);
  const version = same !== null ? ` while serverInfo.version stayed ${same}` : "";
  if (c.kind === "added") return `tool ${c.toolName} added${where}${version}`;
  if (c.kind === "removed") return `tool ${c.toolName} removed${where}${version}`;
  return `tool ${c.toolName} changed${where}${version}`;
}

interface FeedHead {
  origin: string;
  selfPath: string;
  title: string;
  /** Newest entry's time, else now. */
  updated: Date;
}

function newFeed(h: FeedHead): Feed {
  return new Feed({
    id: `${h.origin}${h.selfPath}`,
    title: h.title,
    link: `${h.origin}/changes`,
    updated: h.updated,
    generator: "mcp-status",
    copyright: "Observations by mcp-status",
    feedLinks: { atom: `${h.origin}${h.selfPath}` },
  });
}

/** " Overall: Not checked (credential required)." after a change, when the run recorded its overall state. */
function overallWords(t: StateChangeRow): string {
  if (!t.overall) return "";
  const kind = t.overall === "not_checked" && t.overallCause ? ` (${NOT_CHECKED_CAUSE_LABELS.en[t.overallCause]})` : "";
  return ` Overall after this probe: ${STATE_LABELS.en[t.overall]}${kind}.`;
}

/** Atom for check state changes (transitions), first results included. */
export function stateChangesAtom(opts: { origin: string; selfPath: string; title: string; rows: StateChangeRow[]; now: Date }): string {
  const { origin, rows } = opts;
  const feed = newFeed({ ...opts, updated: rows[0] ? new Date(rows[0].at) : opts.now });
  for (const t of rows) {
    const check = CHECK_LABELS.en[t.check];
    const change = t.fromState
      ? `${STATE_LABELS.en[t.fromState]} → ${STATE_LABELS.en[t.toState]}`
      : `first result ${STATE_LABELS.en[t.toState]}`;
    feed.addItem({
      id: `${origin}/changes/states.xml#transition-${t.id}`,
      title: `${t.serverName}: ${check} ${change}`,
      link: `${origin}${serverPath(t.serverName)}#${checkAnchor(t.check)}`,
      date: new Date(t.at),
      description: `${t.reason} (suite ${t.suiteVersion})${overallWords(t)}`,
    });
  }
  return feed.atom1();
}

/** Atom for tool-definition changes. The feed package escapes every text field as XML. */
export function changesAtom(opts: { origin: string; selfPath: string; title: string; rows: ToolChangeRow[]; now: Date }): string {
  const { origin, rows } = opts;
  const feed = newFeed({ ...opts, updated: rows[0] ? new Date(rows[0].at) : opts.now });
  for (const c of rows) {
    const lines = [
      `${c.serverName}: ${describe(c)}.`,
      c.before !== null ? `Before: ${c.before}` : null,
      c.after !== null ? `After: ${c.after}` : null,
    ].filter((l): l is string => l !== null);
    feed.addItem({
      id: `${origin}/changes#change-${c.id}`,
      title: `${c.serverName}: ${describe(c)}`,
      link: `${origin}${serverPath(c.serverName)}#changes-h`,
      date: new Date(c.at),
      description: lines.join("\n"),
    });
  }
  return feed.atom1();
}

/** Atom of incident openings and closings (architecture.md §4), newest first. */
export function incidentsAtom(opts: { origin: string; selfPath: string; title: string; events: IncidentEvent[]; now: Date }): string {
  const { origin, events } = opts;
  const feed = newFeed({ ...opts, updated: events[0] ? new Date(events[0].at) : opts.now });
  for (const e of events) {
    const i = e.incident;
    const check = CHECK_LABELS.en[i.check];
    const title =
      e.kind === "opened"
        ? `${i.serverName}: incident opened, ${check} Failed`
        : `${i.serverName}: incident closed after ${formatIncidentDuration(i.durationMs ?? 0)}`;
    feed.addItem({
      id: `${origin}/incidents#incident-${i.id}-${e.kind}`,
      title,
      link: `${origin}${serverPath(i.serverName)}#incidents-h`,
      date: new Date(e.at),
      description: [`${title}.`, `Opened at ${i.startedAt} by ${check}: ${i.reason}`, i.endedAt ? `Closed at ${i.endedAt}.` : null]
        .filter((l): l is string => l !== null)
        .join("\n"),
    });
  }
  return feed.atom1();
}
