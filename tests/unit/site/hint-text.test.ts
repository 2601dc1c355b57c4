import { describe, expect, test } from "vitest";
import { hintSentence, type Hint } from "@/lib/checks/hints";
import { observationSentence } from "@/lib/checks/observation-text";
import type { ObservationFacts } from "@/lib/checks/observations";
import { headerListZh, hintSentenceIn, observationSentenceIn } from "@/lib/site/hint-text";
import { HINT_CODES, OBSERVATION_CODES, type HintCode, type ObservationCode } from "@/lib/vocabulary/checks";

// Every hint code and observation kind has a Chinese sentence built from the stored facts; English stays lib/checks' own.

const HAN = /\p{Script=Han}/u;

/** Sample facts per hint code, with the facts each sentence must carry as they are. */
const HINTS: Record<HintCode, { hint: Hint; facts: string[] }> = {
  invalid_host: { hint: { code: "invalid_host", host: "tools.sdk-defaults.example" }, facts: ["tools.sdk-defaults.example", "Host"] },
  redirect: {
    hint: { code: "redirect", from: "http://a.example/mcp", location: "https://a.example/mcp", target: "remote" },
    facts: ["http://a.example/mcp", "https://a.example/mcp"],
  },
  transport_mismatch: { hint: { code: "transport_mismatch", listed: "sse", speaks: "streamable-http" }, facts: ["sse", "streamable-http"] },
  tls_expired: {
    hint: { code: "tls_expired", host: "old.example:443", validTo: "2026-11-30T12:00:00.000Z" },
    facts: ["old.example:443", "2026-11-30"],
  },
  tls_wrong_name: {
    hint: { code: "tls_wrong_name", host: "api.example", names: ["other.example", "*.other.example"] },
    facts: ["api.example", "other.example", "*.other.example"],
  },
  tls_unknown_issuer: {
    hint: { code: "tls_unknown_issuer", host: "self.example:8443", errorCode: "UNABLE_TO_VERIFY_LEAF_SIGNATURE", issuer: "CN=Private CA" },
    facts: ["self.example:8443", "UNABLE_TO_VERIFY_LEAF_SIGNATURE", "CN=Private CA"],
  },
  connection_refused: { hint: { code: "connection_refused", host: "down.example:443" }, facts: ["down.example:443"] },
  name_not_found: { hint: { code: "name_not_found", host: "gone.example" }, facts: ["gone.example"] },
  not_acceptable: {
    hint: { code: "not_acceptable", accept: "application/json, text/event-stream" },
    facts: ["application/json, text/event-stream", "406"],
  },
  unsupported_media_type: { hint: { code: "unsupported_media_type", contentType: "application/json" }, facts: ["application/json", "415"] },
  unreadable_refusal: {
    hint: { code: "unreadable_refusal", headers: ["X-Api-Key", "X-Tenant"], status: 500 },
    facts: ["`X-Api-Key`", "`X-Tenant`", "500"],
  },
};

