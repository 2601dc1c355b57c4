import { describe, expect, test } from "vitest";
import { FAQ, FAQ_SLUGS, RULE_INDEX, anchorsOf, isFaqSlug, ruleHref } from "@/lib/site/faq";

// One id per rule of architecture.md §2, §2.1–2.9, §3 and §6 (and §4's self-test, uptime and incidents), written out here rather than read
// from the index, so a rule dropped from the index fails this test.
const DESIGN_RULES = [
  "2-states",
  "2-checks",
  "2-overall",
  "2-not-checked-kinds",
  "2-suite-version",
  "2-corrections",
  "2.1.1-modern-first",
  "2.1.2-discover-result",
  "2.1.3-declined",
  "2.1.4-slow-down",
  "2.1.5-fallback-4xx",
  "2.1.6-fallback-2xx",
  "2.1.7-transfer-failures",
  "2.1.8-deciding-answer",
  "2.1.8-credential-gate",
  "2.1.8-no-challenge",
  "2.1.9-late-fallback",
  "2.1.10-sse",
  "2.1.11-newer-only",
  "2.1.12-unreadable-4xx",
  "2.1-our-bug",
  "2.1-pv-agreed",
  "2.1-pv-no-common",
  "2.2-pagination",
  "2.2-verified",
  "2.2-endless",
  "2.2-malformed",
  "2.2-gate",
  "2.2-deadline",
  "2.2-request-timeout",
  "2.2-complete-read",
  "2.3-reserved-call",
  "2.3-withheld",
  "2.3-jsonrpc-error",
  "2.3-pre-dispatch",
  "2.3-is-error",
  "2.3-slow-down",
  "2.3-malformed",
  "2.3-success",
  "2.4-source",
  "2.4-no-metadata-url",
  "2.4-opted-out-host",
  "2.4-private-address",
  "2.4-http-error",
  "2.4-not-json",
  "2.4-not-object",
  "2.4-scope-mismatch",
  "2.4-no-resource",
  "2.4-resource-covers",
  "2.4-no-authorization-servers",
  "2.4-unparseable-challenge",
  "2.4-valid-challenge",
  "2.4-verified",
  "2.4-not-a-verdict",
  "2.5-no-request",
  "2.5-operator",
  "2.5-robots",
  "2.5-undo",
  "2.5-identity",
  "2.5-one-request",
  "2.5-per-host",
  "2.5-crawl-delay",
  "2.5-host-pause",
  "2.5-metadata-hosts",
  "2.5-one-gate",
  "2.6-which-remote",
  "2.6-url-variables",
  "2.6-needs-configuration",
  "2.6-every-remote",
  "2.6-reach",
  "2.6-standings",
  "2.7-network-level",
  "2.7-second-probe",
  "2.7-host-share",
  "2.7-pause",
  "2.7-nxdomain",
  "2.8-hints",
  "2.8-invalid-host",
  "2.8-redirect",
  "2.8-transport",
  "2.8-tls",
  "2.8-refused",
  "2.8-nxdomain",
  "2.8-406-415",
  "2.8-no-hint",
  "2.8-certificate",
  "2.8-rate-limited",
  "2.8-supported-versions",
  "2.9-not-a-verdict",
  "2.9-where",
  "2.9-hidden_tag_characters",
  "2.9-bidi_controls",
  "2.9-invisible_characters",
  "2.9-variation_selector_run",
  "2.9-control_characters",
  "2.9-conceals_from_user",
  "2.9-overrides_instructions",
  "2.9-secret_file_handoff",
  "2.9-base64_text",
  "2.9-tool_name_format",
  "2.9-duplicate_tool_name",
  "2.9-annotation_contradiction",
  "2.9-annotation_not_boolean",
  "2.9-limits",
  "2.9-quoting",
  "2.9-annotations",
  "2.9-same-version",
  "2.9-census",
  "3-registry",
  "3-needs-configuration",
  "3-left",
  "3-rounds",
  "3-healthy",
  "3-backoff",
  "3-credential",
  "3-slow-down",
  "3-when-fix-shows",
  "3-probe-again",
  "3-coverage",
  "3-success-rate",
  "3-failing",
  "3-alert",
  "3-tool-history",
  "4-self-test",
  "4-uptime",
  "4-uptime-left-out",
  "4-uptime-windows",
  "4-incident-opens",
  "4-incident-closes",
  "4-incident-duration",
  "4-mcp-endpoint",
  "4-mcp-tools",
  "4-mcp-bad-input",
  "4-mcp-rate-limit",
  "6-health",
  "6-alerts",
  "6-coverage-drop",
  "6-rounds-stale",
  "6-cross-read-alert",
  "6-probe-network",
  "6-region-down",
  "6-database-unwritable",
  "6-status",
  "6-webhook",
  "6-cross-reader",
  "6-outcomes",
  "6-only-cross-reader",
  "6-explained",
  "6-cross-reader-politeness",
  "8-primary",
  "8-confirmation",
  "8-quorum",
  "8-regional-note",
  "8-region-down",
  "8-politeness",
  "8-default",
] as const;

const rules = RULE_INDEX.flatMap((g) => g.rules);

describe("the FAQ index links every design rule", () => {
  test("no rule is listed twice and none is unknown to this test", () => {
    const ids = rules.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual([...DESIGN_RULES].sort());
  });

  for (const lang of ["en", "zh"] as const) {
    test.each(DESIGN_RULES)(`${lang}: %s is linked from the index and its anchor exists on the page`, (id) => {
      const rule = rules.find((r) => r.id === id);
      expect(rule, `${id} missing from the index`).toBeDefined();
      expect(rule!.text[lang].trim().length).toBeGreaterThan(2);
      const href = ruleHref(lang, rule!);
      const m = /^(\/zh)?\/faq\/([^#]+)#(.+)$/.exec(href);
      expect(m, href).not.toBeNull();
      expect(Boolean(m![1])).toBe(lang === "zh");
      const [slug, anchor] = [m![2]!, m![3]!];
      expect(isFaqSlug(slug), `${slug} is a FAQ page`).toBe(true);
      expect(anchorsOf(FAQ[lang][slug as (typeof FAQ_SLUGS)[number]])).toContain(anchor);
    });
  }

  test("both languages carry the same anchors on every page, each once", () => {
    for (const slug of FAQ_SLUGS) {
      const en = anchorsOf(FAQ.en[slug]);
      expect(new Set(en).size, `${slug}: duplicate anchor`).toBe(en.length);
      expect([...anchorsOf(FAQ.zh[slug])].sort(), slug).toEqual([...en].sort());
    }
  });

  test("every in-page FAQ link points at a page and anchor that exist", () => {
    for (const lang of ["en", "zh"] as const)
      for (const slug of FAQ_SLUGS) {
        const text = JSON.stringify(FAQ[lang][slug].body);
        for (const [, zh, target, anchor] of text.matchAll(/\]\((\/zh)?\/faq\/([a-z-]+)(?:#([a-z0-9-]+))?\)/g)) {
          expect(Boolean(zh), `${lang}/${slug} links across languages to ${target}`).toBe(lang === "zh");
          expect(isFaqSlug(target!), `${lang}/${slug} → ${target}`).toBe(true);
          if (anchor)
            expect(anchorsOf(FAQ[lang][target as (typeof FAQ_SLUGS)[number]]), `${lang}/${slug} → ${target}#${anchor}`).toContain(anchor);
        }
      }
  });
});
