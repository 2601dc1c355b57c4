// Zoo servers for suite 0.15.0's reach rule (architecture.md §2.6): each is listed with headers the registry says it
// needs, probed without them, and judged by what it answered. `registry` gives the listed remote as the registry would
// (headers, URL variables) for a URL; the zoo harness and the demo fleet read the remote choice from it, so a URL
// variable without a default gets no request at all. Data and behaviours only.
import type { ZooBehaviour, ZooExpectation } from "./types";
import {
  SINGLE_PAGE,
  bearerChallenge,
  credentialGate,
  err,
  legacyEndpoint,
  modernEndpoint,
  notFound,
  rpc,
  rpcId,
  sendJson,
  sendText,
  unauthorized,
} from "./wire";
import type { CheckId, CheckState, NotCheckedCause } from "@/lib/vocabulary/checks";

const S = { V: "verified", F: "failed", R: "observed_risk", N: "not_checked" } as const satisfies Record<string, CheckState>;
type Code = keyof typeof S;
function states(h: Code, p: Code, t: Code, e: Code, a: Code): Record<CheckId, CheckState> {
  return { handshake: S[h], protocol_version: S[p], tools_list: S[t], error_taxonomy: S[e], auth_metadata: S[a] };
}
const discovery = <const T>(v: T) => ({ handshake: v, protocol_version: v, tools_list: v });

/** The registry's word for a required key, as the real registry lists it. */
const API_KEY = [{ name: "X-Api-Key", isRequired: true, isSecret: true, description: "Your API key" }];
/** A templated Authorization value without isRequired (108 remotes on one platform in the real dump). */
const BEARER_TEMPLATE = [{ name: "Authorization", isSecret: true, value: "Bearer {api_key}", description: "Bearer token" }];

const remote = (headers: unknown[]) => (url: string) => ({ type: "streamable-http", url, headers });

/** Answers every MCP POST with `refuse` unless it carries `X-Api-Key` (which the probe never sends). */
const wantsKey =
  (refuse: ZooBehaviour): ZooBehaviour =>
  (ctx) => {
    if (ctx.path !== "/mcp") return notFound(ctx);
    if (ctx.headers["x-api-key"]) return modernEndpoint({ tools: SINGLE_PAGE })(ctx);
    return refuse(ctx);
  };

export const REACH_BEHAVIOURS: Record<string, ZooBehaviour> = {
  "reach-answers-without-key": modernEndpoint({ tools: SINGLE_PAGE }),
  "reach-template-bearer-gate": credentialGate({ challenge: (ctx) => bearerChallenge(ctx, { scope: "mcp:read" }) }),
  "reach-403-json": wantsKey((ctx) => sendJson(ctx, 403, { error: "missing_api_key", message: "Send your key in X-Api-Key" })),
  "reach-400-jsonrpc": wantsKey((ctx) => sendJson(ctx, 400, err(rpcId(ctx), -32001, "X-Api-Key header is required"))),
  "reach-500-html": wantsKey((ctx) =>
    sendText(ctx, 500, "text/html", "<!doctype html><title>Error</title><h1>Internal Server Error</h1><p>KeyError: api_key</p>"),
  ),
  "reach-bare-401": wantsKey((ctx) => unauthorized(ctx, null)),
  "reach-tools-list-403": legacyEndpoint({
    discover: (ctx) => sendJson(ctx, 400, err("server-error", -32600, "Bad Request: Unsupported protocol version")),
    toolsList: (ctx) => sendJson(ctx, 403, err(rpcId(ctx), -32003, "Forbidden: X-Api-Key header is required")),
  }),
  "reach-connection-refused": modernEndpoint({ tools: SINGLE_PAGE }),
  // Never reached: its listed URL has {tenant} with no default.
  "reach-tenant-no-address": (ctx) => sendJson(ctx, 200, err(rpc(ctx).id ?? null, -32600, "should never be asked")),
  "reach-control-optional-header": modernEndpoint({ tools: SINGLE_PAGE }),
};

/** No request at all: the URL has no address without the user's tenant. */
const nothingSent = (log: readonly unknown[]) => (log.length ? `${log.length} request(s) were sent` : null);

