// architecture.md §2.6: which remote is probed and when a server needs configuration, on the shapes the real registry
// lists (a dump of 964 latest entries: 70 servers with several remotes, one with 18 and one with 30; templated
// header values without isRequired; optional secret headers; remotes with URL variables). Suite 0.15.0: each test also
// says whether the shape now gets a request (probed anonymously without the listed headers) or none (no address).
import { afterEach, describe, expect, test } from "vitest";
import { fetchRegistry, type RegistryServer } from "@/lib/registry/client";
import { entry, startFixtureRegistry, type FixtureEntry, type FixtureRegistry, type FixtureRemote } from "@/lib/demo/loopback-registry";

let reg: FixtureRegistry | undefined;
afterEach(async () => {
  await reg?.close();
  reg = undefined;
});

async function ingest(entries: FixtureEntry[]): Promise<{ servers: Record<string, RegistryServer>; log: string[]; malformed: number }> {
  reg = await startFixtureRegistry(entries, { pageSize: 100 });
  const log: string[] = [];
  const res = await fetchRegistry(reg.url, { sleep: async () => undefined, log: (l) => log.push(l) });
  return { servers: Object.fromEntries(res.servers.map((s) => [s.name, s])), log, malformed: res.malformed };
}

/** The shape of the registry's 18-remote entry: nine products, each as streamable-http then sse, every one with
 * an `Authorization: App {API_KEY}` value (the sse ones also isRequired), except the last product's pair. */
function eighteenRemotes(): FixtureRemote[] {
  const products = ["sms", "whatsapp", "viber", "rcs", "2fa", "people", "accounts", "entities", "search"];
  return products.flatMap((p, i) => {
    const auth = (required: boolean) =>
      i === products.length - 1
        ? []
        : [{ name: "Authorization", isSecret: true, ...(required ? { isRequired: true } : {}), value: "App {API_KEY}" }];
    return [
      { type: "streamable-http", url: `https://mcp.msg.example/${p}`, headers: auth(false) },
      { type: "sse", url: `https://mcp.msg.example/${p}/sse`, headers: auth(true) },
    ];
  });
}

