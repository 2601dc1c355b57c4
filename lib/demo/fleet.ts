import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { entry, startFixtureRegistry, type FixtureEntry, type FixtureRegistry } from "./loopback-registry";
import { CHANGING_ABOUT, CHANGING_SERVER, changingTools } from "./changing";
import { createBehaviourHandler, createZooHandler, ZOO_EXPECTATIONS, ZOO_SECOND_HOST, zooRemote, type ZooRequestHandler } from "./zoo";

// The demo fleet is the zoo served for real: the same behaviours the probe is tested against,
// mounted by path on loopback listeners, listed by a loopback registry.

const DEMO_NAMESPACE = "dev.mcp-status.demo";
/** The registry name of the server that changes between probes (lib/demo/changing.ts). */
export const DEMO_CHANGING_SERVER = `${DEMO_NAMESPACE}/${CHANGING_SERVER}`;
/** Host whose robots.txt asks our probe to stay away. */
const DEMO_ROBOTS_HOST = "127.0.0.3";
/** Host an operator opted out; a credential challenge points its metadata there. */
const DEMO_OPTED_OUT_METADATA_HOST = "127.0.0.2";
const DEMO_OPT_OUT_REASON = "the demo's metadata host asked not to be probed";

// Behaviours that spend their whole deadline on purpose stay out of the demo: a newcomer should
// see every state within a minute. The hostile suite exercises them.
const SLOW = new Set([
  "hostile-huge-body",
  "hostile-gzip-bomb",
  "hostile-hang-after-headers",
  "hostile-slow-drip",
  "hostile-endless-sse",
  "hostile-ten-thousand-tools",
  "hostile-deep-json-nesting",
]);

function demoBehaviours(): string[] {
  // TLS and broken-network cases need a test's own certificates or lookups: the zoo tests run them.
  return Object.keys(ZOO_EXPECTATIONS).filter((n) => !SLOW.has(n) && !ZOO_EXPECTATIONS[n]!.tls && !ZOO_EXPECTATIONS[n]!.network);
}

export interface RunningFleet {
  registry: FixtureRegistry;
  entries: FixtureEntry[];
  /** Hosts an operator opted out, with the reason, for the store. */
  operatorOptOuts: { host: string; reason: string }[];
  close(): Promise<void>;
}

function listen(server: Server, host: string): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, host, () => resolve(`http://${host}:${(server.address() as AddressInfo).port}`));
  });
}

function mountAll(handlers: Map<string, ZooRequestHandler>, robots?: string): Server {
  return createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    if (path === "/robots.txt") {
      res.writeHead(robots ? 200 : 404, { "content-type": "text/plain" }).end(robots ?? "");
      return;
    }
    const name = path.split("/")[1] ?? "";
    const handler = handlers.get(name);
    if (!handler) {
      res.writeHead(404, { "content-type": "text/plain" }).end("no such demo server");
      return;
    }
    void handler(req, res);
  });
}

