import { describe, expect, test } from "vitest";
import { judge } from "@/lib/checks";
import type { Exchange, ProbeObservation } from "@/lib/probe/types";
import { createRegionBook } from "@/lib/regions/health";
import { decideQuorum, type RegionalRead } from "@/lib/regions/quorum";
import { decodeAnswer, encodeAnswer, MAX_ANSWER_BYTES } from "@/lib/regions/wire";
import { gzipSync } from "node:zlib";

// The quorum and the region book are pure; the wire's decoder is the site's gate for what agents send.

const at = "2026-12-01T14:05:00.000Z";
const ex = (seq: number, over: Partial<Exchange> = {}): Exchange => ({
  seq,
  phase: "discover",
  method: "POST",
  url: "http://127.0.0.1:9/mcp",
  requestHeaders: {},
  responseHeaders: {},
  durationMs: 3,
  ...over,
});

function readObs(): ProbeObservation {
  return {
    url: "http://127.0.0.1:9/mcp",
    transport: "streamable-http",
    startedAt: at,
    finishedAt: at,
    era: "modern",
    handshake: { kind: "modern", protocolVersion: "2026-07-28", supportedVersions: ["2026-07-28"], seq: 1 },
    toolsList: { kind: "complete", tools: [{ name: "t", inputSchema: { type: "object" } }], pages: 1, malformed: [], seqs: [2] },
    toolCall: { kind: "withheld", why: "test", cause: "handshake" },
    authMetadata: { kind: "no_challenge" },
    exchanges: [ex(1, { status: 200 }), ex(2, { status: 200, phase: "tools_list" })],
  };
}

function refusedObs(): ProbeObservation {
  return {
    url: "http://127.0.0.1:9/mcp",
    transport: "streamable-http",
    startedAt: at,
    finishedAt: at,
    era: "unknown",
    handshake: { kind: "failed", cause: "connection refused", seq: 1 },
    exchanges: [ex(1, { error: "connection refused", network: "refused" })],
  };
}

const read = (region: string, obs: ProbeObservation, role: RegionalRead["role"] = "confirmation"): RegionalRead => ({
  region,
  role,
  obs,
  results: judge(obs),
});

describe("the quorum", () => {
  test.each([
    ["2 of 3 fail", ["fail", "fail", "read"], "failed", ["a", "b"]],
    ["2 of 2 fail", ["fail", "fail"], "failed", ["a", "b"]],
    ["1 of 3 fails", ["fail", "read", "read"], "verified", ["a"]],
    ["1 of 2 fails", ["fail", "read"], "verified", ["a"]],
    ["none fails", ["read", "read", "read"], "verified", []],
  ] as const)("%s", (_, shape, handshake, failed) => {
    const reads = shape.map((s, i) => read("abc"[i]!, s === "fail" ? refusedObs() : readObs(), i === 0 ? "primary" : "confirmation"));
    const v = decideQuorum(reads);
    expect(v.results.find((r) => r.check === "handshake")!.state).toBe(handshake);
    expect(v.quorum.failed).toEqual(failed);
    expect(v.singleVantage).toBe(false);
    if (handshake === "failed") {
      expect(v.quorum.note).toBeNull();
      expect(v.results.find((r) => r.check === "handshake")!.reason).toContain(`it failed from a and b (2 of ${shape.length} regions)`);
    } else if (failed.length > 0) {
      expect(v.deciding.region).toBe("b");
      expect(v.quorum.note).toEqual({
        failed: [{ region: "a", at, facts: { kind: "network", network: "refused" } }],
        readFrom: reads.slice(1).map((r) => r.region),
      });
    }
  });

  test("one read alone is a single vantage point: its verdict stands and architecture.md §2.7 applies", () => {
    const v = decideQuorum([read("a", refusedObs(), "primary")]);
    expect(v.singleVantage).toBe(true);
    expect(v.results.find((r) => r.check === "handshake")!.state).toBe("failed");
  });

  test("an HTTP error is named by its status in the note", () => {
    const obs: ProbeObservation = {
      ...refusedObs(),
      handshake: { kind: "failed", cause: "HTTP 502", seq: 1, seqs: [1] },
      exchanges: [ex(1, { status: 502 })],
    };
    const v = decideQuorum([read("b", obs, "primary"), read("a", readObs()), read("c", readObs())]);
    expect(v.quorum.note?.failed[0]?.facts).toEqual({ kind: "status", status: 502 });
  });
});

