import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createUpstream } from "../../../lib/front/upstream";
import { WARM_PATHS, warmRenderer } from "../../../lib/front/warm";

// The warm-up in front of a real HTTP server standing where the renderer stands.
let server: http.Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

async function renderer(handler: http.RequestListener): Promise<number> {
  server = http.createServer(handler);
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

describe("warming a renderer before it takes visitors", () => {
  it("asks for the index and a server page, in turn, and counts a 404 as answered", async () => {
    const seen: string[] = [];
    const port = await renderer((req, res) => {
      seen.push(req.url!);
      res.writeHead(req.url === "/" ? 200 : 404).end("page");
    });
    const up = createUpstream({ host: "127.0.0.1", port });
    try {
      const warmed = await warmRenderer(up, Date.now() + 5_000);
      expect(seen).toEqual([...WARM_PATHS]);
      expect(seen[1]).toMatch(/^\/servers\//);
      expect(warmed.answered).toBe(WARM_PATHS.length);
    } finally {
      up.close();
    }
  });

  it("gives up at the deadline on a renderer that does not answer, and asks for nothing after it", async () => {
    const seen: string[] = [];
    const port = await renderer((req) => {
      seen.push(req.url!); // never answered
    });
    const up = createUpstream({ host: "127.0.0.1", port });
    try {
      const warmed = await warmRenderer(up, Date.now() + 300);
      expect(warmed.answered).toBe(0);
      expect(seen).toEqual([WARM_PATHS[0]]);
    } finally {
      up.close();
      server?.closeAllConnections();
    }
  });
});
