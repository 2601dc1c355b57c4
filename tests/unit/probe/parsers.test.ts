import { describe, expect, test } from "vitest";
import { createAddressPolicy } from "@/lib/probe/address-policy";
import { jsonDepth, MAX_JSON_DEPTH, parseJson } from "@/lib/probe/jsonrpc";
import { SseParser, type SseEvent } from "@/lib/probe/sse";
import { parseRetryAfter } from "@/lib/probe/host-gate";
import { malformedTools } from "@/lib/probe/tools";

function parseAll(chunks: string[]): SseEvent[] {
  const p = new SseParser();
  return [...chunks.flatMap((c) => p.feed(c)), ...p.end()];
}

describe("SSE parser", () => {
  const cases: [string, string[], SseEvent[]][] = [
    ["one event", ['event: message\ndata: {"a":1}\n\n'], [{ event: "message", data: '{"a":1}' }]],
    ["default event type is message", ["data: x\n\n"], [{ event: "message", data: "x" }]],
    ["multi-line data joined with \\n", ["data: a\ndata: b\ndata:c\n\n"], [{ event: "message", data: "a\nb\nc" }]],
    ["comments skipped", [": keep-alive\n\n: x\ndata: y\n\n"], [{ event: "message", data: "y" }]],
    [
      "priming event with id and empty data skipped",
      ["id: 1\ndata:\n\nid: 2\ndata: real\n\n"],
      [{ event: "message", data: "real", id: "2" }],
    ],
    ["event without data skipped", ["event: ping\n\n"], []],
    ["CRLF line endings", ["data: a\r\ndata: b\r\n\r\n"], [{ event: "message", data: "a\nb" }]],
    ["CR line endings", ["data: a\r\r"], [{ event: "message", data: "a" }]],
    ["CRLF split across chunks", ["data: a\r", "\n\r", "\n"], [{ event: "message", data: "a" }]],
    ["field split across chunks", ["da", "ta: he", "llo\n", "\n"], [{ event: "message", data: "hello" }]],
    ["no space after colon", ["data:x\n\n"], [{ event: "message", data: "x" }]],
    ["only one leading space stripped", ["data:  x\n\n"], [{ event: "message", data: " x" }]],
    ["field without colon", ["data\ndata: b\n\n"], [{ event: "message", data: "\nb" }]],
    ["unknown fields ignored", ["foo: bar\ndata: x\n\n"], [{ event: "message", data: "x" }]],
    [
      "id persists to later events",
      ["id: 7\ndata: a\n\ndata: b\n\n"],
      [
        { event: "message", data: "a", id: "7" },
        { event: "message", data: "b", id: "7" },
      ],
    ],
    ["retry recorded", ["retry: 1500\ndata: a\n\n"], [{ event: "message", data: "a", retry: 1500 }]],
    [
      "endpoint event",
      ["event: endpoint\ndata: /messages/?session_id=abc\n\n"],
      [{ event: "endpoint", data: "/messages/?session_id=abc" }],
    ],
    ["BOM stripped", ["\uFEFFdata: x\n\n"], [{ event: "message", data: "x" }]],
    ["unfinished event at end of stream discarded", ["data: x\n"], []],
  ];
  test.each(cases)("%s", (_n, chunks, expected) => {
    expect(parseAll(chunks)).toEqual(expected);
  });
});

describe("Retry-After", () => {
  const now = new Date("2026-11-29T12:00:00Z");
  test.each([
    ["120", 120],
    [" 0 ", 0],
    ["Sun, 29 Nov 2026 12:02:00 GMT", 120],
    ["Sun, 29 Nov 2026 11:00:00 GMT", 0],
    ["soon", undefined],
    ["-5", undefined],
    ["1.5", undefined],
    ["", undefined],
  ])("%j → %s", (value, expected) => {
    expect(parseRetryAfter(value, now)).toBe(expected);
  });
  test("absent header", () => expect(parseRetryAfter(undefined, now)).toBeUndefined());
});

