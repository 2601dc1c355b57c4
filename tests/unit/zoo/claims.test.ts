// The reason-vs-evidence checker the zoo runs on every case must itself catch the lies it is for.
import { describe, expect, test } from "vitest";
import type { Exchange } from "@/lib/probe/types";
import { claimProblem } from "./harness";

function ex(seq: number, method: string, status: number | undefined, headers: Record<string, string> = {}, body = ""): Exchange {
  return {
    seq,
    phase: "discover",
    method: "POST",
    url: "http://127.0.0.1/mcp",
    requestHeaders: {},
    requestBody: JSON.stringify({ jsonrpc: "2.0", id: seq, method }),
    ...(status !== undefined ? { status } : {}),
    responseHeaders: headers,
    bodyExcerpt: body,
    durationMs: 1,
  };
}

const broken401 = [
  ex(1, "server/discover", 401, { "www-authenticate": 'Bearer realm="x' }),
  ex(2, "initialize", 401, { "www-authenticate": 'Bearer realm="x' }),
];

describe("claimProblem", () => {
  test.each([
    ["a status no exchange has", "server/discover answered HTTP 404 with an empty body.", [ex(1, "server/discover", 400)]],
    ["a method that was never sent", "initialize answered HTTP 400 with an empty body.", [ex(1, "server/discover", 400)]],
    [
      "the right status on the wrong method",
      "tools/list answered HTTP 200 with -32603.",
      [ex(1, "server/discover", 200), ex(2, "tools/list", 404)],
    ],
    [
      "no header where a broken one was sent",
      "initialize was refused with HTTP 401 and no WWW-Authenticate challenge, so a client is refused with no instructions.",
      broken401,
    ],
    [
      "no challenge where a header was sent",
      "No credential challenge was presented, so there was no auth metadata to discover.",
      broken401,
    ],
    [
      "a parse problem where every header parses",
      "initialize answered HTTP 401 with a WWW-Authenticate header that is present but not a valid challenge (x).",
      [ex(1, "initialize", 401, { "www-authenticate": "Bearer realm=x" })],
    ],
    ["no answer where one came", "server/discover got no answer (the connection was closed mid-answer).", [ex(1, "server/discover", 502)]],
    [
      "a fallback that never happened",
      "server/discover answered HTTP 400 with an empty body; fell back to initialize; 2025-11-25 agreed.",
      [ex(1, "server/discover", 400)],
    ],
    ["more pages than were read", "Read 3 tools over 2 pages.", [ex(1, "tools/list", 200, {}, "{}")]],
    [
      "a revision offered that no answer holds",
      "No common protocol revision: initialize answered with 2023-01-01, and the revisions initialize can agree are 2025-11-25.",
      [ex(1, "initialize", 200, {}, '{"protocolVersion":"2024-01-01"}')],
    ],
    [
      "the probe speaking what the server offered",
      "No common protocol revision: the server offered 2026-07-28, and the probe speaks 2026-07-28, 2025-11-25.",
      [ex(1, "initialize", 200, {}, '{"result":{"protocolVersion":"2026-07-28"}}')],
    ],
  ] as const)("flags %s", (_what, reason, exchanges) => {
    expect(claimProblem(reason, exchanges)).not.toBeNull();
  });

  test("passes a reason the exchanges bear out", () => {
    const exchanges = [
      ex(1, "server/discover", 400, {}, '{"error":{}}'),
      ex(2, "initialize", 200, {}, '{"result":{"protocolVersion":"2025-11-25"}}'),
    ];
    expect(
      claimProblem(
        'server/discover answered HTTP 400 with -32600 under id "server-error"; fell back to initialize; 2025-11-25 agreed.',
        exchanges,
      ),
    ).toBeNull();
  });
});
