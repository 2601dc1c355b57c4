import { createHash, timingSafeEqual } from "node:crypto";

export type BearerCheck = "ok" | "disabled" | "unauthorized";

/** Compares `Authorization: Bearer <token>` with the configured secret in constant time (both sides hashed,
 * so neither content nor length leaks). No secret configured → the route is disabled. */
export function checkBearer(request: Request, secret: string | undefined): BearerCheck {
  if (!secret) return "disabled";
  const header = request.headers.get("authorization") ?? "";
  const m = /^Bearer\s+(.+)$/i.exec(header.trim());
  const given = createHash("sha256").update(m?.[1] ?? "").digest();
  const want = createHash("sha256").update(secret).digest();
  return m && timingSafeEqual(given, want) ? "ok" : "unauthorized";
}

/** The JSON answer for a failed check; null when the request may proceed. */
export function authFailure(check: BearerCheck): Response | null {
  if (check === "disabled") {
    return Response.json(
      { error: "disabled", message: "Round triggering is disabled because CRON_SECRET is not configured." },
      { status: 403 },
    );
  }
  if (check === "unauthorized") {
    return Response.json(
      { error: "unauthorized", message: "Send Authorization: Bearer <CRON_SECRET>." },
      { status: 401, headers: { "www-authenticate": 'Bearer realm="mcp-status rounds"' } },
    );
  }
  return null;
}