describe("registry remotes (architecture.md §2.6)", () => {
  test("18 remotes: the first that needs nothing is probed, every other one keeps its standing", async () => {
    const { servers } = await ingest([entry("com.msg/mcp", eighteenRemotes())]);
    const s = servers["com.msg/mcp"]!;
    expect(s).toMatchObject({ url: "https://mcp.msg.example/search", transport: "streamable-http", needsConfig: null });
    expect(s.remotes).toHaveLength(18);
    expect(s.remotes.filter((r) => r.standing === "probed").map((r) => r.url)).toEqual(["https://mcp.msg.example/search"]);
    expect(s.remotes[17]).toMatchObject({
      url: "https://mcp.msg.example/search/sse",
      transport: "sse",
      standing: "passed_over",
      why: null,
    });
    expect(s.remotes[0]).toMatchObject({
      standing: "needs_configuration",
      why: "its header Authorization holds {API_KEY} for the user to fill in",
    });
    expect(s.remotes[1]!.why).toBe("it requires the header Authorization, and the probe never sends registry headers");
    // Gets a request, as before: the last product's pair needs nothing.
    expect(s).toMatchObject({ configHeaders: [], noAddress: false });
  });

  test("a templated header value without isRequired needs configuration; an optional secret header does not", async () => {
    const { servers } = await ingest([
      entry("ai.pm/server", [
        {
          type: "streamable-http",
          url: "https://app.pm.example/mcp",
          headers: [{ name: "Authorization", description: "Bearer token", value: "Bearer {pm_token}" }],
        },
      ]),
      entry("com.cf/obs", [
        {
          type: "streamable-http",
          url: "https://obs.cf.example/mcp",
          headers: [{ name: "Authentication", description: "Optional API key if not using OAuth", isSecret: true }],
        },
      ]),
    ]);
    expect(servers["ai.pm/server"]).toMatchObject({ needsConfig: "its header Authorization holds {pm_token} for the user to fill in" });
    // 0.15.0: it now gets a request, without its Authorization header, on the one remote it lists.
    expect(servers["ai.pm/server"]).toMatchObject({
      url: "https://app.pm.example/mcp",
      configHeaders: ["Authorization"],
      noAddress: false,
    });
    expect(servers["ai.pm/server"]!.remotes[0]!.standing).toBe("probed");
    expect(servers["com.cf/obs"]).toMatchObject({ needsConfig: null, url: "https://obs.cf.example/mcp", configHeaders: [] });
    expect(servers["com.cf/obs"]!.remotes[0]!.standing).toBe("probed");
  });

  test("URL variables with defaults are filled in; without one the remote needs configuration", async () => {
    const { servers } = await ingest([
      entry("io.t/with-default", [
        {
          type: "streamable-http",
          url: "https://{region}.api.t.example/{version}/mcp",
          variables: { region: { default: "eu" }, version: { default: "v2", choices: ["v1", "v2"] } },
        },
      ]),
      entry("io.t/without", [
        {
          type: "streamable-http",
          url: "https://{tenant_id}.api.t.example/mcp",
          variables: { tenant_id: { description: "Your tenant", isRequired: true } },
        },
      ]),
      entry("io.t/base-url", [{ type: "streamable-http", url: "{baseUrl}/mcp" }]),
    ]);
    expect(servers["io.t/with-default"]).toMatchObject({ url: "https://eu.api.t.example/v2/mcp", needsConfig: null });
    expect(servers["io.t/with-default"]!.remotes[0]).toMatchObject({
      url: "https://{region}.api.t.example/{version}/mcp",
      filledUrl: "https://eu.api.t.example/v2/mcp",
      standing: "probed",
    });
    expect(servers["io.t/without"]!.needsConfig).toBe("its URL has {tenant_id} with no default, for the user to fill in");
    expect(servers["io.t/base-url"]!.needsConfig).toBe("its URL has {baseUrl} with no default, for the user to fill in");
    // Only a URL variable without a default stops every request: there is no address to send one to.
    expect(servers["io.t/with-default"]).toMatchObject({ noAddress: false, configHeaders: [] });
    expect(servers["io.t/without"]).toMatchObject({ noAddress: true, configHeaders: [] });
    expect(servers["io.t/base-url"]).toMatchObject({ noAddress: true, configHeaders: [] });
    // What an owner may fill in (architecture.md §11): the template with its defaults, and the names without one.
    expect(servers["io.t/with-default"]!.urlVariables).toBeNull();
    expect(servers["io.t/without"]!.urlVariables).toEqual({
      template: "https://{tenant_id}.api.t.example/mcp",
      names: ["tenant_id"],
      headers: [],
    });
  });

  test("streamable-http before sse; a server needs configuration only when every remote does", async () => {
    const required = [{ name: "Authorization", isRequired: true, isSecret: true }];
    const { servers } = await ingest([
      entry("com.pay/mcp", [
        { type: "streamable-http", url: "https://mcp.pay.example/mcp", headers: required },
        { type: "sse", url: "https://mcp.pay.example/sse", headers: required },
      ]),
      entry("io.s/sse-first", [
        { type: "sse", url: "https://s.example/sse" },
        { type: "streamable-http", url: "https://s.example/mcp" },
      ]),
    ]);
    expect(servers["com.pay/mcp"]).toMatchObject({
      url: "https://mcp.pay.example/mcp",
      transport: "streamable-http",
      needsConfig:
        "each of its 2 listed remotes needs configuration; the first streamable-http one: it requires the header Authorization, and the probe never sends registry headers",
    });
    // 0.15.0: the streamable-http remote gets a request without its Authorization header; the sse one is left alone.
    expect(servers["com.pay/mcp"]!.remotes.map((r) => r.standing)).toEqual(["probed", "needs_configuration"]);
    expect(servers["com.pay/mcp"]).toMatchObject({ configHeaders: ["Authorization"], noAddress: false });
    expect(servers["io.s/sse-first"]).toMatchObject({ url: "https://s.example/mcp", transport: "streamable-http" });
    expect(servers["io.s/sse-first"]!.remotes.map((r) => r.standing)).toEqual(["passed_over", "probed"]);
  });

  test("0.15.0: a URL variable with no default beside a required header still gets no request; headers alone get one", async () => {
    const { servers } = await ingest([
      entry("io.mix/tenant-and-key", [
        { type: "streamable-http", url: "https://{tenant}.mix.example/mcp", headers: [{ name: "X-Api-Key", isRequired: true }] },
      ]),
      entry("io.mix/tenant-then-key", [
        { type: "streamable-http", url: "https://{tenant}.mix.example/mcp" },
        { type: "sse", url: "https://mix.example/sse", headers: [{ name: "X-Api-Key", isRequired: true }] },
      ]),
      entry("io.mix/long-name", [
        { type: "streamable-http", url: "https://long.example/mcp", headers: [{ name: "X-".padEnd(500, "k"), isRequired: true }] },
      ]),
    ]);
    expect(servers["io.mix/tenant-and-key"]).toMatchObject({ noAddress: true, configHeaders: [] });
    expect(servers["io.mix/tenant-and-key"]!.urlVariables).toMatchObject({ names: ["tenant"], headers: ["X-Api-Key"] });
    // The sse remote has an address: it is probed without X-Api-Key, although streamable-http comes first.
    expect(servers["io.mix/tenant-then-key"]).toMatchObject({
      noAddress: false,
      url: "https://mix.example/sse",
      transport: "sse",
      configHeaders: ["X-Api-Key"],
    });
    expect(servers["io.mix/tenant-then-key"]!.remotes.map((r) => r.standing)).toEqual(["needs_configuration", "probed"]);
    // A name over the cap is cut and quoted.
    expect(servers["io.mix/long-name"]!.configHeaders[0]!.length).toBeLessThanOrEqual(64);
  });

  test("bad input: the rest of the registry is ingested and the log names the entry", async () => {
    const many = Array.from({ length: 500 }, (_, i) => ({ type: "streamable-http", url: `https://many.example/mcp/${i}` }));
    const badVars = { type: "streamable-http", url: "https://v.example/mcp", variables: ["tenant"] as unknown as Record<string, unknown> };
    const badVarsTemplate = {
      type: "streamable-http",
      url: "https://{tenant}.v.example/mcp",
      variables: "tenant" as unknown as Record<string, unknown>,
    };
    const badHeader = {
      type: "streamable-http",
      url: "https://h.example/mcp",
      headers: [{ name: "X Bad Header\r\nInjected: 1", isRequired: true }],
    };
    const badOptional = { type: "streamable-http", url: "https://o.example/mcp", headers: [{ name: "not a token" }] };
    const broken = { server: { name: 42, remotes: [] } } as unknown as FixtureEntry;
    const { servers, log, malformed } = await ingest([
      entry("io.bad/five-hundred", many),
      entry("io.bad/variables-list", [badVars]),
      entry("io.bad/variables-string", [badVarsTemplate]),
      entry("io.bad/header-name", [badHeader]),
      entry("io.bad/optional-header-name", [badOptional]),
      broken,
      entry("io.good/after", [{ type: "streamable-http", url: "https://good.example/mcp" }]),
    ]);
    expect(Object.keys(servers).sort()).toEqual(
      [
        "io.bad/five-hundred",
        "io.bad/header-name",
        "io.bad/optional-header-name",
        "io.bad/variables-list",
        "io.bad/variables-string",
        "io.good/after",
      ].sort(),
    );
    expect(malformed).toBe(1);
    expect(servers["io.bad/five-hundred"]!.remotes).toHaveLength(50);
    expect(servers["io.bad/five-hundred"]!.url).toBe("https://many.example/mcp/0");
    expect(servers["io.bad/variables-list"]).toMatchObject({ needsConfig: null, url: "https://v.example/mcp" });
    expect(servers["io.bad/variables-string"]!.needsConfig).toMatch(/\{tenant\} with no default/);
    // A name that is not a token is never sent, and is shown quoted.
    expect(servers["io.bad/header-name"]!.needsConfig).toBe(
      'it requires the header "X Bad Header\\r\\nInjected: 1", and the probe never sends registry headers',
    );
    expect(servers["io.bad/optional-header-name"]!.needsConfig).toBeNull();
    // The hostile name is kept only as a quoted, capped label for the reason: it is never a request header.
    expect(servers["io.bad/header-name"]!.configHeaders).toEqual(['"X Bad Header\\r\\nInjected: 1"']);
    expect(servers["io.bad/variables-string"]).toMatchObject({ noAddress: true });
    const said = log.join("\n");
    expect(said).toMatch(/"io\.bad\/five-hundred": 500 remotes listed; the first 50 were read/);
    expect(said).toMatch(/"io\.bad\/variables-list": remote 1 has variables that are not an object \(a list\); ignored/);
    expect(said).toMatch(/"io\.bad\/variables-string": remote 1 has variables that are not an object \(string\)/);
    expect(said).toMatch(/"io\.bad\/header-name": remote 1 header "X Bad Header\\r\\nInjected: 1" is not an HTTP header name/);
    expect(said).toMatch(/page 1 entry 6 skipped: server\.name/);
    expect(said).toMatch(/6 remote servers from 7 entries in 1 pages \(0 inactive, 0 without a remote, 1 unreadable/);
  });
});
