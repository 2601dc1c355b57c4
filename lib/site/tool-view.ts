import { ANNOTATION_HINTS, cappedText, shownText, type AnnotationHint, type ObservationFacts } from "../checks/observations";
import type { ObservationCode } from "../vocabulary/checks";

// What the tools section of a server page shows (architecture.md §2.9): each tool as received, its annotations with the
// spec's defaults for absent hints, and the observations that concern it beside it.

/** The MCP spec's defaults for absent hints (ToolAnnotations). */
export const HINT_DEFAULTS: Record<AnnotationHint, boolean> = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: true,
};

export interface HintRow {
  hint: AnnotationHint;
  /** What a client goes by: the declared boolean, else the default. */
  value: string;
  source: "declared" | "default" | "not_boolean";
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** The four hints of a tool, each declared, defaulted, or declared with a value that is not a boolean. */
export function hintRows(tool: unknown): HintRow[] {
  const a = isObject(tool) && isObject(tool.annotations) ? tool.annotations : {};
  return ANNOTATION_HINTS.map((hint) => {
    if (!(hint in a)) return { hint, value: String(HINT_DEFAULTS[hint]), source: "default" };
    const v = a[hint];
    if (typeof v === "boolean") return { hint, value: String(v), source: "declared" };
    return { hint, value: shownText(JSON.stringify(v) ?? String(v), 60), source: "not_boolean" };
  });
}

export interface ToolView {
  index: number;
  name: string;
  title: string | null;
  description: string | null;
  hints: HintRow[];
  observations: ObservationFacts[];
}

const field = (t: unknown, k: string): string | null => {
  const v = isObject(t) ? t[k] : undefined;
  return typeof v === "string" ? v : null;
};

/** Characters of a description shown on the page; the tool history and JSON keep it whole. */
export const DESCRIPTION_CHARS = 1200;

/**
 * The tools in stored order with their observations: an observation goes beside the first tool whose name it names; the
 * rest (the server's instructions, tools without a name) are returned apart.
 */
export function toolViews(
  tools: readonly unknown[],
  observations: readonly ObservationFacts[],
): { tools: ToolView[]; apart: ObservationFacts[] } {
  const views: ToolView[] = tools.map((t, index) => {
    const name = field(t, "name");
    const description = field(t, "description");
    const title = field(t, "title") ?? (isObject(t) && isObject(t.annotations) ? field(t.annotations, "title") : null);
    return {
      index,
      name: name === null ? "(no name)" : shownText(name, 128),
      title: title === null ? null : shownText(title, 200),
      description: description === null ? null : shownText(description, DESCRIPTION_CHARS),
      hints: hintRows(t),
      observations: [],
    };
  });
  const byName = new Map<string, ToolView>();
  tools.forEach((t, i) => {
    const name = field(t, "name");
    if (name !== null && !byName.has(cappedText(name))) byName.set(cappedText(name), views[i]!);
  });
  const apart: ObservationFacts[] = [];
  for (const o of observations) {
    const v = o.tool !== undefined ? byName.get(o.tool) : undefined;
    if (v) v.observations.push(o);
    else apart.push(o);
  }
  return { tools: views, apart };
}

/** The FAQ anchor of a code (lib/site/faq/rules.ts, group "observations"). */
export function observationAnchor(code: ObservationCode): string {
  return `obs-${code.replace(/_/g, "-")}`;
}
