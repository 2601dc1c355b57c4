import { describe, expect, test } from "vitest";
import { CHECK_IDS, CHECK_STATES, REFUSAL_CODES } from "@/lib/vocabulary/checks";
import { SUITE_CHANGELOG } from "@/lib/site/changelog";
import { FAQ, FAQ_SLUGS, changesSince, type FaqSlug } from "@/lib/site/faq";
import { ROBOTS_TOKEN, USER_AGENT_EXAMPLE } from "@/lib/site/faq/facts";
import { DEFAULT_USER_AGENT } from "@/lib/probe";
import { ROBOTS_TOKEN as ROUNDS_ROBOTS_TOKEN } from "@/lib/rounds/robots";
import { encodeName, nameFromSegments, serverPath } from "@/lib/site/paths";
import {
  canonicalIndexQuery,
  indexHref,
  listQueryOf,
  parseIndexQuery,
  searchParamsOf,
  ServerListParams,
  UNKNOWN_OBSERVATION_FILTER,
} from "@/lib/site/query";
import { STATE_LABELS } from "@/lib/site/labels";
import { REFUSAL_LABELS, tallyRefusals } from "@/lib/site/refusals";
import { REFUSAL_STATES } from "@/lib/checks/refusal";

describe("paths", () => {
  test("registry names with / round-trip through catch-all segments", () => {
    const name = "io.github.evil/x<script>alert(1)</script>";
    const path = serverPath(name);
    expect(path).toBe("/servers/io.github.evil/x%3Cscript%3Ealert(1)%3C/script%3E");
    const segments = path.replace("/servers/", "").split("/");
    expect(nameFromSegments(segments)).toBe(name);
    // Segments Next already decoded come through unchanged.
    expect(nameFromSegments(["io.github.acme", "weather"])).toBe("io.github.acme/weather");
    expect(encodeName("a b/c?d")).toBe("a%20b/c%3Fd");
  });
});

describe("index query", () => {
  test("keeps known check states and ignores the rest", () => {
    const q = parseIndexQuery({ q: " weather ", page: "3", handshake: "failed", tools_list: "bogus", other: "x" });
    expect(q).toEqual({
      q: "weather",
      page: 3,
      states: { handshake: "failed" },
      includeLeft: false,
      overall: undefined,
      sort: "name",
      order: "asc",
      observation: undefined,
    });
    expect(parseIndexQuery({ includeLeft: "1" }).includeLeft).toBe(true);
    // Old links used ?left=1 on the page; they keep working.
    expect(parseIndexQuery({ left: "1" }).includeLeft).toBe(true);
    expect(parseIndexQuery({ left: "1", includeLeft: "0" }).includeLeft).toBe(false);
    expect(parseIndexQuery({ q: "x".repeat(300), page: "many" })).toMatchObject({ q: "x".repeat(200), page: 1 });
    expect(parseIndexQuery({ page: "-2" }).page).toBe(1);
    expect(indexHref({ ...q, page: 4 })).toBe("/?q=weather&handshake=failed&page=4");
    expect(indexHref({})).toBe("/");
    expect(indexHref({ includeLeft: true })).toBe("/?includeLeft=1");
  });

  test("sort, order and the overall filter go through the one schema, defaults left out of links", () => {
    const q = parseIndexQuery({ sort: "overall", overall: "not_checked", order: "bogus" });
    expect(q).toMatchObject({ sort: "overall", order: "asc", overall: "not_checked" });
    expect(indexHref(q)).toBe("/?overall=not_checked&sort=overall");
    // Each sort has its natural order; only the other one is spelled out.
    expect(parseIndexQuery({ sort: "last_probed" }).order).toBe("desc");
    expect(indexHref({ sort: "last_probed", order: "desc" })).toBe("/?sort=last_probed");
    expect(indexHref({ sort: "last_probed", order: "asc" })).toBe("/?sort=last_probed&order=asc");
    expect(indexHref({ sort: "name", order: "desc" })).toBe("/?order=desc");
    expect(parseIndexQuery({ sort: "popularity", overall: "great" })).toMatchObject({ sort: "name", order: "asc", overall: undefined });
    // The front's canonical cache key comes from the same two functions: equivalent queries share one key.
    expect(canonicalIndexQuery(searchParamsOf(new URLSearchParams("order=asc&sort=overall&x=1")))).toBe(
      canonicalIndexQuery(searchParamsOf(new URLSearchParams("sort=overall"))),
    );
    expect(canonicalIndexQuery(searchParamsOf(new URLSearchParams("sort=name&order=asc")))).toBe("");
  });
});

