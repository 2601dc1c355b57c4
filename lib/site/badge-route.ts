import { z } from "zod";
import type { ApiShape } from "../api/schemas";
import { CHECK_IDS, type CheckId } from "../vocabulary/checks";
import type { TextAnswer } from "./answer";
import { type BadgeStates } from "../store/servers/detail";
import { BADGE_CACHE_CONTROL, BADGE_COLORS, badgeSpec, badgeSvg, shieldsEndpoint, type BadgeSpec } from "./badge";
import type { ResponseTimes } from "./history";
import type { ServerUptime } from "../store/uptime";
import type { OwnerView } from "../store/owners";
import { overallOf } from "../checks/overall";
import { DEFAULT_UPTIME_BADGE_WINDOW, formatUptime, UPTIME_BADGE_WINDOWS, uptimeColor } from "./uptime";

export type BadgeLookup = { ok: true; spec: BadgeSpec; status: 200 | 404 } | { ok: false; error: string };

/** Resolves a badge request (?check=<id> or none) to what it should say, and whether the server is known. */
export function resolveBadge(found: BadgeStates | null, checkParam: string | null): BadgeLookup {
  let check: CheckId | undefined;
  if (checkParam !== null && checkParam !== "") {
    const parsed = BadgeQuery.shape.check.safeParse(checkParam);
    if (!parsed.success) return { ok: false, error: `unknown check "${checkParam}"; use one of ${CHECK_IDS.join(", ")}` };
    check = parsed.data;
  }
  if (!found) return { ok: true, spec: badgeSpec({ known: false, state: null, check }), status: 404 };
  const state = check ? found.states[check] : found.overall;
  return { ok: true, spec: badgeSpec({ known: true, state, check, leftRegistry: found.leftRegistryAt !== null }), status: 200 };
}

export const BADGE_METRICS = ["latency", "uptime"] as const;

/** architecture.md §11: `?view=owner`, the owner's view's state (with the owner's key); anything else is the public badge. */
export function ownerBadgeSpec(found: BadgeStates | null, owner: OwnerView | null): BadgeLookup {
  const label = "MCP status (owner's key)";
  if (!found) return { ok: true, spec: { label, message: "unknown", color: BADGE_COLORS.unknown }, status: 404 };
  if (!owner) return { ok: true, spec: { label, message: "no owner's view", color: BADGE_COLORS.unknown }, status: 200 };
  const state = overallOf(owner.checks)?.state ?? "not_checked";
  return { ok: true, spec: { ...badgeSpec({ known: true, state }), label }, status: 200 };
}

/** The badge routes' query parameters, as /api/openapi.json documents them; an empty value counts as absent. */
export const BadgeQuery = z.object({
  check: z.enum(CHECK_IDS).optional().describe("One check's state instead of the overall state."),
  metric: z
    .enum(BADGE_METRICS)
    .optional()
    .describe(
      "latency: the handshake p95 over 24 h (30 days when the last day has none); uptime: the share of probes that found the server up.",
    ),
  view: z.enum(["owner"]).optional().describe("owner: the owner's view's state (architecture.md §11) instead of the public one."),
  window: z
    .enum(Object.keys(UPTIME_BADGE_WINDOWS) as [string, ...string[]])
    .optional()
    .describe(`With metric=uptime: the window, ${DEFAULT_UPTIME_BADGE_WINDOW} by default.`),
});

/** Colour steps for a handshake p95, in ms: quick, fine, slow, very slow. */
const LATENCY_STEPS: [number, string][] = [
  [500, "#2e7d32"],
  [1_500, "#5b8c00"],
  [4_000, "#b26a00"],
];

/** The latency badge: handshake p95 over 24 h (30 days when the last day has no measurement). */
export function latencyBadgeSpec(times: ResponseTimes | null): BadgeSpec {
  const label = "MCP handshake p95";
  if (!times) return { label, message: "unknown", color: BADGE_COLORS.unknown };
  const day = times.last24h.handshake;
  const [p, window] = day.p95 !== null ? [day.p95, "24 h"] : [times.last30d.handshake.p95, "30 d"];
  if (p === null) return { label, message: "no measurement", color: BADGE_COLORS.unknown };
  const color = LATENCY_STEPS.find(([max]) => p <= max)?.[1] ?? BADGE_COLORS.failed;
  return { label, message: `${p.toLocaleString("en-US")} ms (${window})`, color };
}

