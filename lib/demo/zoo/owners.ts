// Fixtures for the owner's view (architecture.md §11): servers that answer only with their owner's key, and that serve the
// owner's claim proof. Their state (the key they take, the proof they publish, a redirect) is set by the test that runs them,
// through `state`. A refused key is echoed in the answer on purpose, so the redaction of what a server says back is tested.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { RESERVED_TOOL_NAME } from "../../probe/protocol";
import { createBehaviourHandler } from "./server";
import type { LoggedRequest, ZooBehaviour, ZooContext } from "./types";
import {
  PRM_PATH,
  SINGLE_PAGE,
  bearerChallenge,
  err,
  modernEndpoint,
  notFound,
  rpcId,
  sendJson,
  sendText,
  unauthorized,
  validPrm,
} from "./wire";

/** What a test sets on an owner fixture. */
export interface OwnerFixtureState {
  /** `owner-key` (and `owner-tenant` when set): the X-Api-Key value it takes. */
  key?: string;
  /** The body served at /.well-known/mcp-status-claim; absent: 404. */
  proof?: string;
  /** Answer the proof path with a 302 to this URL instead. */
  proofRedirect?: string;
  /** `owner-key`: answer every MCP request with a 307 to this URL (a redirect the probe must not follow with the key). */
  mcpRedirect?: string;
  /** `owner-jwt-gate`: the clock its tokens' `exp` is read against (ms). */
  now?: () => number;
  /** `owner-tenant`: the tenant it serves, at /<tenant>/mcp. */
  tenant?: string;
}

const PROOF_PATH = "/.well-known/mcp-status-claim";

function proof(ctx: ZooContext, s: OwnerFixtureState): boolean {
  if (ctx.path !== PROOF_PATH || ctx.method !== "GET") return false;
  if (s.proofRedirect) {
    ctx.res.writeHead(302, { location: s.proofRedirect, "content-type": "text/plain" }).end("moved");
    return true;
  }
  if (s.proof === undefined) notFound(ctx);
  else sendText(ctx, 200, "text/plain", `${s.proof}\n`);
  return true;
}

/** The `exp` of a JWT, read without verifying it (as the fixture's own "verification"). */
function jwtExp(token: string): number | null {
  try {
    const payload = JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString("utf8")) as { exp?: unknown };
    return typeof payload.exp === "number" ? payload.exp : null;
  } catch {
    return null;
  }
}

export const OWNER_BEHAVIOURS: Record<string, ZooBehaviour> = {
  /** Listed with X-Api-Key required. No key: 403 JSON (refused, as the reach rule reads it). The right key: a healthy modern
   * server. A wrong key: 401 with a Bearer challenge whose metadata lives on the other host, the body echoing the key. */
  "owner-key": (ctx) => {
    const s = ctx.state as OwnerFixtureState;
    if (proof(ctx, s)) return;
    if (ctx.path !== "/mcp") return notFound(ctx);
    if (s.mcpRedirect) {
      ctx.res.writeHead(307, { location: s.mcpRedirect, "content-type": "text/plain" }).end("moved");
      return;
    }
    const sent = ctx.headers["x-api-key"];
    if (sent === undefined) return sendJson(ctx, 403, { error: "missing_api_key", message: "Send your key in X-Api-Key" });
    if (sent === s.key) return modernEndpoint({ tools: SINGLE_PAGE })(ctx);
    const metadataUrl = ctx.otherOrigin ? `${ctx.otherOrigin}${PRM_PATH}` : undefined;
    return unauthorized(
      ctx,
      bearerChallenge(ctx, { metadataUrl }),
      JSON.stringify({ error: "invalid_key", message: `key ${sent} is not valid` }),
    );
  },
  /** A credential gate that takes a short-lived JWT: a Bearer token whose `exp` is still ahead is let in; anything else gets
   * 401 with a valid challenge (metadata on its own origin). */
  "owner-jwt-gate": (ctx) => {
    const s = ctx.state as OwnerFixtureState;
    if (proof(ctx, s)) return;
    if (ctx.path === PRM_PATH && ctx.method === "GET") return validPrm(ctx);
    if (ctx.path !== "/mcp") return notFound(ctx);
    const m = /^Bearer\s+(\S+)$/i.exec(ctx.headers["authorization"] ?? "");
    const exp = m ? jwtExp(m[1]!) : null;
    if (exp !== null && exp * 1000 > (s.now ?? Date.now)()) return modernEndpoint({ tools: SINGLE_PAGE })(ctx);
    return unauthorized(ctx, bearerChallenge(ctx, { scope: "mcp:read" }));
  },
  /** Listed as `<origin>/{tenant}/mcp` with no default (architecture.md §11: no address without its owner's URL variable).
   * Serves a healthy modern server at /<tenant>/mcp only; every other path is a 404 naming the path it was asked for, and
   * its reserved-tool answer names the request path too, so the redaction of a filled URL echoed back is tested. */
  "owner-tenant": (ctx) => {
    const s = ctx.state as OwnerFixtureState;
    if (proof(ctx, s)) return;
    const asked = ctx.req.url ?? "";
    if (!s.tenant || ctx.path !== `/${encodeURIComponent(s.tenant)}/mcp`)
      return sendJson(ctx, 404, { error: "unknown_tenant", message: `nothing is served at ${asked}` });
    // With `key` set, it also wants the X-Api-Key header the registry may list beside the variable.
    if (s.key !== undefined && ctx.headers["x-api-key"] !== s.key)
      return sendJson(ctx, 403, { error: "missing_api_key", message: "Send your key in X-Api-Key" });
    const toolCall = (c: typeof ctx) => sendJson(c, 200, err(rpcId(c), -32602, `Tool ${RESERVED_TOOL_NAME} not found at ${asked}`));
    return modernEndpoint({ tools: SINGLE_PAGE, toolCall })({ ...ctx, path: "/mcp" });
  },
};

