import fs from "node:fs";
import { describe, expect, test } from "vitest";
import { FAQ } from "@/lib/site/faq";
import { MCP_RATE_LIMIT } from "@/lib/mcp/rate-limit";
import { CHANGES_LIMIT, QUERY_MAX, SEARCH_PAGE_SIZE } from "@/lib/mcp/schemas";
import { MCP_TOOL_NAMES } from "@/lib/mcp/server";

// The README and both FAQ pages state the endpoint's one limit and its caps: the numbers the code enforces.
const readme = fs.readFileSync("README.md", "utf8");
const docs = {
  README: readme.slice(readme.indexOf("## The site as an MCP server"), readme.indexOf("## Configuration")),
  ...Object.fromEntries((["en", "zh"] as const).map((l) => [`FAQ ${l}`, JSON.stringify(FAQ[l]["ask-over-mcp"])])),
};

describe.each(Object.entries(docs))("%s on /mcp", (_where, text) => {
  test("names every tool and states the rate limit and the caps the code enforces", () => {
    for (const tool of MCP_TOOL_NAMES) expect(text).toContain(tool);
    for (const n of [MCP_RATE_LIMIT.burst, MCP_RATE_LIMIT.perMinute, SEARCH_PAGE_SIZE.cap, CHANGES_LIMIT.cap, QUERY_MAX])
      expect(text).toMatch(new RegExp(`\\b${n}\\b`));
    expect(text).toMatch(/Retry-After/);
    expect(text).toMatch(/-32023/);
  });
});
