import type { CertificateFacts } from "../probe/types";

// The certificate fact beside the checks (architecture.md §2.8): days left, and a warning under 14 days.

/** Fewer days left than this and the page warns. */
export const CERTIFICATE_WARN_DAYS = 14;

const DAY_MS = 86_400_000;

export interface CertificateView {
  issuer: string | null;
  subject: string | null;
  validTo: string | null;
  /** Whole days until it expires (negative once expired); null when the expiry is unknown. */
  daysLeft: number | null;
  /** Expired, or fewer than CERTIFICATE_WARN_DAYS days left. */
  warn: boolean;
  /** Why the probe did not accept it, when it did not. */
  rejected: string | null;
}

export function certificateView(c: CertificateFacts | null | undefined, now: Date): CertificateView | null {
  if (!c) return null;
  const to = c.validTo ? Date.parse(c.validTo) : NaN;
  const daysLeft = Number.isNaN(to) ? null : Math.floor((to - now.getTime()) / DAY_MS);
  return {
    issuer: c.issuer ?? null,
    subject: c.subject ?? null,
    validTo: c.validTo ?? null,
    daysLeft,
    warn: daysLeft !== null && daysLeft < CERTIFICATE_WARN_DAYS,
    rejected: c.rejected ?? null,
  };
}
