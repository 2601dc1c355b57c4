import type { ServerResponse } from "node:http";
import type { FrontRefusal } from "../vocabulary/front";

// The answers the front makes itself when it cannot give the renderer's: one sentence each, never cached.

/** Why a render gave no answer: the renderer is away (exited, restarting), every render slot is taken,
 * no headers came within the limit, or the renderer failed (no answer, or one cut off). */
export type RenderFailure = Extract<FrontRefusal, "renderer_away" | "busy" | "timeout" | "renderer_failed">;

const ANSWERS: Record<FrontRefusal, { status: number; text: string }> = {
  renderer_away: { status: 503, text: "The site's renderer is restarting; this page is not held in memory, try again shortly." },
  busy: { status: 503, text: "The site is rendering as many pages as it takes at once; try again in a second." },
  timeout: { status: 504, text: "The site's renderer did not answer in time." },
  renderer_failed: { status: 502, text: "The site's renderer failed to answer." },
  bad_request: { status: 400, text: "The request is malformed or ambiguous (its framing or headers), so it was not passed on." },
  too_large: { status: 413, text: "The request body is larger than this site accepts." },
};

/** Writes the front's own answer for `refusal`; a response already under way is cut off instead, so a
 * partial answer never looks whole. */
export function frontError(res: ServerResponse, refusal: FrontRefusal, retryAfterS: number): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const { status, text } = ANSWERS[refusal];
  const headers: Record<string, string> = { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" };
  if (refusal === "renderer_away") headers["retry-after"] = String(Math.max(1, Math.ceil(retryAfterS)));
  if (refusal === "busy") headers["retry-after"] = "1";
  if (refusal === "bad_request" || refusal === "too_large") headers.connection = "close";
  res.writeHead(status, headers);
  res.end(`${text}\n`);
}