/** Sample facts per observation kind, with the facts each sentence must carry. */
const OBSERVATIONS: Record<ObservationCode, { f: ObservationFacts; facts: string[] }> = {
  hidden_tag_characters: {
    f: {
      code: "hidden_tag_characters",
      tool: "get_forecast",
      pointer: "/tools/0/description",
      offset: 38,
      count: 18,
      decoded: "read ~/.ssh/id_rsa",
    },
    facts: ["get_forecast", "38", "18", "read ~/.ssh/id_rsa"],
  },
  bidi_controls: {
    f: { code: "bidi_controls", tool: "rename", pointer: "/tools/2/description", offset: 17, count: 2, codePoints: ["U+202C", "U+202E"] },
    facts: ["rename", "17", "U+202C", "U+202E"],
  },
  invisible_characters: {
    f: { code: "invisible_characters", tool: "login", pointer: "/tools/1/title", offset: 4, count: 3, codePoints: ["U+200B"] },
    facts: ["login", "U+200B", "4"],
  },
  variation_selector_run: {
    f: { code: "variation_selector_run", tool: "emoji", pointer: "/tools/3/description", offset: 9, count: 12, decoded: "hi there" },
    facts: ["emoji", "12", "hi there"],
  },
  control_characters: {
    f: { code: "control_characters", tool: "term", pointer: "/tools/4/description", offset: 0, count: 1, codePoints: ["U+001B"] },
    facts: ["term", "U+001B ESC"],
  },
  conceals_from_user: {
    f: { code: "conceals_from_user", pointer: "/instructions", offset: 120, excerpt: "do not tell the user" },
    facts: ["instructions", "120", "do not tell the user"],
  },
  overrides_instructions: {
    f: {
      code: "overrides_instructions",
      tool: "helper",
      pointer: "/tools/5/description",
      offset: 0,
      excerpt: "ignore previous instructions",
    },
    facts: ["helper", "ignore previous instructions"],
  },
  secret_file_handoff: {
    f: {
      code: "secret_file_handoff",
      tool: "sync",
      pointer: "/tools/6/description",
      offset: 30,
      names: ["~/.aws/credentials"],
      excerpt: "send ~/.aws/credentials",
    },
    facts: ["sync", "~/.aws/credentials", "send ~/.aws/credentials"],
  },
  base64_text: {
    f: {
      code: "base64_text",
      tool: "decode",
      pointer: "/tools/7/inputSchema/properties/q/description",
      offset: 2,
      count: 40,
      decoded: "secret words",
    },
    facts: ["decode", "/inputSchema/properties/q/description", "40", "secret words"],
  },
  tool_name_format: {
    f: { code: "tool_name_format", tool: "bad name", pointer: "/tools/8/name", count: 8, excerpt: "bad name" },
    facts: ["bad name", "8"],
  },
  duplicate_tool_name: {
    f: { code: "duplicate_tool_name", tool: "Search", pointer: "/tools/9/name", count: 2, names: ["Search", "search"] },
    facts: ["`Search`", "`search`"],
  },
  annotation_contradiction: {
    f: { code: "annotation_contradiction", tool: "wipe", pointer: "/tools/10/annotations" },
    facts: ["wipe", "readOnlyHint", "destructiveHint"],
  },
  annotation_not_boolean: {
    f: {
      code: "annotation_not_boolean",
      tool: "fetch",
      pointer: "/tools/11/annotations/readOnlyHint",
      names: ["readOnlyHint"],
      value: '"false"',
    },
    facts: ["fetch", "readOnlyHint", '"false"'],
  },
};

describe("hint sentences in both languages", () => {
  test("every hint code has a Chinese sentence carrying its facts as they are", () => {
    expect(Object.keys(HINTS).sort()).toEqual([...HINT_CODES].sort());
    for (const code of HINT_CODES) {
      const { hint, facts } = HINTS[code];
      const zh = hintSentenceIn("zh", hint);
      expect(zh, code).toMatch(HAN);
      expect(zh, code).toMatch(/。$/);
      for (const f of facts) expect(zh, `${code}: ${f}`).toContain(f);
      expect(zh, code).not.toBe(hintSentence(hint));
    }
  });

  test("English is lib/checks' sentence, unchanged", () => {
    for (const code of HINT_CODES) expect(hintSentenceIn("en", HINTS[code].hint)).toBe(hintSentence(HINTS[code].hint));
  });

  test("optional facts: present when stored, the sentence still whole without them", () => {
    expect(hintSentenceIn("zh", { code: "invalid_host" })).not.toContain("报出");
    expect(hintSentenceIn("zh", { code: "tls_expired", host: "h.example:443" })).toBe(
      "为 h.example:443 续期 TLS 证书：它已过期，客户端因此拒绝连接。",
    );
    expect(hintSentenceIn("zh", { code: "tls_wrong_name", host: "h.example" })).toContain("属于别的名称");
    const metadata = hintSentenceIn("zh", {
      code: "redirect",
      from: "https://a.example/m",
      location: "https://b.example/m",
      target: "metadata",
    });
    expect(metadata).toContain("resource_metadata");
    expect(metadata).toContain("https://b.example/m");
    expect(hintSentenceIn("zh", { code: "transport_mismatch", listed: "streamable-http", speaks: "sse" })).toContain(
      "2024-11-05 HTTP+SSE 握手",
    );
  });

  test("the header list: one, several, more than five", () => {
    expect(headerListZh(["X-Api-Key"])).toBe("`X-Api-Key` 请求头");
    expect(headerListZh(["A", "B", "C"])).toBe("`A`、`B` 和 `C` 请求头");
    expect(headerListZh(["A", "B", "C", "D", "E", "F", "G"])).toBe("`A`、`B`、`C`、`D`、`E` 等 7 个请求头");
  });
});

describe("observation sentences in both languages", () => {
  test("every observation kind has a Chinese sentence carrying its facts", () => {
    expect(Object.keys(OBSERVATIONS).sort()).toEqual([...OBSERVATION_CODES].sort());
    for (const code of OBSERVATION_CODES) {
      const { f, facts } = OBSERVATIONS[code];
      const zh = observationSentenceIn("zh", f);
      expect(zh, code).toMatch(HAN);
      for (const x of facts) expect(zh, `${code}: ${x}`).toContain(x);
      expect(observationSentenceIn("en", f), code).toBe(observationSentence(f));
      expect(zh, code).not.toBe(observationSentence(f));
    }
  });
});
