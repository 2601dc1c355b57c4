import ts from "typescript";

/** Runs this long or longer, shared with a seed, count as a carried-over sentence. */
export const EN_RUN = 8;
export const CJK_RUN = 16;

const HAN = /\p{Script=Han}/u;
const TOKEN = /[a-z0-9]+|\p{Script=Han}+/gu;

/** Lower-case words (a token with a letter; bare numbers such as the parts of a date are skipped, they are facts,
 * not prose); any Han text ends a run of words, so Chinese prose never joins two English fragments. */
export function englishRuns(text: string): string[][] {
  const runs: string[][] = [[]];
  for (const m of text.toLowerCase().replace(/['’]/g, "").matchAll(TOKEN)) {
    if (HAN.test(m[0])) runs.push([]);
    else if (/[a-z]/.test(m[0])) runs[runs.length - 1]!.push(m[0]);
  }
  return runs.filter((r) => r.length >= EN_RUN);
}

/** Han characters in order; punctuation, whitespace, Latin and digits between them are skipped. */
export function hanText(text: string): string {
  return [...text].filter((c) => HAN.test(c)).join("");
}

export interface Shingles {
  en: Set<string>;
  zh: Set<string>;
}

export function shingles(text: string): Shingles {
  const en = new Set<string>();
  for (const run of englishRuns(text)) for (let i = 0; i + EN_RUN <= run.length; i++) en.add(run.slice(i, i + EN_RUN).join(" "));
  const zh = new Set<string>();
  const han = [...hanText(text)];
  for (let i = 0; i + CJK_RUN <= han.length; i++) zh.add(han.slice(i, i + CJK_RUN).join(""));
  return { en, zh };
}

/** One shared passage: consecutive shared windows merged, so a copied sentence counts once. */
export interface SharedRun {
  kind: "en" | "zh";
  text: string;
}

export function sharedRuns(text: string, seeds: Shingles): SharedRun[] {
  const out: SharedRun[] = [];
  for (const run of englishRuns(text)) {
    let start = -1;
    let end = -1;
    for (let i = 0; i + EN_RUN <= run.length; i++) {
      if (!seeds.en.has(run.slice(i, i + EN_RUN).join(" "))) continue;
      if (start >= 0 && i <= end) end = i + EN_RUN;
      else {
        if (start >= 0) out.push({ kind: "en", text: run.slice(start, end).join(" ") });
        start = i;
        end = i + EN_RUN;
      }
    }
    if (start >= 0) out.push({ kind: "en", text: run.slice(start, end).join(" ") });
  }
  const han = [...hanText(text)];
  let start = -1;
  let end = -1;
  for (let i = 0; i + CJK_RUN <= han.length; i++) {
    if (!seeds.zh.has(han.slice(i, i + CJK_RUN).join(""))) continue;
    if (start >= 0 && i <= end) end = i + CJK_RUN;
    else {
      if (start >= 0) out.push({ kind: "zh", text: han.slice(start, end).join("") });
      start = i;
      end = i + CJK_RUN;
    }
  }
  if (start >= 0) out.push({ kind: "zh", text: han.slice(start, end).join("") });
  return out;
}

/**
 * Marked quotations of real wire traffic are left out of the comparison, exactly these spans:
 * in TypeScript, the value of an object property named `wire` (the FAQ's `{ wire, label }` block) and
 * any expression right after a `/* wire *\/` comment (a real server's body kept verbatim in a fixture);
 * in Markdown, a fenced block whose info string is `wire`.
 */
export const WIRE_MARK = "/* wire */";

/** A comment between the previous token and this node, on the same line (trailing) or on lines before it (leading). */
function markedWire(text: string, pos: number): boolean {
  const ranges = [...(ts.getTrailingCommentRanges(text, pos) ?? []), ...(ts.getLeadingCommentRanges(text, pos) ?? [])];
  return ranges.some((c) => text.slice(c.pos, c.end) === WIRE_MARK);
}

export function withoutWireQuotes(path: string, text: string): string {
  const spans: [number, number][] = [];
  if (/\.(ts|tsx|mts|cts)$/.test(path)) {
    const kind = path.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
    const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, kind);
    const visit = (node: ts.Node) => {
      if (ts.isPropertyAssignment(node) && node.name.getText(file) === "wire")
        spans.push([node.initializer.getStart(file), node.initializer.getEnd()]);
      else if (markedWire(text, node.getFullStart())) spans.push([node.getStart(file), node.getEnd()]);
      ts.forEachChild(node, visit);
    };
    visit(file);
  } else if (/\.md$/.test(path)) {
    for (const m of text.matchAll(/^```wire\n[\s\S]*?^```$/gm)) spans.push([m.index, m.index + m[0].length]);
  }
  let out = text;
  // A blanked span keeps its length and breaks runs on both sides, like a paragraph break would.
  for (const [a, b] of spans.sort((x, y) => y[0] - x[0]))
    out = out.slice(0, a) + "\n丨\n" + " ".repeat(Math.max(0, b - a - 3)) + out.slice(b);
  return out;
}