describe("address policy", () => {
  const strict = createAddressPolicy({ allowPrivate: false });
  const loose = createAddressPolicy({ allowPrivate: true });
  const refused: [string, RegExp][] = [
    ["127.0.0.1", /loopback/],
    ["127.255.0.9", /loopback/],
    ["10.1.2.3", /private/],
    ["172.16.0.1", /private/],
    ["192.168.1.1", /private/],
    ["169.254.169.254", /link-local/],
    ["100.64.0.1", /carrier-grade NAT/],
    ["0.0.0.0", /unspecified/],
    ["224.0.0.1", /multicast/],
    ["255.255.255.255", /broadcast/],
    ["192.0.2.1", /reserved/],
    ["::1", /loopback/],
    ["::", /unspecified/],
    ["fe80::1", /link-local/],
    ["fd00::1", /unique local/],
    ["ff02::1", /multicast/],
    ["::ffff:127.0.0.1", /loopback.*embeds 127\.0\.0\.1/],
    ["::ffff:10.0.0.1", /private/],
    ["64:ff9b::a00:1", /private.*embeds 10\.0\.0\.1/],
    ["2002:c0a8:0101::1", /private.*embeds 192\.168\.1\.1/],
    ["2001:0:4136:e378:8000:63bf:3fff:fdd2", /Teredo/],
    ["[::1]", /loopback/],
    ["fe80::1%eth0", /link-local/],
  ];
  test.each(refused)("refuses %s", (addr, why) => {
    expect(strict.check(addr)).toMatch(why);
  });

  test.each(["93.184.216.34", "1.1.1.1", "2606:4700:4700::1111", "::ffff:8.8.8.8", "64:ff9b::808:808", "2002:0808:0808::1"])(
    "allows public %s",
    (addr) => {
      expect(strict.check(addr)).toBeNull();
    },
  );

  test.each(["127.0.0.1", "10.0.0.1", "::1", "fd00::1", "100.64.0.1", "169.254.1.1"])("allowPrivate lets %s through", (addr) => {
    expect(loose.check(addr)).toBeNull();
  });

  test.each(["0.0.0.0", "224.0.0.1", "::", "ff02::1"])("allowPrivate still refuses %s", (addr) => {
    expect(loose.check(addr)).not.toBeNull();
  });

  test("an allow list opens only its ranges", () => {
    const p = createAddressPolicy({ allowPrivate: false, allow: ["127.0.0.1/32"] });
    expect(p.check("127.0.0.1")).toBeNull();
    expect(p.check("::ffff:127.0.0.1")).toBeNull();
    expect(p.check("127.0.0.2")).toMatch(/loopback/);
    expect(p.check("10.0.0.1")).toMatch(/private/);
  });

  test("a hostname is not an address", () => {
    expect(strict.check("example.com")).toMatch(/not an IP address/);
  });
});

describe("JSON parsing", () => {
  test("drops __proto__ and constructor.prototype keys", () => {
    const r = parseJson('{"a":1,"__proto__":{"x":1},"b":{"constructor":{"prototype":{"y":1}}}}');
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(Object.getPrototypeOf(r.value)).toBe(Object.prototype);
    expect((r.value as Record<string, unknown>).x).toBeUndefined();
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });
  test("refuses nesting deeper than the cap", () => {
    const deep = "[".repeat(MAX_JSON_DEPTH + 1) + "]".repeat(MAX_JSON_DEPTH + 1);
    const r = parseJson(deep);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error).toMatch(/nested deeper/);
    expect(parseJson("[".repeat(MAX_JSON_DEPTH) + "]".repeat(MAX_JSON_DEPTH)).ok).toBe(true);
  });
  test("brackets inside strings do not count", () => {
    expect(jsonDepth('{"a":"[[[[\\"{{{{"}')).toBe(1);
  });
  test.each([
    ["", /empty/],
    ["<html>", /not valid JSON/],
    ["{", /not valid JSON/],
  ])("%j is not JSON", (text, why) => {
    const r = parseJson(text);
    expect(!r.ok && r.error).toMatch(why);
  });
});

describe("tool definitions", () => {
  test("names every kind of malformed definition once", () => {
    expect(
      malformedTools([
        { name: "ok", inputSchema: { type: "object" } },
        { inputSchema: {} },
        { name: "a", inputSchema: [] },
        { name: "b" },
        { name: "ok", inputSchema: {} },
        { name: "ok", inputSchema: {} },
        "string",
        { name: 5, inputSchema: {} },
      ]),
    ).toEqual([
      "tool #2 has no name",
      'tool "a" has no object inputSchema',
      'tool "b" has no object inputSchema',
      'duplicate name "ok"',
      "tool #7 is not an object",
      "tool #8 has no name",
    ]);
  });
});
