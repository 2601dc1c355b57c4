import { describe, expect, test } from "vitest";
import { badgeAnswer, resolveBadgeQuery, uptimeBadgeSpec } from "@/lib/site/badge-route";
import { formatIncidentDuration, formatUptime } from "@/lib/site/uptime";
import type { ServerUptime } from "@/lib/store/uptime";

const fig = (up: number, reached: number) => ({ up, reached, ratio: reached ? up / reached : null, from: "2026-11-01T00:00:00.000Z" });
const uptime: ServerUptime = { last24h: fig(12, 12), last7d: fig(99, 100), last30d: fig(9_999, 10_000), last90d: fig(0, 0) };

describe("uptime wording", () => {
  test("a share is never rounded up to 100%", () => {
    expect(formatUptime(fig(9_999, 10_000))).toBe("99.99%");
    expect(formatUptime(fig(99_999, 100_000))).toBe("99.99%");
    expect(formatUptime(fig(12, 12))).toBe("100%");
    expect(formatUptime(fig(2, 3))).toBe("66.6%");
    expect(formatUptime(fig(0, 0))).toBe("no data");
  });

  test("incident durations read as hours and minutes", () => {
    expect(formatIncidentDuration(3 * 3_600_000 + 10 * 60_000 + 59_000)).toBe("3 h 10 min");
    expect(formatIncidentDuration(45_000)).toBe("45 s");
    expect(formatIncidentDuration(2 * 3_600_000)).toBe("2 h");
    expect(formatIncidentDuration(52 * 3_600_000)).toBe("2 days 4 h");
    expect(formatIncidentDuration(52 * 3_600_000, "zh")).toBe("2 天 4 小时");
    expect(formatIncidentDuration(45_000, "zh")).toBe("45 秒");
  });
});

describe("the uptime badge (?metric=uptime)", () => {
  const lookup = { states: () => null, latency: () => null, uptime: () => uptime };

  test("30 days by default, any window on request, as SVG and shields JSON", () => {
    const r = resolveBadgeQuery(new URLSearchParams("metric=uptime"), lookup);
    expect(r).toMatchObject({ ok: true, status: 200, spec: { label: "MCP uptime 30d", message: "99.99%", color: "#2e7d32" } });
    const week = resolveBadgeQuery(new URLSearchParams("metric=uptime&window=7d"), lookup);
    expect(week).toMatchObject({ spec: { message: "99.00%", color: "#2e7d32" } });
    const shields = JSON.parse(badgeAnswer(week, "shields").body);
    expect(shields).toMatchObject({ schemaVersion: 1, label: "MCP uptime 7d", message: "99.00%" });
    expect(badgeAnswer(r, "svg").body).toContain("99.99%");
  });

  test("no probe in the window says so; an unknown server is a 404; a bad window is a 400", () => {
    expect(uptimeBadgeSpec(uptime, "90d")).toMatchObject({ message: "no probes" });
    expect(resolveBadgeQuery(new URLSearchParams("metric=uptime"), { ...lookup, uptime: () => null })).toMatchObject({
      status: 404,
      spec: { message: "unknown" },
    });
    const bad = resolveBadgeQuery(new URLSearchParams("metric=uptime&window=1y"), lookup);
    expect(bad).toMatchObject({ ok: false, error: expect.stringContaining("24h, 7d, 30d, 90d") });
    expect(badgeAnswer(bad, "svg").status).toBe(400);
  });
});
