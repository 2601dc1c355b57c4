import { Feed } from "feed";
import { type ToolChangeRow } from "../store/tools";
import { serverPath } from "./paths";

function describe(c: ToolChangeRow): string {
  const where = c.path ? ` (${c.path})` : "";
  if (c.kind === "added") return `tool ${c.toolName} added${where}`;
  if (c.kind === "removed") return `tool ${c.toolName} removed${where}`;
  return `tool ${c.toolName} changed${where}`;
}

/** Atom for tool-definition changes. The feed package escapes every text field as XML. */
export function changesAtom(opts: { origin: string; selfPath: string; title: string; rows: ToolChangeRow[]; now: Date }): string {
  const { origin, rows } = opts;
  const feed = new Feed({
    id: `${origin}${opts.selfPath}`,
    title: opts.title,
    link: `${origin}/changes`,
    updated: rows[0] ? new Date(rows[0].at) : opts.now,
    generator: "mcp-status",
    copyright: "Observations by mcp-status",
    feedLinks: { atom: `${origin}${opts.selfPath}` },
  });
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
