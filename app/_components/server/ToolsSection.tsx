import { formatUtc } from "@/lib/site/format";
import { serverFeedPath } from "@/lib/site/paths";
import type { ServerDetail } from "@/lib/store/servers/detail";

function toolName(tool: unknown): string {
  const n = (tool as { name?: unknown })?.name;
  return typeof n === "string" ? n : "(no name)";
}

function toolDescription(tool: unknown): string | null {
  const d = (tool as { description?: unknown })?.description;
  return typeof d === "string" ? d : null;
}

/** The current complete tool list. */
export function ToolsSection({ tools }: { tools: ServerDetail["tools"] }) {
  return (
    <section aria-labelledby="tools-h">
      <h2 id="tools-h">Tools{tools ? ` (${tools.length})` : ""}</h2>
      {tools === null ? (
        <p>The complete tool list has not been read.</p>
      ) : tools.length === 0 ? (
        <p>The server lists no tools.</p>
      ) : (
        <ul className="tool-list">
          {tools.map((t, i) => (
            <li key={i}>
              <code>{toolName(t)}</code>
              {toolDescription(t) ? <div className="sub">{toolDescription(t)}</div> : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** Field-level changes between complete tool lists, newest first, with the server's Atom feed. */
export function ToolChangesSection({ name, changes, everRead }: { name: string; changes: ServerDetail["toolChanges"]; everRead: boolean }) {
  return (
    <section aria-labelledby="changes-h">
      <h2 id="changes-h">Tool-definition changes</h2>
      <p>
        <a href={serverFeedPath(name)}>Atom feed of this server&apos;s changes</a>
      </p>
      {changes.length === 0 ? (
        <p className="sub">
          {everRead
            ? "No change recorded since the first complete tool list."
            : "No complete tool list has been read yet, so there is nothing to compare a change against."}
        </p>
      ) : (
        <table className="stack">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Tool</th>
              <th scope="col">Change</th>
              <th scope="col">Field</th>
              <th scope="col">Before</th>
              <th scope="col">After</th>
            </tr>
          </thead>
          <tbody>
            {changes.map((c, i) => (
              <tr key={i}>
                <td data-label="When">
                  <time dateTime={c.at}>{formatUtc(c.at)}</time>
                </td>
                <td data-label="Tool">
                  <code>{c.toolName}</code>
                </td>
                <td data-label="Change">{c.kind}</td>
                <td data-label="Field">{c.path ? <code>{c.path}</code> : "whole tool"}</td>
                <td data-label="Before">{c.before !== null ? <code>{c.before}</code> : "–"}</td>
                <td data-label="After">{c.after !== null ? <code>{c.after}</code> : "–"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
