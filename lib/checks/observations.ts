import type { ObservationCode } from "../vocabulary/checks";

// architecture.md §2.9 (suite 0.14.0): observations on tool definitions. Facts about every string of the tool list as
// received and the server's instructions, each with its JSON pointer and an offset in code points; never a verdict.
// Pure and linear in the input: no regular expression here can backtrack, and every piece of evidence is capped.

/** The facts one observation is rendered from (lib/checks/observation-text.ts words them). */
export interface ObservationFacts {
  code: ObservationCode;
  /** The tool's name as received (capped), when the observation concerns a tool with a string name. */
  tool?: string;
  /** JSON pointer into `{tools: [...], instructions}`: "/tools/3/description", "/instructions". */
  pointer: string;
  /** True when the characters sit in an object key (the member `pointer` names), not in its value. */
  inKey?: boolean;
  /** Code points before the first occurrence in the string at `pointer`. */
  offset?: number;
  count?: number;
  /** Hidden text decoded: tag characters as ASCII, a variation-selector run or base64 as UTF-8. */
  decoded?: string;
  /** The distinct code points concerned, "U+E0072", at most a few. */
  codePoints?: string[];
  /** The words matched (phrases), a secret path, or the name that breaks the format; capped. */
  excerpt?: string;
  /** duplicate_tool_name: the names that collide. annotation_not_boolean: the hints that are not booleans. */
  names?: string[];
  /** annotation_not_boolean: the first offending value as JSON (capped). */
  value?: string;
}

export interface ObservationInput {
  tools: readonly unknown[];
  /** The server's `instructions` from its InitializeResult or DiscoverResult, when it gave a string. */
  instructions?: unknown;
}

/** Observations of one code kept per tool list; a list of 10,000 poisoned tools still yields a bounded answer. */
export const MAX_PER_CODE = 100;
/** Characters of decoded text, excerpts and names kept in evidence. */
export const EVIDENCE_CHARS = 160;
const MAX_CODE_POINTS = 6;
/** Characters of a base64 run decoded to judge whether it is text. */
const BASE64_DECODE_CHARS = 4096;
/** How far a sentence is searched around a secret path (architecture.md §2.9: "in one sentence"). */
const SENTENCE_REACH = 400;

// ---- character classes (defined by Unicode code points, so ordinary text in any language does not trip them) ----

const enum K {
  Plain = 0,
  Tag,
  Bidi,
  /** Invisible on its own: U+200B, U+2060-2064, U+180E, U+3164, U+FFA0, U+FEFF. */
  InvisibleAlone,
  /** Invisible only in a run of two or more: U+200C-200F, U+061C, U+00AD, U+034F. */
  InvisibleInRun,
  VariationSelector,
  Control,
}

function kindOf(cp: number): K {
  if (cp < 0x20) return cp === 0x09 || cp === 0x0a || cp === 0x0d ? K.Plain : K.Control;
  if (cp < 0x7f) return K.Plain;
  if (cp <= 0x9f) return K.Control;
  if (cp < 0x00ad) return K.Plain;
  if (cp === 0x00ad || cp === 0x034f || cp === 0x061c) return K.InvisibleInRun;
  if (cp === 0x180e || cp === 0x3164 || cp === 0xffa0 || cp === 0xfeff || cp === 0x200b) return K.InvisibleAlone;
  if (cp >= 0x200c && cp <= 0x200f) return K.InvisibleInRun;
  if (cp >= 0x202a && cp <= 0x202e) return K.Bidi;
  if (cp >= 0x2060 && cp <= 0x2064) return K.InvisibleAlone;
  if (cp >= 0x2066 && cp <= 0x2069) return K.Bidi;
  if (cp >= 0xfe00 && cp <= 0xfe0f) return K.VariationSelector;
  if (cp >= 0xe0000 && cp <= 0xe007f) return K.Tag;
  if (cp >= 0xe0100 && cp <= 0xe01ef) return K.VariationSelector;
  return K.Plain;
}