/** Headers the registry lists for each owner fixture, as a registry remote's `headers`. */
export const OWNER_REGISTRY_HEADERS: Record<
  string,
  { name: string; isRequired?: boolean; isSecret?: boolean; value?: string; description?: string }[]
> = {
  "owner-key": [{ name: "X-Api-Key", isRequired: true, isSecret: true, description: "Your API key" }],
  "owner-jwt-gate": [{ name: "Authorization", isSecret: true, value: "Bearer {token}", description: "A short-lived token" }],
};

export interface RunningOwnerServer {
  origin: string;
  url: string;
  state: OwnerFixtureState;
  log: LoggedRequest[];
  /** A second host (the metadata host a wrong key is pointed at), with its own log. */
  other: { origin: string; log: LoggedRequest[] };
  close(): Promise<void>;
}

function listen(server: Server, host: string): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, host, () => resolve(`http://${host}:${(server.address() as AddressInfo).port}`));
  });
}

/** Starts an owner fixture on `host` (127.0.0.1 by default) with its metadata host on `otherHost` (127.0.0.4). */
export async function startOwnerServer(
  name: keyof typeof OWNER_BEHAVIOURS & string,
  opts: { host?: string; otherHost?: string; state?: OwnerFixtureState } = {},
): Promise<RunningOwnerServer> {
  const state: OwnerFixtureState = opts.state ?? {};
  const otherLog: LoggedRequest[] = [];
  const otherHandler = createBehaviourHandler(`${name}-metadata`, (ctx) => (ctx.path === PRM_PATH ? validPrm(ctx) : notFound(ctx)), {
    log: otherLog,
  });
  const s2 = createServer((req, res) => void otherHandler(req, res));
  const otherOrigin = await listen(s2, opts.otherHost ?? "127.0.0.4");
  const log: LoggedRequest[] = [];
  const handler = createBehaviourHandler(name, OWNER_BEHAVIOURS[name]!, { log, otherOrigin, state: state as Record<string, unknown> });
  const s1 = createServer((req, res) => void handler(req, res));
  const origin = await listen(s1, opts.host ?? "127.0.0.1");
  const shut = (s: Server) =>
    new Promise<void>((resolve) => {
      s.closeAllConnections();
      s.close(() => resolve());
    });
  return {
    origin,
    url: `${origin}/mcp`,
    state,
    log,
    other: { origin: otherOrigin, log: otherLog },
    close: async () => {
      await Promise.all([shut(s1), shut(s2)]);
    },
  };
}

/** An unsigned JWT-shaped token with `exp` (seconds): the fixture and the site read `exp` without verifying anything. */
export function testJwt(expSeconds: number, sub = "owner"): string {
  const part = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url");
  return `${part({ alg: "HS256", typ: "JWT" })}.${part({ sub, exp: expSeconds })}.${Buffer.from(`sig-${sub}-${expSeconds}`).toString("base64url")}`;
}
