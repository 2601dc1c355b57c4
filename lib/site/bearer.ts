import { createHash, timingSafeEqual } from "node:crypto";

/** Whether an Authorization header is `Bearer <secret>`, compared in constant time (both sides hashed, so
 * neither content nor length leaks). */
export function bearerMatches(authorization: string | null | undefined, secret: string): boolean {
  const m = /^Bearer\s+(.+)$/i.exec((authorization ?? "").trim());
  const given = createHash("sha256")
    .update(m?.[1] ?? "")
    .digest();
  const want = createHash("sha256").update(secret).digest();
  return timingSafeEqual(given, want) && m !== null;
}
