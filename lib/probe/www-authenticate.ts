import type { AuthChallenge } from "./types";

/**
 * WWW-Authenticate per RFC 9110 §11.6.1, written here because the SDKs' regexes split on commas inside
 * quoted strings and miss second challenges. "Structurally valid" in architecture.md §2.1 means: this parses.
 *
 *   WWW-Authenticate = #challenge
 *   challenge  = auth-scheme [ 1*SP ( token68 / #auth-param ) ]
 *   auth-param = token BWS "=" BWS ( token / quoted-string )
 */
export type WwwAuthenticateParse = { ok: true; challenges: AuthChallenge[] } | { ok: false; error: string };

const TCHAR = /[!#$%&'*+\-.^_`|~0-9A-Za-z]/;
const TOKEN68_CHAR = /[A-Za-z0-9\-._~+/]/;

class Cursor {
  pos = 0;
  constructor(readonly s: string) {}
  get done(): boolean {
    return this.pos >= this.s.length;
  }
  peek(): string {
    return this.s[this.pos] ?? "";
  }
  /** OWS / BWS: optional spaces and tabs. Returns how many were skipped. */
  ows(): number {
    const start = this.pos;
    while (this.peek() === " " || this.peek() === "\t") this.pos++;
    return this.pos - start;
  }
  token(): string {
    const start = this.pos;
    while (!this.done && TCHAR.test(this.peek())) this.pos++;
    return this.s.slice(start, this.pos);
  }
}

class ParseError extends Error {}

function quotedString(c: Cursor): string {
  // Caller saw the opening DQUOTE.
  c.pos++;
  let out = "";
  for (;;) {
    if (c.done) throw new ParseError("unterminated quoted string");
    const ch = c.peek();
    const code = ch.charCodeAt(0);
    if (ch === '"') {
      c.pos++;
      return out;
    }
    if (ch === "\\") {
      c.pos++;
      if (c.done) throw new ParseError("backslash at end of quoted string");
      const next = c.peek();
      const n = next.charCodeAt(0);
      if (!(n === 0x09 || (n >= 0x20 && n !== 0x7f))) throw new ParseError("invalid escaped character");
      out += next;
      c.pos++;
      continue;
    }
    if (!(code === 0x09 || (code >= 0x20 && code !== 0x7f))) throw new ParseError("control character in quoted string");
    out += ch;
    c.pos++;
  }
}

/** At an element boundary: end of input, or a comma after optional whitespace. */
function atBoundary(c: Cursor): boolean {
  const save = c.pos;
  c.ows();
  const ok = c.done || c.peek() === ",";
  c.pos = save;
  return ok;
}

/** Tries token68 at the cursor; on success the cursor sits after it, else it is unchanged. */
function tryToken68(c: Cursor): string | null {
  const start = c.pos;
  while (!c.done && TOKEN68_CHAR.test(c.peek())) c.pos++;
  if (c.pos === start) return null;
  while (c.peek() === "=") c.pos++;
  if (atBoundary(c)) return c.s.slice(start, c.pos);
  c.pos = start;
  return null;
}

/** True when the cursor starts `token BWS "="`, i.e. an auth-param rather than the next challenge. */
function looksLikeParam(c: Cursor): boolean {
  const save = c.pos;
  const name = c.token();
  c.ows();
  const ok = name.length > 0 && c.peek() === "=";
  c.pos = save;
  return ok;
}

function skipListSeparators(c: Cursor): void {
  // `#rule` allows empty list elements: ", ,".
  for (;;) {
    c.ows();
    if (c.peek() !== ",") return;
    c.pos++;
  }
}

function parseField(field: string, out: AuthChallenge[]): void {
  const c = new Cursor(field);
  skipListSeparators(c);
  while (!c.done) {
    const scheme = c.token();
    if (!scheme) throw new ParseError(`expected an auth-scheme at offset ${c.pos}`);
    // Null-prototype params keep a hostile "__proto__" parameter name inert.
    const challenge: AuthChallenge = { scheme, params: Object.create(null) as Record<string, string> };
    out.push(challenge);
    const afterScheme = c.pos;
    c.ows();
    if (c.done || c.peek() === ",") {
      skipListSeparators(c);
      continue;
    }
    if (field[afterScheme] !== " ") throw new ParseError(`expected a space after scheme "${scheme}"`);
    // token68 only matches when nothing but "=" padding follows it before the next comma.
    const t68 = tryToken68(c);
    if (t68 !== null) {
      challenge.token68 = t68;
      skipListSeparators(c);
      continue;
    }
    // #auth-param: params until the next element that is not `token BWS "="`.
    for (;;) {
      const name = c.token().toLowerCase();
      if (!name) throw new ParseError(`expected a parameter name at offset ${c.pos}`);
      c.ows();
      if (c.peek() !== "=") throw new ParseError(`expected "=" after parameter "${name}"`);
      c.pos++;
      c.ows();
      let value: string;
      if (c.peek() === '"') value = quotedString(c);
      else {
        value = c.token();
        if (!value) throw new ParseError(`parameter "${name}" has no value`);
      }
      if (Object.prototype.hasOwnProperty.call(challenge.params, name)) {
        // RFC 9110: each parameter name MUST only occur once per challenge.
        throw new ParseError(`parameter "${name}" repeated in one challenge`);
      }
      challenge.params[name] = value;
      c.ows();
      if (c.done) return;
      if (c.peek() !== ",") throw new ParseError(`unexpected "${c.peek()}" at offset ${c.pos}`);
      skipListSeparators(c);
      if (c.done) return;
      if (!looksLikeParam(c)) break;
    }
  }
}

/**
 * Parses every WWW-Authenticate field of one response (a header may repeat; RFC 9110 treats repeated
 * fields as one comma-joined list, so one broken field makes the whole header invalid).
 */
export function parseWwwAuthenticate(fields: string | readonly string[]): WwwAuthenticateParse {
  const list = typeof fields === "string" ? [fields] : fields;
  const challenges: AuthChallenge[] = [];
  try {
    for (const f of list) parseField(f, challenges);
  } catch (e) {
    if (e instanceof ParseError) return { ok: false, error: e.message };
    throw e;
  }
  if (challenges.length === 0) return { ok: false, error: "the header holds no challenge, only separators or nothing" };
  return { ok: true, challenges };
}

/** The challenges, or null when the header is absent or structurally invalid. */
export function validChallenges(fields: readonly string[] | undefined): AuthChallenge[] | null {
  if (!fields || fields.length === 0) return null;
  const r = parseWwwAuthenticate(fields);
  return r.ok ? r.challenges : null;
}

/** What is wrong with a WWW-Authenticate that is present, or null when it is absent or valid. */
export function challengeProblem(fields: readonly string[] | undefined): string | null {
  if (!fields || fields.length === 0) return null;
  const r = parseWwwAuthenticate(fields);
  return r.ok ? null : r.error;
}