describe("the region book", () => {
  const options = { minHosts: 4, recentHosts: 10, silenceMs: 1_000, recoveryReads: 2, recoveryPerMinute: 2 };

  test("a region whose own share of failing hosts trips is down; two reads in a row bring it back", () => {
    let now = 0;
    const changes: string[] = [];
    const book = createRegionBook({
      regions: ["a", "b", "c"],
      now: () => new Date(now),
      options,
      changed: (s) => changes.push(`${s.id}:${s.up}`),
    });
    for (let i = 0; i < 4; i++) {
      book.answered("a", `h${i}:1`, { networkFailed: false, read: true });
      book.answered("b", `h${i}:1`, { networkFailed: false, read: true });
      book.answered("c", `h${i}:1`, { networkFailed: true, read: false });
    }
    expect(book.up()).toEqual(["a", "b"]);
    expect(book.states().find((s) => s.id === "c")!.down).toEqual({ kind: "host_share", failed: 4, hosts: 4 });
    expect(book.takeRecoveryCopies()).toEqual(["c"]);
    expect(book.takeRecoveryCopies()).toEqual(["c"]);
    expect(book.takeRecoveryCopies()).toEqual([]);
    book.answered("c", "h9:1", { networkFailed: false, read: true });
    expect(book.isUp("c")).toBe(false);
    book.answered("c", "h8:1", { networkFailed: false, read: true });
    expect(book.isUp("c")).toBe(true);
    expect(changes).toEqual(["c:false", "c:true"]);
    now += 1;
  });

  test("what another process stored is adopted without telling `changed`: down, then up again", () => {
    const changes: string[] = [];
    const book = createRegionBook({ regions: ["a", "b"], now: () => new Date(0), options, changed: (s) => changes.push(s.id) });
    const down = { kind: "silent" as const, sinceMs: 0 };
    book.adopt([{ id: "b", lastAnswerAt: "1970-01-01T00:00:05.000Z", down, downSince: "1970-01-01T00:00:06.000Z" }]);
    expect(book.down()).toEqual(["b"]);
    expect(book.states().find((s) => s.id === "b")).toMatchObject({ up: false, lastAnswerAt: "1970-01-01T00:00:05.000Z" });
    book.adopt([{ id: "b", lastAnswerAt: "1970-01-01T00:00:09.000Z", down: null, downSince: null }]);
    expect(book.down()).toEqual([]);
    expect(changes).toEqual([]);
  });

  test("a share every region shares is the hosts', not a region's: nobody goes down", () => {
    const book = createRegionBook({ regions: ["a", "b"], now: () => new Date(0), options });
    for (let i = 0; i < 6; i++) for (const r of ["a", "b"]) book.answered(r, `h${i}:1`, { networkFailed: true, read: false });
    expect(book.up()).toEqual(["a", "b"]);
  });

  test("a region asked and silent for the silence limit is down", () => {
    let now = 0;
    const book = createRegionBook({ regions: ["a", "b"], now: () => new Date(now), options });
    book.asked("b");
    now = 999;
    book.tick();
    expect(book.isUp("b")).toBe(true);
    now = 1_000;
    book.tick();
    expect(book.isUp("b")).toBe(false);
    expect(book.isUp("a")).toBe(true);
  });

  test("primaries rotate over the regions that are up, by server and by round", () => {
    const book = createRegionBook({ regions: ["a", "b", "c"], now: () => new Date(0), options });
    const names = Array.from({ length: 30 }, (_, i) => `io.example/s${i}`);
    const round1 = names.map((n) => book.primaryFor(n, 1));
    const round2 = names.map((n) => book.primaryFor(n, 2));
    expect(new Set(round1)).toEqual(new Set(["a", "b", "c"]));
    round1.forEach((r, i) => expect(round2[i]).not.toBe(r));
  });
});

describe("answers from agents", () => {
  const answer = { v: 1 as const, id: "r1", region: "a", agent: "h:1", observation: readObs() };
  const request = { id: "r1", url: readObs().url };

  test("a well-formed answer is accepted", () => {
    const d = decodeAnswer(encodeAnswer(answer), request);
    expect(d.ok).toBe(true);
  });

  test.each([
    ["not gzip", Buffer.from("{}"), "invalid"],
    ["not JSON", gzipSync("nope"), "invalid"],
    [
      "an observation without exchanges",
      gzipSync(JSON.stringify({ ...answer, observation: { ...readObs(), exchanges: undefined } })),
      "invalid",
    ],
    [
      "a handshake of a kind the probe never returns",
      gzipSync(JSON.stringify({ ...answer, observation: { ...readObs(), handshake: { kind: "trust-me" } } })),
      "invalid",
    ],
    ["the answer to another request", encodeAnswer({ ...answer, id: "r2" }), "invalid"],
    ["an observation of another URL", encodeAnswer({ ...answer, observation: { ...readObs(), url: "http://elsewhere/mcp" } }), "invalid"],
    ["more than the cap on the wire", Buffer.alloc(MAX_ANSWER_BYTES + 1), "too_large"],
    ["a gzip bomb", gzipSync(Buffer.alloc(40 * 1024 * 1024, 32)), "too_large"],
  ] as const)("%s is that region not answering", (_, data, cause) => {
    const d = decodeAnswer(data, request);
    expect(d.ok).toBe(false);
    if (!d.ok) expect(d.cause).toBe(cause);
  });
});
