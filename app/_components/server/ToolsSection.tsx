import { formatUtc } from "@/lib/site/format";
import { serverFeedPath } from "@/lib/site/paths";
import type { ServerDetail } from "@/lib/store/servers/detail";
import { FoldSection } from "./FoldSection";
import type { ObservationFacts } from "@/lib/checks/observations";
import { observationSentence } from "@/lib/checks/observation-text";
import { sameServerVersion } from "@/lib/store/tools";
import { observationAnchor, toolViews, type ToolView } from "@/lib/site/tool-view";

/** Observations beside what they concern: the code links its FAQ row, the sentence says what and where. */
function ObservationList({ items, label }: { items: readonly ObservationFacts[]; label: string }) {
  return (
    <ul className="observations" aria-label={label}>
      {items.map((o, i) => (
        <li key={i} data-code={o.code}>
          <a className="obs-code" href={`/faq/tool-observations#${observationAnchor(o.code)}`}>
            <code>{o.code}</code>
          </a>{" "}
          {observationSentence(o)}{" "}
          <span className="sub">
            (<code>{o.pointer}</code>)
          </span>
        </li>
      ))}
    </ul>
  );
}

function Hints({ hints }: { hints: ToolView["hints"] }) {
  return (
    <p className="hints sub">
      Annotations, declared by the server, not verified:{" "}
      {hints.map((h, i) => (
        <span key={h.hint} data-source={h.source}>
          {i > 0 ? ", " : ""}
          <code>
            {h.hint}: {h.value}
          </code>
          {h.source === "default" ? " (absent: the spec's default)" : h.source === "not_boolean" ? " (not a boolean)" : ""}
        </span>
      ))}
    </p>
  );
}

/** The current complete tool list, each tool with its annotations and the observations on it (architecture.md §2.9). */
export function ToolsSection({ tools, observations }: { tools: ServerDetail["tools"]; observations: readonly ObservationFacts[] }) {
  const view = tools ? toolViews(tools, observations) : null;
  return (
    <FoldSection id="tools" headingId="tools-h" title={`Tools${tools ? ` (${tools.length})` : ""}`}>
      {view === null ? (
        <p>The complete tool list has not been read.</p>
      ) : (
        <>
          <p className="sub">
            As the latest complete read received them. Annotations are hints the server declares; the MCP spec tells clients to treat them
            as untrusted, and nothing here verifies them. An <a href="/faq/tool-observations">observation</a> is a fact about a definition
            (hidden characters, a narrow phrase, a spec fact), never a verdict: it changes no state, badge, uptime or incident.{" "}
            {observations.length === 0 ? "This list carries none." : `This list carries ${observations.length}.`}
          </p>
          {view.apart.length ? <ObservationList items={view.apart} label="Observations on the server's instructions" /> : null}
          {view.tools.length === 0 ? (
            <p>The server lists no tools.</p>
          ) : (
            <ul className="tool-list">
              {view.tools.map((t) => (
                <li key={t.index} id={`tool-${t.index + 1}`} data-observations={t.observations.length}>
                  <code>{t.name}</code>
                  {t.title ? <span className="sub"> {t.title}</span> : null}
                  {t.description ? <div className="sub tool-description">{t.description}</div> : null}
                  <Hints hints={t.hints} />
                  {t.observations.length ? <ObservationList items={t.observations} label={`Observations on ${t.name}`} /> : null}
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </FoldSection>
  );
}

/** architecture.md §2.9: the versions the two reads reported; the same one on both sides is said as a fact. */
function VersionFact({ change }: { change: ServerDetail["toolChanges"][number] }) {
  const same = sameServerVersion(change);
  if (same !== null) return <span className="same-version">changed while it stayed {same}</span>;
  const { serverVersionBefore: a, serverVersionAfter: b } = change;
  if (a === null && b === null) return <>–</>;
  return (
    <>
      {a ?? "unknown"} → {b ?? "unknown"}
    </>
  );
}

/** Field-level changes between complete tool lists, newest first, with the server's Atom feed. */
export function ToolChangesSection({ name, changes, everRead }: { name: string; changes: ServerDetail["toolChanges"]; everRead: boolean }) {
  return (
    <FoldSection id="changes" headingId="changes-h" title="Tool-definition changes">
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
              <th scope="col">serverInfo.version</th>
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
                <td data-label="serverInfo.version">
                  <VersionFact change={c} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </FoldSection>
  );
}
