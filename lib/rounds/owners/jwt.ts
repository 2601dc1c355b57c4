// architecture.md §11: a value that is a JWT, or `Bearer ` and a JWT, has its `exp` read to warn the owner 72 h ahead. The
// token is not ours to verify, so its signature is never checked: only the payload's `exp` is read.

const JWT = /^(?:bearer\s+)?([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]*)$/i;

/** The `exp` of a JWT value as a Date, or null when the value is not a JWT or carries no numeric `exp`. */
export function jwtExpiry(value: string): Date | null {
  const m = JWT.exec(value.trim());
  if (!m) return null;
  try {
    const header = JSON.parse(Buffer.from(m[1]!, "base64url").toString("utf8")) as unknown;
    const payload = JSON.parse(Buffer.from(m[2]!, "base64url").toString("utf8")) as { exp?: unknown } | null;
    if (!header || typeof header !== "object" || !payload || typeof payload !== "object") return null;
    const exp = payload.exp;
    if (typeof exp !== "number" || !Number.isFinite(exp) || exp <= 0 || exp > 1e11) return null;
    return new Date(exp * 1000);
  } catch {
    return null;
  }
}

/** How long before `exp` the owner is told. */
export const EXPIRY_WARNING_MS = 72 * 3_600_000;

/** True when the value's `exp` falls within the warning window (or has passed). */
export function expiresSoon(expiresAt: string | null, now: Date): boolean {
  return expiresAt !== null && Date.parse(expiresAt) - now.getTime() <= EXPIRY_WARNING_MS;
}