/** Starts every demo behaviour on loopback plus a registry listing them; resolves once all listen. */
export async function startDemoFleet(): Promise<RunningFleet> {
  const servers: Server[] = [];
  const closeAll = () =>
    Promise.all(
      servers.map(
        (s) =>
          new Promise<void>((r) => {
            s.closeAllConnections();
            s.close(() => r());
          }),
      ),
    ).then(() => undefined);
  try {
    const names = demoBehaviours();
    const otherHandlers = new Map<string, ZooRequestHandler>();
    const other = mountAll(otherHandlers);
    servers.push(other);
    const otherOrigin = await listen(other, DEMO_OPTED_OUT_METADATA_HOST);

    const mainHandlers = new Map<string, ZooRequestHandler>();
    const robotsHandlers = new Map<string, ZooRequestHandler>();
    for (const name of names) {
      const optedOut = ZOO_EXPECTATIONS[name]?.optOut === "server";
      const target = optedOut ? robotsHandlers : mainHandlers;
      target.set(name, createZooHandler(name, { prefix: `/${name}`, otherOrigin: ZOO_SECOND_HOST[name] ? otherOrigin : undefined }));
      if (ZOO_SECOND_HOST[name]) otherHandlers.set(name, createZooHandler(name, { prefix: `/${name}` }));
    }
    const robots = mountAll(robotsHandlers, "User-agent: mcp-status-probe\nDisallow: /\n");
    servers.push(robots);
    const robotsOrigin = await listen(robots, DEMO_ROBOTS_HOST);
    // One listener per behaviour: each is a host of its own, as on the internet, so one server's 429 pauses
    // only its own host (architecture.md §2.5) and the demo's round is not one host's queue.
    const origins = new Map<string, string>();
    for (const [name, handler] of mainHandlers) {
      const one = mountAll(new Map([[name, handler]]));
      servers.push(one);
      origins.set(name, await listen(one, "127.0.0.1"));
    }
    const changing = mountAll(
      new Map([[CHANGING_SERVER, createBehaviourHandler(CHANGING_SERVER, changingTools, { prefix: `/${CHANGING_SERVER}` })]]),
    );
    servers.push(changing);
    origins.set(CHANGING_SERVER, await listen(changing, "127.0.0.1"));
    const originOf = (name: string) => origins.get(name) ?? robotsOrigin;

    const entries = names.map((name) => {
      const exp = ZOO_EXPECTATIONS[name]!;
      const sse = exp.transport === "sse";
      const origin = exp.optOut === "server" ? robotsOrigin : originOf(name);
      const remote = zooRemote(name, `${origin}/${name}${sse ? "/sse" : "/mcp"}`);
      return entry(`${DEMO_NAMESPACE}/${name}`, [remote], { title: name.replace(/-/g, " "), description: exp.about });
    });
    entries.push(
      entry(DEMO_CHANGING_SERVER, [{ type: "streamable-http", url: `${originOf(CHANGING_SERVER)}/${CHANGING_SERVER}/mcp` }], {
        title: "changing tools",
        description: CHANGING_ABOUT,
      }),
      entry(`${DEMO_NAMESPACE}/templated-url`, [{ type: "streamable-http", url: "https://{tenant_id}.demo.invalid/mcp" }], {
        description: "Listed with a per-tenant URL template, so it needs configuration before anyone can probe it.",
      }),
      entry(
        `${DEMO_NAMESPACE}/secret-header`,
        [
          {
            type: "streamable-http",
            url: `${originOf("credential-gate-valid-prm")}/credential-gate-valid-prm/mcp`,
            headers: [{ name: "Authorization", isRequired: true, isSecret: true, description: "Bearer token" }],
          },
        ],
        { description: "Listed with a required secret Authorization header: probed without it, and it answers with a credential gate." },
      ),
      entry(
        `${DEMO_NAMESPACE}/several-remotes`,
        [
          {
            type: "streamable-http",
            url: `${originOf("credential-gate-valid-prm")}/credential-gate-valid-prm/mcp`,
            headers: [{ name: "Authorization", isRequired: true, isSecret: true, description: "Bearer token" }],
          },
          {
            type: "sse",
            url: `${originOf("http-sse-2024-11-05")}/http-sse-2024-11-05/sse`,
            headers: [{ name: "X-Api-Key", value: "{api_key}" }],
          },
          {
            type: "streamable-http",
            url: `${originOf("modern-healthy-paged")}/modern-healthy-paged/mcp`,
            headers: [{ name: "X-Trace-Id", isSecret: false, description: "optional" }],
          },
          { type: "sse", url: `${originOf("http-sse-2024-11-05")}/http-sse-2024-11-05/sse` },
        ],
        {
          description:
            "Lists four remotes: the first needs a secret, the second a key in a header value; the third is probed, the fourth passed over.",
        },
      ),
      entry(
        `${DEMO_NAMESPACE}/deleted-entry`,
        [{ type: "streamable-http", url: `${originOf("modern-healthy-paged")}/modern-healthy-paged/mcp` }],
        {
          description: "Deleted from the registry; ingestion skips entries that are not active.",
          status: "deleted",
        },
      ),
    );
    const registry = await startFixtureRegistry(entries, { pageSize: 100 });
    return {
      registry,
      entries,
      operatorOptOuts: [{ host: DEMO_OPTED_OUT_METADATA_HOST, reason: DEMO_OPT_OUT_REASON }],
      close: async () => {
        await registry.close();
        await closeAll();
      },
    };
  } catch (e) {
    await closeAll();
    throw e;
  }
}
