import { CHECK_IDS, type CheckId } from "../checks/vocabulary";
import { type BadgeStates } from "../store/servers";
import { badgeSpec, type BadgeSpec } from "./badge";
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