/** A quick test that a string holds none of the classes above, so most strings skip the code-point walk. */
const ANY_HIDDEN =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u00ad\u034f\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\u3164\ufe00-\ufe0f\ufeff\uffa0]|\udb40[\udc00-\udc7f\udd00-\uddef]/;
const ANY_SURROGATE = /[\ud800-\udfff]/;

/** Thai, Lao, Myanmar and Khmer are written without spaces; U+200B marks word breaks there. */
function isSoutheastAsianLetter(cp: number): boolean {
  return (
    (cp >= 0x0e00 && cp <= 0x0eff) || // Thai, Lao
    (cp >= 0x1000 && cp <= 0x109f) || // Myanmar
    (cp >= 0xa9e0 && cp <= 0xa9ff) ||
    (cp >= 0xaa60 && cp <= 0xaa7f) ||
    (cp >= 0x1780 && cp <= 0x17ff) || // Khmer
    (cp >= 0x19e0 && cp <= 0x19ff)
  );
}

const WAVING_BLACK_FLAG = 0x1f3f4;
const CANCEL_TAG = 0xe007f;

/** A subdivision flag (England, Scotland, Wales, …): U+1F3F4, 3 to 7 tag letters or digits, CANCEL TAG (UTS #51). */
function subdivisionFlagEnd(s: string, i: number): number {
  let j = i;
  let n = 0;
  for (;;) {
    const cp = s.codePointAt(j);
    if (cp === undefined) return -1;
    if (cp === CANCEL_TAG) return n >= 3 && n <= 7 ? j + 2 : -1;
    const ok = (cp >= 0xe0030 && cp <= 0xe0039) || (cp >= 0xe0061 && cp <= 0xe007a);
    if (!ok || ++n > 7) return -1;
    j += 2;
  }
}

export function codePointLabel(cp: number): string {
  return `U+${cp.toString(16).toUpperCase().padStart(4, "0")}`;
}

/** Text as evidence: hidden and control characters spelled as U+XXXX so a page never renders them, capped with "…". */
export function shownText(text: string, max = EVIDENCE_CHARS): string {
  let out = "";
  let n = 0;
  for (const ch of text) {
    if (n >= max) return `${out}…`;
    const cp = ch.codePointAt(0)!;
    const k = kindOf(cp);
    out += k === K.Plain && !(cp >= 0xd800 && cp <= 0xdfff) ? ch : `<${codePointLabel(cp)}>`;
    n++;
  }
  return out;
}

// ---- one string -------------------------------------------------------------------------------------------------

interface Where {
  tool?: string;
  pointer: () => string;
  inKey?: boolean;
}

type Emit = (f: ObservationFacts) => void;
type Base = Omit<ObservationFacts, "code">;

/** Pointers longer than this are cut (a schema thousands of levels deep); evidence stays bounded. */
const MAX_POINTER_CHARS = 4096;

/** Where an observation sits, built only when there is one to emit (a pointer costs a walk up the tree). */
function baseOf(where: Where): Base {
  const p = where.pointer();
  const pointer = p.length > MAX_POINTER_CHARS ? `${p.slice(0, MAX_POINTER_CHARS)}…` : p;
  return { ...(where.tool !== undefined ? { tool: where.tool } : {}), pointer, ...(where.inKey ? { inKey: true } : {}) };
}

class Tally {
  count = 0;
  offset = -1;
  private cps = new Set<number>();
  add(cpIndex: number, cp: number, n = 1): void {
    if (this.offset < 0) this.offset = cpIndex;
    this.count += n;
    if (this.cps.size < MAX_CODE_POINTS) this.cps.add(cp);
  }
  codePoints(): string[] {
    return [...this.cps].sort((a, b) => a - b).map(codePointLabel);
  }
}

/** The string with every hidden character removed, and for each UTF-16 index of it the code-point offset in the original. */
interface Cleaned {
  text: string;
  offsetAt(index: number): number;
}

