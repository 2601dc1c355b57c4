import { CHECK_IDS, type CheckId } from "../checks/vocabulary";
import { type BadgeStates } from "../store/servers";
import type { Answer } from "./answer-cache";
import { BADGE_CACHE_CONTROL, badgeSpec, badgeSvg, shieldsEndpoint, type BadgeSpec } from "./badge";
import { overallState } from "./states";

export type BadgeLookup =
  | { ok: true; spec: BadgeSpec; status: 200 | 404 }
  | { ok: false; error: string };

/** Resolves a badge request (?check=<id> or none) to what it should say, and whether the server is known. */
export function resolveBadge(found: BadgeStates | null, checkParam: string | null): BadgeLookup {
  let check: CheckId | undefined;
  if (checkParam !== null && checkParam !== "") {
    if (!(CHECK_IDS as readonly string[]).includes(checkParam)) {
      return { ok: false, error: `unknown check "${checkParam}"; use one of ${CHECK_IDS.join(", ")}` };
    }
    check = checkParam as CheckId;
  }
  if (!found) return { ok: true, spec: badgeSpec({ known: false, state: null, check }), status: 404 };
  const state = check ? found.states[check] : overallState(found.states);
  return { ok: true, spec: badgeSpec({ known: true, state, check, leftRegistry: found.leftRegistryAt !== null }), status: 200 };
}

export type BadgeFormat = "svg" | "shields";

/** A badge request's whole answer: an SVG, or shields.io endpoint JSON; a bad ?check= is a 400. */
export function badgeAnswer(found: BadgeStates | null, checkParam: string | null, format: BadgeFormat): Answer {
  const result = resolveBadge(found, checkParam);
  if (format === "svg") {
    if (!result.ok) return { status: 400, contentType: "text/plain; charset=utf-8", body: `${result.error}\n` };
    return { status: result.status, contentType: "image/svg+xml; charset=utf-8", body: badgeSvg(result.spec) };
  }
  if (!result.ok) return { status: 400, contentType: "application/json", body: JSON.stringify({ error: result.error }) };
  return { status: result.status, contentType: "application/json", body: JSON.stringify(shieldsEndpoint(result.spec)) };
}

export function badgeResponse(answer: Answer): Response {
  const headers: Record<string, string> = { "content-type": answer.contentType };
  if (answer.status !== 400) headers["cache-control"] = BADGE_CACHE_CONTROL;
  return new Response(answer.body, { status: answer.status, headers });
}