/** The uptime badge (architecture.md §4): the share of probes that reached the server and found it up, over `window`. */
export function uptimeBadgeSpec(uptime: ServerUptime | null, window: string): BadgeSpec {
  const label = `MCP uptime ${window}`;
  if (!uptime) return { label, message: "unknown", color: BADGE_COLORS.unknown };
  const f = uptime[UPTIME_BADGE_WINDOWS[window]!];
  if (f.ratio === null) return { label, message: "no probes", color: BADGE_COLORS.unknown };
  return { label, message: formatUptime(f), color: uptimeColor(f.ratio, BADGE_COLORS.failed) };
}

/** A badge request: ?metric=latency or ?metric=uptime (&window=24h|7d|30d|90d), else ?check=<id> or the overall
 * state. Lookups run only when needed. */
export function resolveBadgeQuery(
  query: URLSearchParams,
  lookup: {
    states: () => BadgeStates | null;
    latency: () => ResponseTimes | null;
    uptime: () => ServerUptime | null;
    owner?: () => OwnerView | null;
  },
): BadgeLookup {
  const view = query.get("view");
  if (view === "owner") return ownerBadgeSpec(lookup.states(), lookup.owner?.() ?? null);
  if (view !== null && view !== "") return { ok: false, error: `unknown view "${view}"; use owner` };
  const metric = query.get("metric");
  if (metric === null || metric === "") return resolveBadge(lookup.states(), query.get("check"));
  if (metric === "latency") {
    const times = lookup.latency();
    return { ok: true, spec: latencyBadgeSpec(times), status: times ? 200 : 404 };
  }
  if (metric === "uptime") {
    const window = query.get("window") || DEFAULT_UPTIME_BADGE_WINDOW;
    if (!BadgeQuery.shape.window.safeParse(window).success)
      return { ok: false, error: `unknown window "${window}"; use one of ${Object.keys(UPTIME_BADGE_WINDOWS).join(", ")}` };
    const uptime = lookup.uptime();
    return { ok: true, spec: uptimeBadgeSpec(uptime, window), status: uptime ? 200 : 404 };
  }
  return { ok: false, error: `unknown metric "${metric}"; use one of ${BADGE_METRICS.join(", ")}` };
}

export type BadgeFormat = "svg" | "shields";

/** A badge request's whole answer: an SVG, or shields.io endpoint JSON; a bad query is a 400. */
export function badgeAnswer(result: BadgeLookup, format: BadgeFormat): TextAnswer {
  if (format === "svg") {
    if (!result.ok) return { status: 400, contentType: "text/plain; charset=utf-8", body: `${result.error}\n` };
    return { status: result.status, contentType: "image/svg+xml; charset=utf-8", body: badgeSvg(result.spec) };
  }
  if (!result.ok)
    return { status: 400, contentType: "application/json", body: JSON.stringify({ error: result.error } satisfies ApiShape<"BadgeError">) };
  return { status: result.status, contentType: "application/json", body: JSON.stringify(shieldsEndpoint(result.spec)) };
}

export function badgeResponse(answer: TextAnswer): Response {
  const headers: Record<string, string> = { "content-type": answer.contentType };
  if (answer.status !== 400) headers["cache-control"] = BADGE_CACHE_CONTROL;
  return new Response(answer.body, { status: answer.status, headers });
}

/** The part of a badge request's query its answer depends on (`resolveBadgeQuery` reads no other), in one
 * canonical form: equal answers, equal text. */
export function badgeQueryText(query: URLSearchParams): string {
  const view = query.get("view");
  if (view) return new URLSearchParams({ view }).toString();
  const metric = query.get("metric");
  if (metric === "uptime") return new URLSearchParams({ metric, window: query.get("window") || DEFAULT_UPTIME_BADGE_WINDOW }).toString();
  if (metric) return new URLSearchParams({ metric }).toString();
  const check = query.get("check");
  return check ? new URLSearchParams({ check }).toString() : "";
}
