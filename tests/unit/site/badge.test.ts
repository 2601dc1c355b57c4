import { describe, expect, test } from "vitest";
import { CHECK_STATES } from "@/lib/vocabulary/checks";
import { BADGE_COLORS, badgeSpec, badgeSvg, shieldsEndpoint } from "@/lib/site/badge";
import { resolveBadge } from "@/lib/site/badge-route";

describe("badges", () => {
  test("badge-maker escapes a <script> label and message as text", () => {
    const svg = badgeSvg({ label: `<script>alert("x")</script>`, message: `a & b "c" <img onerror=x>`, color: "#000" });
    expect(svg).not.toContain("<script>");
    expect(svg).not.toContain("<img");
    expect(svg).toContain("&lt;script&gt;");
    expect(svg).toContain("&amp;");
  });

  test("every state has its own colour and words", () => {
    const messages = new Set(CHECK_STATES.map((s) => badgeSpec({ known: true, state: s }).message));
    expect(messages.size).toBe(CHECK_STATES.length);
    expect(new Set(Object.values(BADGE_COLORS)).size).toBe(CHECK_STATES.length + 1);
  });

  test("unknown servers get a grey unknown badge and status 404", () => {
    const r = resolveBadge(null, null);
    expect(r).toEqual({ ok: true, status: 404, spec: { label: "MCP status", message: "unknown", color: BADGE_COLORS.unknown } });
  });

  test("an unknown check id is refused", () => {
    expect(resolveBadge(null, "nope").ok).toBe(false);
  });

  test("the shields endpoint JSON follows schemaVersion 1", () => {
    const json = shieldsEndpoint(badgeSpec({ known: true, state: "failed", check: "handshake" }));
    expect(json).toEqual({ schemaVersion: 1, label: "MCP handshake", message: "failed", color: "c62828", cacheSeconds: 300 });
  });
});
