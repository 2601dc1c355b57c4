import type { Upstream } from "./upstream";

/** Pages a renderer just started answers once before it takes visitors. The first request to a route loads that
 * route's code; on a loaded machine, with the renderer at its lower priority, that took longer than the front's
 * 30 s answer limit, so the first visitor of each route got a 504. The index and a server page (here one that is
 * not listed: a 404 from the same route) are the two routes most visitors and every badge-linked report open. */
export const WARM_PATHS: readonly string[] = ["/", "/servers/mcp-status/warm-up"];

/** No warm-up render waits longer than this, whatever time the start has left. */
export const WARM_MAX_MS = 60_000;

export interface Warmed {
  /** Paths that answered, whatever their status. */
  answered: number;
  ms: number;
}

/** Asks the renderer for each path in turn, until `deadline`. A path that fails or runs out of time only leaves
 * its route cold for its first visitor: the renderer is taken into service either way. */
export async function warmRenderer(up: Upstream, deadline: number, paths: readonly string[] = WARM_PATHS): Promise<Warmed> {
  const started = Date.now();
  const until = Math.min(deadline, started + WARM_MAX_MS);
  let answered = 0;
  for (const path of paths) {
    if (Date.now() >= until) break;
    try {
      await up.whole({ method: "GET", path, headers: { host: "localhost", "user-agent": "mcp-status-front (warm-up)" }, deadline: until });
      answered++;
    } catch {
      // Cold for its first visitor, as without a warm-up.
    }
  }
  return { answered, ms: Date.now() - started };
}
