import { formatUtc } from "@/lib/site/format";
import type { Lang } from "@/lib/site/labels";
import { faqPath } from "@/lib/site/paths";
import { SECTIONS_TEXT, SERVER_TEXT } from "@/lib/site/server-text";
import { StackTable } from "../StackTable";
import { serverFeedPath } from "@/lib/site/paths";
import type { ServerDetail } from "@/lib/store/servers/detail";
import { FoldSection } from "./FoldSection";
import type { ObservationFacts } from "@/lib/checks/observations";
import { observationSentenceIn } from "@/lib/site/hint-text";
import { sameServerVersion } from "@/lib/store/tools";
import { observationAnchor, toolViews, type ToolView } from "@/lib/site/tool-view";

/** Observations beside what they concern: the code links its FAQ row, the sentence says what and where. */
function ObservationList({ items, label, lang }: { items: readonly ObservationFacts[]; label: string; lang: Lang }) {
  return (
    <ul className="observations" aria-label={label}>
      {items.map((o, i) => (
        <li key={i} data-code={o.code}>
          <a className="obs-code" href={`${faqPath(lang, "tool-observations")}#${observationAnchor(o.code)}`}>
            <code>{o.code}</code>
          </a>{" "}
          <span className="obs-sentence">{observationSentenceIn(lang, o)}</span>{" "}
          <span className="sub">
            (<code>{o.pointer}</code>)
          </span>
        </li>
      ))}
    </ul>
  );
}

function Hints({ hints, lang }: { hints: ToolView["hints"]; lang: Lang }) {
  const t = SECTIONS_TEXT[lang];
  return (
    <p className="hints sub">
      {t.annotations}
      {hints.map((h, i) => (
        <span key={h.hint} data-source={h.source}>
          {i > 0 ? SERVER_TEXT[lang].listSep : ""}
          <code>
            {h.hint}: {h.value}
          </code>
          {h.source === "default" ? t.hintDefault : h.source === "not_boolean" ? t.hintNotBoolean : ""}
        </span>
      ))}
    </p>
  );
}

/** The current complete tool list, each tool with its annotations and the observations on it (architecture.md §2.9). */
export function ToolsSection({
  tools,
  observations,
  lang = "en",
}: {
  tools: ServerDetail["tools"];
  observations: readonly ObservationFacts[];
  lang?: Lang;
}) {
  const view = tools ? toolViews(tools, observations) : null;
  const t = SECTIONS_TEXT[lang];
  return (
    <FoldSection id="tools" headingId="tools-h" title={t.toolsH(tools ? tools.length : null)}>
      {view === null ? (
        <p>{t.toolsUnread}</p>
      ) : (
        <>
          <p className="sub">
            {t.toolsSub[0]}
            <a href={faqPath(lang, "tool-observations")}>{t.toolsSub[1]}</a>
            {t.toolsSub[2]}
            {t.toolsObservations(observations.length)}
          </p>
          {view.apart.length ? <ObservationList items={view.apart} label={t.observationsOnInstructions} lang={lang} /> : null}
          {view.tools.length === 0 ? (
            <p>{t.noTools}</p>
          ) : (
            <ul className="tool-list">
              {view.tools.map((tool) => (
                <li key={tool.index} id={`tool-${tool.index + 1}`} data-observations={tool.observations.length}>
                  <code>{tool.name}</code>
                  {tool.title ? <span className="sub"> {tool.title}</span> : null}
                  {tool.description ? (
                    <div className="sub tool-description" lang={lang === "en" ? undefined : "en"}>
                      {tool.description}
                    </div>
                  ) : null}
                  <Hints hints={tool.hints} lang={lang} />
                  {tool.observations.length ? (
                    <ObservationList items={tool.observations} label={t.observationsOn(tool.name)} lang={lang} />
                  ) : null}
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
function VersionFact({ change, lang }: { change: ServerDetail["toolChanges"][number]; lang: Lang }) {
  const t = SECTIONS_TEXT[lang];
  const same = sameServerVersion(change);
  if (same !== null) return <span className="same-version">{t.changedWhileStayed(same)}</span>;
  const { serverVersionBefore: a, serverVersionAfter: b } = change;
  if (a === null && b === null) return <>–</>;
  return (
    <>
      {a ?? t.unknown} → {b ?? t.unknown}
    </>
  );
}

/** Field-level changes between complete tool lists, newest first, with the server's Atom feed. */
export function ToolChangesSection({
  name,
  changes,
  everRead,
  lang = "en",
}: {
  name: string;
  changes: ServerDetail["toolChanges"];
  everRead: boolean;
  lang?: Lang;
}) {
  const t = SECTIONS_TEXT[lang];
  return (
    <FoldSection id="changes" headingId="changes-h" title={t.changesH}>
      <p>
        <a href={serverFeedPath(name)}>{t.changesFeed}</a>
      </p>
      {changes.length === 0 ? (
        <p className="sub">{everRead ? t.noChange : t.neverRead}</p>
      ) : (
        <StackTable
          columns={[
            { label: t.colWhen, cell: (c) => <time dateTime={c.at}>{formatUtc(c.at)}</time> },
            { label: t.colTool, cell: (c) => <code>{c.toolName}</code> },
            { label: t.colChange, cell: (c) => t.changeKinds[c.kind] ?? c.kind },
            { label: t.colField, cell: (c) => (c.path ? <code>{c.path}</code> : t.wholeTool) },
            { label: t.colBefore, cell: (c) => (c.before !== null ? <code>{c.before}</code> : "–") },
            { label: t.colAfter, cell: (c) => (c.after !== null ? <code>{c.after}</code> : "–") },
            { label: "serverInfo.version", cell: (c) => <VersionFact change={c} lang={lang} /> },
          ]}
          rows={changes}
          rowKey={(_, i) => i}
        />
      )}
    </FoldSection>
  );
}
