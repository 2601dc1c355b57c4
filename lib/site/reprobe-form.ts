import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { firstParam, type SearchParams } from "./query";

// The "probe again now" form carries a token the page signed for that server and time, so a post must
// come from a recently served page; the handler also refuses cross-site browser posts (Origin,
// Sec-Fetch-Site). Nothing here is a secret a visitor holds: the limits are what protects the probe.

export const FORM_KEY_META = "reprobe_form_key";
export const FORM_TOKEN_MAX_AGE_MS = 2 * 3_600_000;

export const newFormKey = () => randomBytes(32).toString("hex");

function mac(key: string, name: string, issued: number): string {
  return createHmac("sha256", key).update(`${issued}\n${name}`).digest("base64url");
}

export function issueFormToken(key: string, name: string, now: Date): string {
  const issued = Math.floor(now.getTime() / 1000);
  return `${issued}.${mac(key, name, issued)}`;
}

export function verifyFormToken(key: string, name: string, token: string, now: Date): boolean {
  const m = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!m) return false;
  const issued = Number(m[1]);
  const age = now.getTime() - issued * 1000;
  if (age < -60_000 || age > FORM_TOKEN_MAX_AGE_MS) return false;
  const want = Buffer.from(mac(key, name, issued));
  const got = Buffer.from(m[2]!);
  return want.length === got.length && timingSafeEqual(want, got);
}

/** Whether a browser says the post came from another site. Requests without these headers (curl) pass here
 * and still need a valid token. `origins` are the site's own origins. */
export function crossSitePost(headers: Headers, origins: readonly string[]): string | null {
  const site = headers.get("sec-fetch-site");
  if (site !== null && site !== "same-origin") return `Sec-Fetch-Site is ${site}`;
  const origin = headers.get("origin");
  if (origin !== null && !origins.includes(origin)) return `Origin ${origin} is not this site`;
  return null;
}

/** The refusals a server page shows from its form's redirect (?reprobe=…&retry=…); "queued" shows the stored
 * request instead, and anything else nothing. */
export const REPROBE_FLASH_OUTCOMES = ["server_recent", "global_cap", "left_registry", "form_expired"] as const;

export interface ReprobeFlash {
  outcome: (typeof REPROBE_FLASH_OUTCOMES)[number];
  /** When a refused request may be sent again (ISO), if the refusal said. */
  retryAt: string | null;
}

/** The feedback a server page shows, read from its query; what it does not show is left out, so equal
 * feedback has one form (`reprobeFlashQuery`). */
export function parseReprobeFlash(sp: SearchParams): ReprobeFlash | null {
  const outcome = REPROBE_FLASH_OUTCOMES.find((o) => o === firstParam(sp, "reprobe"));
  if (!outcome) return null;
  const retry = Date.parse(firstParam(sp, "retry") ?? "");
  return { outcome, retryAt: Number.isNaN(retry) ? null : new Date(retry).toISOString() };
}

/** The canonical query text of a page's feedback ("" for none). */
export function reprobeFlashQuery(flash: ReprobeFlash | null): string {
  if (!flash) return "";
  const q = new URLSearchParams({ reprobe: flash.outcome });
  if (flash.retryAt) q.set("retry", flash.retryAt);
  return q.toString();
}