function identityOffsets(s: string): Cleaned {
  if (!ANY_SURROGATE.test(s)) return { text: s, offsetAt: (i) => i };
  return { text: s, offsetAt: (i) => [...s.slice(0, i)].length };
}

function scanHidden(s: string, where: Where, emit: Emit): Cleaned {
  if (!ANY_HIDDEN.test(s)) return identityOffsets(s);
  const tags = new Tally();
  let decodedTags = "";
  const bidi = new Tally();
  const invisible = new Tally();
  const vs = new Tally();
  let vsBytes: number[] | null = null;
  let vsDecoded: string | undefined;
  const control = new Tally();

  const kept: string[] = [];
  const map = new Int32Array(s.length + 1);
  let keptLen = 0;
  let segStart = 0;
  let flagUntil = -1;
  // The current run of invisible characters and of variation selectors.
  let invRun: { start: number; cps: number[]; alone: boolean } | null = null;
  let vsRun: { start: number; bytes: number[] } | null = null;
  let prevPlainCp = -1;

  const closeInvisible = (nextCp: number) => {
    if (!invRun) return;
    const r = invRun;
    invRun = null;
    if (r.cps.length >= 2) {
      r.cps.forEach((cp, k) => invisible.add(r.start + k, cp));
      return;
    }
    const cp = r.cps[0]!;
    if (!r.alone) return;
    if (cp === 0xfeff && r.start === 0) return; // a byte order mark at the start
    if (cp === 0x200b && isSoutheastAsianLetter(prevPlainCp) && isSoutheastAsianLetter(nextCp)) return;
    invisible.add(r.start, cp);
  };
  const closeVs = () => {
    if (!vsRun) return;
    const r = vsRun;
    vsRun = null;
    if (r.bytes.length >= 2 || r.start === 0) {
      r.bytes.forEach((b, k) => vs.add(r.start + k, b < 16 ? 0xfe00 + b : 0xe0100 + b - 16));
      if (!vsBytes) vsBytes = r.bytes;
    }
  };

  let cpIndex = 0;
  let i = 0;
  while (i < s.length) {
    const cp = s.codePointAt(i)!;
    const width = cp > 0xffff ? 2 : 1;
    const k = kindOf(cp);
    if (cp === WAVING_BLACK_FLAG) flagUntil = subdivisionFlagEnd(s, i + 2);
    if (k !== K.InvisibleAlone && k !== K.InvisibleInRun) closeInvisible(cp);
    if (k !== K.VariationSelector) closeVs();
    switch (k) {
      case K.Tag:
        if (i < flagUntil) break;
        tags.add(cpIndex, cp);
        if (cp >= 0xe0020 && cp <= 0xe007e && decodedTags.length <= EVIDENCE_CHARS) decodedTags += String.fromCharCode(cp - 0xe0000);
        break;
      case K.Bidi:
        bidi.add(cpIndex, cp);
        break;
      case K.InvisibleAlone:
      case K.InvisibleInRun:
        if (!invRun) invRun = { start: cpIndex, cps: [], alone: false };
        invRun.cps.push(cp);
        if (k === K.InvisibleAlone) invRun.alone = true;
        break;
      case K.VariationSelector:
        if (!vsRun) vsRun = { start: cpIndex, bytes: [] };
        vsRun.bytes.push(cp <= 0xfe0f ? cp - 0xfe00 : cp - 0xe0100 + 16);
        break;
      case K.Control:
        control.add(cpIndex, cp);
        break;
      case K.Plain:
        break;
    }
    if (k !== K.Plain) {
      if (i > segStart) kept.push(s.slice(segStart, i));
      segStart = i + width;
    } else {
      map[keptLen] = cpIndex;
      if (width === 2) map[keptLen + 1] = cpIndex;
      keptLen += width;
      prevPlainCp = cp;
    }
    cpIndex++;
    i += width;
  }
  closeInvisible(-1);
  closeVs();
  if (segStart < s.length) kept.push(s.slice(segStart));
  map[keptLen] = cpIndex;

  const base = baseOf(where);
  if (tags.count) {
    const decoded = decodedTags.trim() ? { decoded: capped(decodedTags) } : {};
    emit({ code: "hidden_tag_characters", ...base, offset: tags.offset, count: tags.count, codePoints: tags.codePoints(), ...decoded });
  }
  if (bidi.count) emit({ code: "bidi_controls", ...base, offset: bidi.offset, count: bidi.count, codePoints: bidi.codePoints() });
  if (invisible.count) {
    emit({ code: "invisible_characters", ...base, offset: invisible.offset, count: invisible.count, codePoints: invisible.codePoints() });
  }
  if (vs.count) {
    vsDecoded = vsBytes ? printableUtf8(Uint8Array.from(vsBytes)) : undefined;
    emit({
      code: "variation_selector_run",
      ...base,
      offset: vs.offset,
      count: vs.count,
      codePoints: vs.codePoints(),
      ...(vsDecoded ? { decoded: capped(vsDecoded) } : {}),
    });
  }
  if (control.count) {
    emit({ code: "control_characters", ...base, offset: control.offset, count: control.count, codePoints: control.codePoints() });
  }
  const text = kept.join("");
  return { text, offsetAt: (idx) => map[Math.min(Math.max(idx, 0), keptLen)]! };
}