describe("the observation filter (architecture.md §2.9)", () => {
  test("observations=any and observation=<code> filter; an unknown code is a form error with one canonical spelling", () => {
    expect(parseIndexQuery({ observations: "any" }).observation).toBe("any");
    expect(parseIndexQuery({ observation: "any" }).observation).toBe("any");
    expect(parseIndexQuery({ observation: "bidi_controls" }).observation).toBe("bidi_controls");
    expect(indexHref(parseIndexQuery({ observation: "any" }))).toBe("/?observations=any");
    expect(indexHref(parseIndexQuery({ observation: "secret_file_handoff", page: "2" }))).toBe("/?observation=secret_file_handoff&page=2");
    const bad = parseIndexQuery({ observation: "rug_pull" });
    expect(bad).toMatchObject({ observation: undefined, observationUnknown: true });
    // Whatever a client sends, an unknown code makes one cache key, not one per string.
    expect(canonicalIndexQuery({ observation: "rug_pull" })).toBe("observation=unknown");
    expect(canonicalIndexQuery({ observation: "x".repeat(500) })).toBe("observation=unknown");
    expect(parseIndexQuery({ observation: "unknown" }).observationUnknown).toBe(true);
    expect(parseIndexQuery({ observations: "all" }).observationUnknown).toBe(true);
    expect(UNKNOWN_OBSERVATION_FILTER).toContain("hidden_tag_characters");
  });

  test("the list API refuses an unknown code with a clear message, and takes the known ones", () => {
    const bad = ServerListParams.safeParse({ observation: "rug_pull" });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.path).toEqual(["observation"]);
    expect(ServerListParams.safeParse({ observations: "some" }).success).toBe(false);
    expect(listQueryOf(ServerListParams.parse({ observations: "any" })).observation).toBe("any");
    expect(listQueryOf(ServerListParams.parse({ observation: "control_characters", observations: "any" })).observation).toBe(
      "control_characters",
    );
  });
});

describe("refusal tally", () => {
  test("groups on the stored code whatever the reason says, and keeps uncoded rows apart", () => {
    const t = tallyRefusals([
      { code: "malformed_html", count: 2 },
      { code: "jsonrpc_invalid_params", count: 5 },
      { code: "malformed_html", count: 1 },
      { code: null, count: 4 },
    ]);
    expect(t.byCode).toEqual([
      ["jsonrpc_invalid_params", 5],
      ["malformed_html", 3],
    ]);
    expect(t.total).toBe(8);
    expect(t.uncoded).toBe(4);
  });

  test("every code has a label and a judged state", () => {
    for (const code of REFUSAL_CODES) {
      expect(REFUSAL_LABELS[code]).toBeTruthy();
      expect(CHECK_STATES).toContain(REFUSAL_STATES[code]);
    }
  });
});

describe("FAQ", () => {
  test("every page exists in both languages with content and a publication date", () => {
    for (const lang of ["en", "zh"] as const) {
      for (const slug of FAQ_SLUGS) {
        const page = FAQ[lang][slug];
        expect(page.title.length).toBeGreaterThan(3);
        expect(page.body.length).toBeGreaterThan(0);
        expect(page.firstPublished).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        expect(page.firstPublished).toBe(FAQ.en[slug].firstPublished);
      }
    }
  });

  test("the user agent and robots token the FAQ quotes are the ones the probe sends", () => {
    expect(USER_AGENT_EXAMPLE).toBe(DEFAULT_USER_AGENT);
    expect(ROBOTS_TOKEN).toBe(ROUNDS_ROBOTS_TOKEN);
  });

  test("rule-change notes list only changes after the page first appeared", () => {
    expect(changesSince("2026-09-14")).toHaveLength(SUITE_CHANGELOG.length);
    expect(changesSince("2026-09-23").map((c) => c.date)).toEqual([
      "2026-12-05",
      "2026-12-01",
      "2026-12-01",
      "2026-12-01",
      ...Array(9).fill("2026-11-30"),
      "2026-10-06",
      "2026-10-01",
      "2026-09-26",
    ]);
    expect(changesSince("2026-11-05").map((c) => c.version)).toEqual([
      "0.15.0",
      "0.14.0",
      "0.13.0",
      null,
      "0.12.0",
      ...Array(8).fill(null),
    ]);
    expect(changesSince("2026-11-30").map((c) => c.version)).toEqual(["0.15.0", "0.14.0", "0.13.0", null]);
    expect(changesSince("2026-12-01").map((c) => c.version)).toEqual(["0.15.0"]);
    expect(changesSince("2026-12-05")).toHaveLength(0);
  });

  test("each page names the wire facts it explains, in both languages", () => {
    const facts: [FaqSlug, string[]][] = [
      ["handshake", ["-32020", "-32021", "-32022", "server/discover", "initialize", "Retry-After"]],
      ["refusals", ["-32602", "isError", "jsonrpc"]],
      ["credential-gate", ["WWW-Authenticate", "resource_metadata"]],
      ["auth-metadata", ["resource_metadata", "authorization_servers", "scopes_supported", "resource"]],
      ["opting-out", ["PROBE_HOST_CONCURRENCY", "Crawl-delay", "Retry-After", ROBOTS_TOKEN]],
      ["operating", ["coverage_drop", "rounds_stale", "cross_read", "only_cross_reader", "/api/status", "ALERT_WEBHOOK_URL"]],
      ["self-test", ["npm ci", "--transport sse", "--json", "PROBE_ALLOW_PRIVATE_NETWORKS"]],
    ];
    for (const lang of ["en", "zh"] as const)
      for (const [slug, words] of facts) {
        const text = JSON.stringify(FAQ[lang][slug].body);
        for (const w of words) expect(text, `${lang} ${slug} names ${w}`).toContain(w);
      }
    expect(CHECK_IDS.length).toBe(5);
  });

  test("the Chinese pages use the four state labels exactly and no English state label", () => {
    const text = JSON.stringify(FAQ.zh);
    for (const label of Object.values(STATE_LABELS.zh)) expect(text).toContain(label);
    for (const label of Object.values(STATE_LABELS.en)) expect(text).not.toContain(label);
  });
});