export const REACH_EXPECTATIONS: Record<string, ZooExpectation> = {
  "reach-answers-without-key": {
    about:
      "Listed with X-Api-Key required, but answers the whole handshake and tool list without it: judged as any server, and the reason says so.",
    category: "policy",
    states: states("V", "V", "V", "V", "N"),
    era: "modern",
    registry: remote(API_KEY),
    reasonIncludes: { handshake: "answered without the `x-api-key` header" },
  },
  "reach-template-bearer-gate": {
    about:
      "Listed with `Authorization: Bearer {api_key}`; answers 401 with a valid Bearer challenge: the credential gate, metadata followed.",
    category: "policy",
    states: states("N", "N", "N", "N", "V"),
    registry: remote(BEARER_TEMPLATE),
    reasonIncludes: { handshake: "credential required" },
  },
  "reach-403-json": {
    about:
      "Listed with X-Api-Key required; refuses without it with 403 and JSON that is not JSON-RPC: Not checked, needs configuration (a bare 403).",
    category: "policy",
    states: states("N", "N", "N", "N", "N"),
    registry: remote(API_KEY),
    reasonIncludes: { handshake: "refused with http 403 without the `x-api-key` header" },
  },
  "reach-400-jsonrpc": {
    about: "Listed with X-Api-Key required; refuses without it with 400 and a JSON-RPC error -32001: Not checked, needs configuration.",
    category: "policy",
    states: states("N", "N", "N", "N", "N"),
    registry: remote(API_KEY),
    reasonIncludes: { handshake: "refused with http 400", tools_list: "-32001" },
  },
  "reach-500-html": {
    about:
      "Listed with X-Api-Key required; answers 500 with an HTML page without it: Not checked, and a hint, since a client cannot act on it.",
    category: "policy",
    states: states("N", "N", "N", "N", "N"),
    registry: remote(API_KEY),
    reasonIncludes: { handshake: "refused with http 500" },
    hints: discovery("unreadable_refusal"),
    hintIncludes: discovery("401"),
  },
  "reach-bare-401": {
    about:
      "Listed with X-Api-Key required; answers 401 with no challenge and no body: Not checked (a bare 401 needs no hint), never Failed.",
    category: "policy",
    states: states("N", "N", "N", "N", "N"),
    registry: remote(API_KEY),
    reasonIncludes: { handshake: "refused with http 401" },
  },
  "reach-tools-list-403": {
    about:
      "Listed with X-Api-Key required; the legacy handshake completes without it, tools/list gets 403 -32003: the tool list is Not checked.",
    category: "policy",
    states: states("V", "V", "N", "N", "N"),
    era: "legacy",
    registry: remote(API_KEY),
    reasonIncludes: { tools_list: "refused with http 403" },
  },
  "reach-connection-refused": {
    about:
      "Listed with X-Api-Key required, but nothing listens: no HTTP answer, so Failed as for any server (a missing key does not explain silence).",
    category: "policy",
    network: "refused",
    states: states("F", "F", "F", "N", "N"),
    registry: remote(API_KEY),
    hints: discovery("connection_refused"),
  },
  "reach-tenant-no-address": {
    about: "Listed at a URL with {tenant} and no default: there is no address, so no request at all; Not checked, needs configuration.",
    category: "policy",
    states: states("N", "N", "N", "N", "N"),
    registry: (url) => ({ type: "streamable-http", url: url.replace(/\/mcp$/, "/{tenant}/mcp"), headers: API_KEY }),
    forbidden: nothingSent,
  },
  "reach-control-optional-header": {
    about:
      "Control: listed with an optional secret header only, so it needs no configuration; healthy, and the header is never sent either.",
    category: "policy",
    states: states("V", "V", "V", "V", "N"),
    era: "modern",
    registry: remote([{ name: "X-Trace-Id", isSecret: true, description: "optional" }]),
    reasonExcludes: { handshake: "answered without" },
  },
};

/** The kinds the reach cases must store (lib/demo/zoo/causes.ts reads these). */
export const REACH_CAUSES: Record<string, { causes: Partial<Record<CheckId, NotCheckedCause>> }> = {
  "reach-403-json": { causes: { ...discovery("needs_configuration"), error_taxonomy: "withheld", auth_metadata: "no_challenge" } },
  "reach-500-html": { causes: discovery("needs_configuration") },
  "reach-tools-list-403": { causes: { tools_list: "needs_configuration" } },
  "reach-tenant-no-address": {
    causes: { ...discovery("needs_configuration"), error_taxonomy: "needs_configuration", auth_metadata: "needs_configuration" },
  },
  "reach-template-bearer-gate": { causes: discovery("credential_required") },
};
