import { describe, expect, test } from "vitest";
import { CHECK_IDS, CHECK_STATES, NO_FALLBACK_RULES, NOT_CHECKED_CAUSES, REFUSAL_CODES } from "@/lib/vocabulary/checks";
import { crossReadSentence, explanationClause } from "@/lib/site/cross-read";
import { reasonAfterChip } from "@/lib/site/states";
import { FAQ, anchorsOf, isFaqSlug } from "@/lib/site/faq";
import { notCheckedAnchor } from "@/lib/site/faq/headline";
import { NOT_CHECKED_CAUSE_LABELS } from "@/lib/site/labels";
import { counted, WORDS } from "@/lib/site/plural";
import { whatToDoHref } from "@/lib/site/what-to-do";
import { CROSS_READ_EXPLANATIONS, CROSS_READ_OUTCOMES } from "@/lib/vocabulary/store";

describe("counted words (Intl.PluralRules)", () => {
  test("English takes the singular for one and the plural otherwise; Chinese has one form", () => {
    expect(counted(1, WORDS.request)).toBe("1 request");
    expect(counted(0, WORDS.request)).toBe("0 requests");
    expect(counted(2, WORDS.request)).toBe("2 requests");
    expect(counted(1200, WORDS.request)).toBe("1,200 requests");
    expect(counted(1, WORDS.failedProbeInARow)).toBe("1 failed probe");
    expect(counted(3, WORDS.failedProbeInARow)).toBe("3 failed probes in a row");
    expect(counted(1, WORDS.request, "zh")).toBe("1 次请求");
    expect(counted(3, WORDS.request, "zh")).toBe("3 次请求");
  });

  test("every word has its English forms and a Chinese one", () => {
    for (const [name, w] of Object.entries(WORDS)) {
      expect(w.en.one, name).toContain("#");
      expect(w.en.other, name).toContain("#");
      expect(w.zh.other, name).toContain("#");
    }
  });
});

describe("what to do: every verdict links to a FAQ row that exists, in both languages", () => {
  const hrefs = new Set<string>();
  for (const check of CHECK_IDS)
    for (const state of CHECK_STATES) {
      hrefs.add(whatToDoHref(check, { state }));
      for (const cause of NOT_CHECKED_CAUSES) hrefs.add(whatToDoHref(check, { state, notCheckedCause: cause }));
      for (const rule of NO_FALLBACK_RULES) hrefs.add(whatToDoHref(check, { state, noFallback: rule }));
      for (const code of REFUSAL_CODES) hrefs.add(whatToDoHref(check, { state, code }));
    }
  test.each([...hrefs])("%s", (href) => {
    for (const lang of ["en", "zh"] as const) {
      const localized = lang === "zh" ? `/zh${href}` : href;
      const m = /^(?:\/zh)?\/faq\/([a-z-]+)#([a-z0-9-]+)$/.exec(localized);
      expect(m, localized).not.toBeNull();
      expect(isFaqSlug(m![1]!)).toBe(true);
      expect(anchorsOf(FAQ[lang][m![1] as keyof (typeof FAQ)["en"]]), localized).toContain(m![2]);
    }
  });

  test("a Not checked kind goes to its own row; a 5xx on discover to the transfer-failure row", () => {
    expect(whatToDoHref("handshake", { state: "not_checked", notCheckedCause: "credential_required" })).toBe(
      "/faq/observed-unsigned#not-checked-credential-required",
    );
    expect(whatToDoHref("handshake", { state: "failed", noFallback: "discover_server_error" })).toBe("/faq/handshake#transfer-failures");
    expect(whatToDoHref("error_taxonomy", { state: "observed_risk", code: "malformed_html" })).toBe("/faq/refusals#malformed");
    expect(whatToDoHref("tools_list", { state: "not_checked", notCheckedCause: "deadline" }, "zh")).toBe(
      "/zh/faq/observed-unsigned#not-checked-deadline",
    );
  });

  test("every kind has a label and a row in both languages", () => {
    for (const lang of ["en", "zh"] as const)
      for (const cause of NOT_CHECKED_CAUSES) {
        expect(NOT_CHECKED_CAUSE_LABELS[lang][cause].length).toBeGreaterThan(1);
        expect(anchorsOf(FAQ[lang]["observed-unsigned"])).toContain(notCheckedAnchor(cause));
      }
  });
});

