// The names the front's counters (lib/front) and its /api/health answer use, importing nothing: part of the
// JSON API's contract, so they live with its schemas, and lib/front reads them from here.

/** How the front answered a request: from memory (hit), the previous answer while the new one renders
 * (stale), a held answer while the renderer cannot give the current one (stale-if-error), rendered and
 * kept (fill), or handed to the renderer as it came (pass: a route it never holds, which then carries no
 * x-page-cache header, or a held route's answer that is not kept, such as a 404); or a day's open-data
 * file answered from its folder (file). */
export const FRONT_OUTCOMES = ["hit", "stale", "stale-if-error", "fill", "pass", "file"] as const;
export type FrontOutcome = (typeof FRONT_OUTCOMES)[number];

/** Answers the front made itself instead: renderer away or all renders busy (503), no headers in time (504),
 * the renderer failed (502), a malformed or ambiguous request (400), a body over the limit (413). */
export const FRONT_REFUSALS = ["renderer_away", "busy", "timeout", "renderer_failed", "bad_request", "too_large"] as const;
export type FrontRefusal = (typeof FRONT_REFUSALS)[number];

/** The renderer's state: starting (spawned, not yet accepting), up (accepting), restarting (exited, waiting
 * out the back-off), stopped (the front is shutting down). */
export const RENDERER_STATES = ["starting", "up", "restarting", "stopped"] as const;
export type RendererState = (typeof RENDERER_STATES)[number];