/** A name or text as evidence keeps it: at most EVIDENCE_CHARS code points, then "…". */
export function cappedText(text: string): string {
  return capped(text);
}

function capped(text: string): string {
  const cps = [...text.slice(0, EVIDENCE_CHARS * 2)];
  return cps.length > EVIDENCE_CHARS ? `${cps.slice(0, EVIDENCE_CHARS).join("")}…` : cps.join("");
}

// ---- narrow phrases, on the copy without hidden characters ------------------------------------------------------

const NOT = String.raw`(?:do\s+not|don['’]t|never)`;
const USER = String.raw`(?:the\s+)?users?\b(?!['’]s)`;
const CONCEALS = new RegExp(
  [
    String.raw`\b${NOT}\s+(?:tell|inform|notify|alert)\s+${USER}`,
    String.raw`\b${NOT}\s+mention\s+(?:this|it|that)\s+to\s+${USER}`,
    String.raw`\b${NOT}\s+mention\s+that\s+you\b`,
    String.raw`\bwithout\s+(?:telling|informing|notifying|alerting)\s+the\s+users?\b`,
    String.raw`\b(?:hide|conceal)\s+(?:this|it)\s+from\s+the\s+users?\b`,
  ].join("|"),
  "giu",
);
const OVERRIDES = new RegExp(
  [
    String.raw`\bignore\s+(?:all\s+)?(?:previous|prior|above|earlier)\s+instructions\b`,
    String.raw`\bdisregard\s+(?:all\s+)?(?:previous|prior|above)\s+(?:instructions|rules|guidelines)\b`,
  ].join("|"),
  "giu",
);
/** Words every phrase of a family contains: most strings are passed over after one quick test. */
const QUICK_CONCEALS = /user|you/i;
const QUICK_OVERRIDES = /instructions|rules|guidelines/i;
const QUICK_SECRET = /ssh|id_|aws|mcp\.json|\.env|netrc|kube/i;
/** Files whose contents are secrets; a path mentioned alone is normal for SSH and configuration tools. */
const SECRET_PATH =
  /~\/\.ssh\/|\bid_(?:rsa|dsa|ecdsa|ed25519)\b|\.aws\/credentials\b|\bmcp\.json\b|(?<![\w.$])\.env\b(?![-(])|\.netrc\b|\.kube\/config\b/giu;
/** A request to hand the contents on, inside the same sentence. */
const HANDOFF = /\b(?:pass|include|send|attach|upload)(?:e?s|ing|ed)?\b[\s\S]{0,120}?\bcontents?\b/iu;

function phraseMatches(re: RegExp, quick: RegExp, c: Cleaned, code: ObservationCode, where: Where, emit: Emit): void {
  if (!quick.test(c.text)) return;
  re.lastIndex = 0;
  let first: RegExpExecArray | null = null;
  let count = 0;
  for (let m = re.exec(c.text); m; m = re.exec(c.text)) {
    if (!first) first = m;
    count++;
  }
  if (first) emit({ code, ...baseOf(where), offset: c.offsetAt(first.index), count, excerpt: capped(first[0].replace(/\s+/g, " ")) });
}

function isSentenceEnd(text: string, i: number): boolean {
  const ch = text[i];
  if (ch === "\n") return true;
  return (ch === "." || ch === "!" || ch === "?") && (i + 1 >= text.length || /\s/.test(text[i + 1]!));
}

/** The sentence around [from, to): from after the previous sentence end to the next one, each at most SENTENCE_REACH away. */
function sentenceAround(text: string, from: number, to: number): { start: number; end: number } {
  let a = from;
  while (a > 0 && from - a < SENTENCE_REACH && !isSentenceEnd(text, a - 1)) a--;
  let b = to;
  while (b < text.length && b - to < SENTENCE_REACH && !isSentenceEnd(text, b)) b++;
  return { start: a, end: b < text.length && text[b] !== "\n" ? b + 1 : b };
}

const PATH_CHAR = /[^\s'"`()<>,;]/;

/** The whole path token a secret name sits in ("~/.cursor/mcp.json" around "mcp.json"), at most 120 characters. */
function pathAround(text: string, from: number, to: number): { index: number; path: string } {
  let a = from;
  while (a > 0 && from - a < 120 && PATH_CHAR.test(text[a - 1]!)) a--;
  let b = to;
  while (b < text.length && b - to < 120 && PATH_CHAR.test(text[b]!) && !isSentenceEnd(text, b)) b++;
  return { index: a, path: text.slice(a, b) };
}

function secretHandoff(c: Cleaned, where: Where, emit: Emit): void {
  if (!QUICK_SECRET.test(c.text)) return;
  SECRET_PATH.lastIndex = 0;
  let first: { index: number; path: string; sentence: string } | null = null;
  let count = 0;
  let after = -1;
  let tried = 0;
  for (let m = SECRET_PATH.exec(c.text); m && tried < 1000; m = SECRET_PATH.exec(c.text), tried++) {
    if (m.index < after) continue; // this sentence was counted already
    const span = sentenceAround(c.text, m.index, m.index + m[0].length);
    const sentence = c.text.slice(span.start, span.end);
    if (!HANDOFF.test(sentence)) continue;
    count++;
    after = span.end;
    if (!first) first = { ...pathAround(c.text, m.index, m.index + m[0].length), sentence };
  }
  if (first) {
    emit({
      code: "secret_file_handoff",
      ...baseOf(where),
      offset: c.offsetAt(first.index),
      count,
      excerpt: capped(first.sentence.trim().replace(/\s+/g, " ")),
      names: [first.path],
    });
  }
}

// ---- base64 that decodes to readable text -----------------------------------------------------------------------

const BASE64_RUN = /[A-Za-z0-9+/]{40,}={0,2}/g;
const DATA_IMAGE = /data:image\/[\w.+-]+;base64,$/i;
const READABLE = /[\p{L}\p{N}\s.,;:'"!?()\-/~_@#&*+=%$`\[\]{}<>|\\]/u;
const LETTER_OR_SPACE = /[\p{L} ]/u;

/** Valid UTF-8 with no hidden or control characters but tab and line breaks: what a variation-selector run may carry. */
function printableUtf8(bytes: Uint8Array): string | undefined {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
  for (const ch of text) if (kindOf(ch.codePointAt(0)!) !== K.Plain) return undefined;
  return text.trim() ? text : undefined;
}

/** UTF-8 that reads as text: printable, at least three spaces, three quarters letters and spaces. */
export function readableUtf8(bytes: Uint8Array): string | undefined {
  const text = printableUtf8(bytes);
  if (text === undefined) return undefined;
  let n = 0;
  let spaces = 0;
  let letters = 0;
  for (const ch of text) {
    n++;
    if (!READABLE.test(ch)) return undefined;
    if (ch === " ") spaces++;
    if (LETTER_OR_SPACE.test(ch)) letters++;
  }
  if (n < 12 || spaces < 3 || letters / n < 0.75) return undefined;
  return text;
}

function decodeBase64(run: string): Uint8Array | undefined {
  let body = run.replace(/=+$/, "").slice(0, BASE64_DECODE_CHARS);
  if (body.length % 4 === 1) body = body.slice(0, -1);
  try {
    const bin = atob(body);
    const out = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  } catch {
    return undefined;
  }
}

/** JSON Web Tokens: dot-separated base64url segments, the first an encoded JSON header ("eyJ"). */
const JWT = /eyJ[A-Za-z0-9_-]+={0,2}\.[A-Za-z0-9_-]+={0,2}\.[A-Za-z0-9_-]*={0,2}/g;

function jwtSpans(text: string): [number, number][] {
  if (!text.includes("eyJ")) return [];
  JWT.lastIndex = 0;
  const spans: [number, number][] = [];
  for (let m = JWT.exec(text); m && spans.length < 200; m = JWT.exec(text)) spans.push([m.index, m.index + m[0].length]);
  return spans;
}

function base64Text(c: Cleaned, where: Where, emit: Emit): void {
  const jwts = jwtSpans(c.text);
  BASE64_RUN.lastIndex = 0;
  let first: { index: number; length: number; decoded: string } | null = null;
  let tried = 0;
  for (let m = BASE64_RUN.exec(c.text); m && !first && tried < 200; m = BASE64_RUN.exec(c.text), tried++) {
    const before = c.text.slice(Math.max(0, m.index - 80), m.index);
    if (DATA_IMAGE.test(before)) continue;
    if (jwts.some(([a, b]) => m.index >= a && m.index < b)) continue;
    const bytes = decodeBase64(m[0]);
    const decoded = bytes ? readableUtf8(bytes) : undefined;
    if (decoded) first = { index: m.index, length: [...m[0]].length, decoded };
  }
  if (first)
    emit({ code: "base64_text", ...baseOf(where), offset: c.offsetAt(first.index), count: first.length, decoded: capped(first.decoded) });
}

function scanString(s: string, where: Where, emit: Emit): void {
  const cleaned = scanHidden(s, where, emit);
  phraseMatches(CONCEALS, QUICK_CONCEALS, cleaned, "conceals_from_user", where, emit);
  phraseMatches(OVERRIDES, QUICK_OVERRIDES, cleaned, "overrides_instructions", where, emit);
  secretHandoff(cleaned, where, emit);
  base64Text(cleaned, where, emit);
}

// ---- walking a tool ---------------------------------------------------------------------------------------------

function escapePointer(key: string): string {
  return key.replace(/~/g, "~0").replace(/\//g, "~1");
}

interface Node {
  value: unknown;
  key: string;
  parent: Node | null;
}

function pointerOf(n: Node): string {
  const parts: string[] = [];
  for (let x: Node | null = n; x; x = x.parent) parts.push(escapePointer(x.key));
  return `/${parts.reverse().join("/")}`;
}

/** Every key and string value of one value, iteratively (a schema 10,000 levels deep costs no stack). */
function walkStrings(root: Node, tool: string | undefined, emit: Emit): void {
  const stack: Node[] = [root];
  while (stack.length) {
    const n = stack.pop()!;
    const v = n.value;
    if (typeof v === "string") {
      scanString(v, { tool, pointer: () => pointerOf(n) }, emit);
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], key: String(i), parent: n });
    } else if (v !== null && typeof v === "object") {
      const keys = Object.keys(v);
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i]!;
        const child: Node = { value: (v as Record<string, unknown>)[key], key, parent: n };
        scanString(key, { tool, pointer: () => pointerOf(child), inKey: true }, emit);
        stack.push(child);
      }
    }
  }
}