describe("the cross-read sentence", () => {
  const base = {
    day: "2026-12-01",
    explanation: null,
    explanationCode: null,
    crossToolCount: 3,
    probeToolCount: null,
    paths: [],
    detail: null,
  };
  test("the issue's example, from codes only", () => {
    expect(crossReadSentence({ ...base, outcome: "only_cross_reader", explanation: "discover_server_error", explanationCode: 500 })).toBe(
      "An initialize-first reader read 3 tools on 2026-12-01; modern clients fail here because server/discover answered HTTP 500.",
    );
    expect(crossReadSentence({ ...base, outcome: "only_cross_reader" })).toMatch(
      /no rule of the probe explains the difference: a possible blind spot of the probe\.$/,
    );
    expect(crossReadSentence({ ...base, crossToolCount: 1, outcome: "disagreed", probeToolCount: 1, paths: ["a.description"] })).toBe(
      "An initialize-first reader read 1 tool on 2026-12-01, a list that differs from the probe's latest complete read at 1 field path (a.description).",
    );
  });

  test("every outcome and explanation reads as one sentence", () => {
    for (const outcome of CROSS_READ_OUTCOMES)
      for (const explanation of [null, ...CROSS_READ_EXPLANATIONS]) {
        const s = crossReadSentence({ ...base, outcome, explanation, explanationCode: explanation === "modern_declined" ? -32022 : 503 });
        expect(s, `${outcome}/${explanation}`).toMatch(/^[A-Z].*\.$/);
        expect(s.split(/\.\s+[A-Z]/).length, s).toBe(1);
      }
    for (const e of CROSS_READ_EXPLANATIONS) expect(explanationClause(e, null)).not.toContain("null");
  });
  test("a reader's raw error stays out of the sentence that tops the page", () => {
    const detail = 'Error POSTing to endpoint (HTTP 400): {"jsonrpc":"2.0","id":0,"error":{"code":-32602}} (CLIENT_HTTP_NOT_IMPLEMENTED)';
    for (const outcome of ["only_probe", "neither"] as const) {
      const row = { ...base, outcome, detail }; // the stored row, raw error and all
      const s = crossReadSentence(row);
      expect(s).toMatch(/could (not )?read the tool list on 2026-12-01[.;]/);
      expect(s).not.toMatch(/jsonrpc|CLIENT_HTTP|POSTing/);
    }
  });
});

describe("a reason after its state chip", () => {
  test("drops the opening that names the chip's kind, once", () => {
    const r = "Credential required: initialize answered HTTP 401 with a Bearer challenge; discovery sits behind authentication.";
    expect(reasonAfterChip(r, "not_checked", "credential_required")).toBe(
      "initialize answered HTTP 401 with a Bearer challenge; discovery sits behind authentication.",
    );
    expect(reasonAfterChip("Not probed: the server needs configuration first (X-Api-Key).", "not_checked", "needs_configuration")).toBe(
      "The server needs configuration first (X-Api-Key).",
    );
  });
  test("leaves every other reason as it is", () => {
    const r = "Credential required: initialize answered HTTP 401.";
    expect(reasonAfterChip(r, "not_checked", null)).toBe(r);
    expect(reasonAfterChip(r, "failed", "credential_required")).toBe(r);
    expect(reasonAfterChip("Asked to slow down: x.", "not_checked", "credential_required")).toBe("Asked to slow down: x.");
    expect(reasonAfterChip("Credential required: ", "not_checked", "credential_required")).toBe("Credential required: ");
  });
});
