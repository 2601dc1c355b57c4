import type { ApiShape } from "@/lib/api/schemas";
import { bearerMatches } from "@/lib/site/bearer";

export type BearerCheck = "ok" | "disabled" | "unauthorized";

/** Compares `Authorization: Bearer <token>` with the configured secret in constant time. No secret
 * configured → the route is disabled. */
export function checkBearer(request: Request, secret: string | undefined): BearerCheck {
  if (!secret) return "disabled";
  return bearerMatches(request.headers.get("authorization"), secret) ? "ok" : "unauthorized";
}

/** The JSON answer for a failed check; null when the request may proceed. */
export function authFailure(check: BearerCheck): Response | null {
  if (check === "disabled") {
    return Response.json(
      {
        error: "disabled",
        message: "Round triggering is disabled because CRON_SECRET is not configured.",
      } satisfies ApiShape<"ErrorAnswer">,
      { status: 403 },
    );
  }
  if (check === "unauthorized") {
    return Response.json(
      { error: "unauthorized", message: "Send Authorization: Bearer <CRON_SECRET>." } satisfies ApiShape<"ErrorAnswer">,
      { status: 401, headers: { "www-authenticate": 'Bearer realm="mcp-status rounds"' } },
    );
  }
  return null;
}