/** architecture.md §2.9: the tool name format of the MCP spec. */
export const TOOL_NAME_FORMAT = /^[A-Za-z0-9_.-]{1,128}$/;
export const ANNOTATION_HINTS = ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] as const;
export type AnnotationHint = (typeof ANNOTATION_HINTS)[number];

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function specFacts(tools: readonly unknown[], emit: Emit): void {
  const byFolded = new Map<string, { names: string[]; indexes: number[] }>();
  tools.forEach((t, i) => {
    if (!isPlainObject(t)) return;
    const name = typeof t.name === "string" ? t.name : undefined;
    const tool = name !== undefined ? capped(name) : undefined;
    const at = (field: string) => `/tools/${i}/${field}`;
    if (name !== undefined) {
      if (!TOOL_NAME_FORMAT.test(name))
        emit({
          code: "tool_name_format",
          ...(tool !== undefined ? { tool } : {}),
          pointer: at("name"),
          count: [...name].length,
          excerpt: shownText(name),
        });
      const folded = name.toLowerCase();
      const g = byFolded.get(folded) ?? { names: [], indexes: [] };
      g.names.push(name);
      g.indexes.push(i);
      byFolded.set(folded, g);
    }
    const a = t.annotations;
    if (!isPlainObject(a)) return;
    const bad = ANNOTATION_HINTS.filter((h) => h in a && typeof a[h] !== "boolean");
    if (bad.length) {
      const value = JSON.stringify(a[bad[0]!]) ?? String(a[bad[0]!]);
      emit({
        code: "annotation_not_boolean",
        ...(tool !== undefined ? { tool } : {}),
        pointer: at(`annotations/${bad[0]}`),
        count: bad.length,
        names: bad,
        value: capped(value),
      });
    }
    if (a.readOnlyHint === true && a.destructiveHint === true) {
      emit({
        code: "annotation_contradiction",
        ...(tool !== undefined ? { tool } : {}),
        pointer: at("annotations"),
        names: ["readOnlyHint", "destructiveHint"],
      });
    }
  });
  for (const g of byFolded.values()) {
    if (g.names.length < 2) continue;
    const distinct = [...new Set(g.names)];
    emit({
      code: "duplicate_tool_name",
      tool: capped(g.names[0]!),
      pointer: `/tools/${g.indexes[1]}/name`,
      count: g.names.length,
      names: distinct.slice(0, MAX_CODE_POINTS).map((n) => shownText(n, 80)),
    });
  }
}

/**
 * architecture.md §2.9: every observation on a tool list and the server's instructions, in list order (spec facts after
 * the strings), at most MAX_PER_CODE of each code. Pure: the same input always gives the same facts.
 */
export function observe(input: ObservationInput): ObservationFacts[] {
  const out: ObservationFacts[] = [];
  const perCode = new Map<ObservationCode, number>();
  const emit: Emit = (f) => {
    const n = perCode.get(f.code) ?? 0;
    if (n >= MAX_PER_CODE) return;
    perCode.set(f.code, n + 1);
    out.push(f);
  };
  const root: Node = { value: null, key: "tools", parent: null };
  input.tools.forEach((t, i) => {
    const tool = isPlainObject(t) && typeof t.name === "string" ? capped(t.name) : undefined;
    walkStrings({ value: t, key: String(i), parent: root }, tool, emit);
  });
  if (typeof input.instructions === "string") {
    scanString(input.instructions, { pointer: () => "/instructions" }, emit);
  }
  specFacts(input.tools, emit);
  return out;
}

/** Servers per code, as the census and the index filter count them: the distinct codes of one read. */
export function observationCodes(list: readonly ObservationFacts[]): ObservationCode[] {
  return [...new Set(list.map((o) => o.code))];
}
