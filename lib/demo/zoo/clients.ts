// Zoo servers for suite 0.15.0 (architecture.md §2.10): which kinds of client can connect. Each speaks 2026-07-28 and
// answers the legacy handshake of an initialize-first client its own way. Their expectations are in expectations.ts.
import type { ZooBehaviour, ZooContext } from "./types";
import { SINGLE_PAGE, err, legacyEndpoint, modernEndpoint, rpc, rpcId, sendJson } from "./wire";

/** A request in the 2026-07-28 shape (server/discover, or `_meta` naming a revision) goes to `modern`, any other to `legacy`. */
function byEra(modern: ZooBehaviour, legacy: ZooBehaviour): ZooBehaviour {
  return (ctx: ZooContext) => {
    const r = rpc(ctx);
    const meta = r.params?._meta;
    const hasMeta = typeof meta === "object" && meta !== null && "io.modelcontextprotocol/protocolVersion" in meta;
    return r.method === "server/discover" || hasMeta ? modern(ctx) : legacy(ctx);
  };
}

const modern = modernEndpoint({ tools: SINGLE_PAGE });
/** How a legacy server would answer a discover it was never sent: unused here, since byEra routes discover to `modern`. */
const unusedDiscover: ZooBehaviour = (ctx) => sendJson(ctx, 400, err(rpcId(ctx), -32601, "Method not found"));

export const CLIENTS_BEHAVIOURS: Record<string, ZooBehaviour> = {
  /** Modern only, strict about `_meta`: initialize (which has none) gets 400 -32602. */
  "clients-modern-only-32602": modern,
  /** Modern only, answering anything without `_meta` as the conformance suite expects: 404 with -32601. */
  "clients-modern-only-404": byEra(modern, (ctx) => sendJson(ctx, 404, err(rpcId(ctx), -32601, "Method not found"))),
  /** Both eras; the legacy side mints a session, so the initialize-first client gives it back with one DELETE. */
  "clients-both-eras-session": byEra(modern, legacyEndpoint({ discover: unusedDiscover, versions: ["2025-11-25"], sessions: true })),
  /** Both eras in the handshake, but the legacy tools/list fails with 500 -32603. */
  "clients-legacy-tools-list-fails": byEra(
    modern,
    legacyEndpoint({
      discover: unusedDiscover,
      versions: ["2025-06-18"],
      toolsList: (ctx) => sendJson(ctx, 500, err(rpcId(ctx), -32603, "Internal error: no tools for legacy clients")),
    }),
  ),
};
