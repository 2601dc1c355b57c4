import { describe, expect, test } from "vitest";
import { clientAddress, MCP_RATE_LIMIT, RateLimiter, rateKey } from "@/lib/mcp/rate-limit";

const headers = (xff?: string) => new Headers(xff === undefined ? {} : { "x-forwarded-for": xff });

describe("the client address /mcp limits", () => {
  test.each([
    [undefined, null],
    ["", null],
    ["127.0.0.1", "127.0.0.1"],
    // What the client wrote comes first; the hop that accepted the connection appended the last entry.
    ["203.0.113.9, 198.51.100.4", "198.51.100.4"],
    ["203.0.113.9,  2001:db8::1 ", "2001:db8::1"],
  ])("X-Forwarded-For %j → %j", (xff, address) => {
    expect(clientAddress(headers(xff))).toBe(address);
  });

  test.each([
    [null, "unknown"],
    ["198.51.100.4", "198.51.100.4"],
    ["::ffff:198.51.100.4", "198.51.100.4"],
    // One subscriber's /64 is one client.
    ["2001:db8:1:2:aaaa::1", "2001:db8:1:2::/64"],
    ["2001:db8:1:2:bbbb:cccc:dddd:eeee", "2001:db8:1:2::/64"],
    ["[2001:db8:1:3::9]", "2001:db8:1:3::/64"],
    ["not-an-address", "other:not-an-address"],
  ])("%j counts against %j", (address, key) => {
    expect(rateKey(address)).toBe(key);
  });
});

describe("RateLimiter", () => {
  test(`the documented limit: ${MCP_RATE_LIMIT.burst} at once, then ${MCP_RATE_LIMIT.perMinute} a minute`, () => {
    const l = new RateLimiter();
    const t0 = 1_000_000;
    for (let i = 0; i < MCP_RATE_LIMIT.burst; i++) expect(l.take("a", t0)).toEqual({ ok: true });
    const refused = l.take("a", t0);
    expect(refused.ok).toBe(false);
    // One request comes back every 60 000 / perMinute ms.
    const gap = 60_000 / MCP_RATE_LIMIT.perMinute;
    expect(refused).toEqual({ ok: false, retryAfterMs: gap });
    expect(l.take("a", t0 + gap - 1).ok).toBe(false);
    expect(l.take("a", t0 + gap).ok).toBe(true);
    expect(l.take("a", t0 + gap).ok).toBe(false);
    // Another client is untouched; a quiet client refills to the burst, never beyond.
    expect(l.take("b", t0).ok).toBe(true);
    let served = 0;
    while (l.take("a", t0 + 3_600_000).ok) served++;
    expect(served).toBe(MCP_RATE_LIMIT.burst);
  });

  test("memory is bounded: past maxKeys the least recently seen client is forgotten (and starts full)", () => {
    const l = new RateLimiter({ burst: 1, perMinute: 1 }, 2);
    expect(l.take("a", 0).ok).toBe(true);
    expect(l.take("a", 0).ok).toBe(false);
    l.take("b", 0);
    l.take("c", 0);
    expect(l.take("a", 0).ok).toBe(true);
  });
});
