import { ClaimBody, ClaimForm, OwnerConfigurationBody, SubscribeBody, type ApiShape } from "@/lib/api/schemas";
import type { Lang } from "@/lib/site/labels";
import { claimErrorText, OWNER_TEXT } from "@/lib/site/owner-text";
import { claimPagePath, ownerPagePath, serverPath } from "@/lib/site/paths";
import { FORM_KEY_META, newFormKey, verifyFormToken } from "@/lib/site/reprobe-form";
import { metaOnce } from "@/lib/store/reprobe";
import { clientAddress } from "@/lib/mcp/rate-limit";
import { createClaim, ownerByToken, verifyClaim, type OwnerDeps, type OwnerRefusal } from "@/lib/rounds/owners/claims";
import { setConfiguration } from "@/lib/rounds/owners/configure";
import { subscribe, type SubscribeDeps } from "@/lib/rounds/notify/subscribe";
import { crossSitePost } from "@/lib/site/reprobe-form";
import { deleteSecrets, giveUpClaim, type ClaimRow } from "@/lib/store/owners";
import { requestReprobe, type ReprobeLimits } from "@/lib/store/reprobe";
import type { SecretsKeys } from "@/lib/store/secrets";
import type { ClaimError, ConfigurationError } from "@/lib/vocabulary/owners";
import { ownOrigins } from "./reprobe";
import { subscriptionJsonAnswer } from "./subscriptions";
import { refuseWhileUnwritable, unwritableAnswer } from "./unwritable";

// The owners' JSON API (architecture.md §11): claims, their verification, and what a manage token may do. Every answer is
// no-store; none carries a configured value. Posts another site's page sends are refused, as for every form of the site.

export type OwnerRouteDeps = OwnerDeps & { keys: SecretsKeys | undefined; publicBaseUrl?: string };

const noStore = { "cache-control": "no-store", "referrer-policy": "no-referrer" };

const CLAIM_STATUS: Record<ClaimError, number> = {
  proof_not_found: 422,
  proof_mismatch: 422,
  proof_redirected: 422,
  proof_unreachable: 422,
  opted_out: 422,
  address_not_allowed: 422,
  no_remote: 422,
  unknown_server: 404,
  unknown_claim: 404,
  claim_lapsed: 410,
  rate_limited: 429,
  owners_disabled: 503,
  variable_host: 422,
};

const CONFIG_STATUS: Record<ConfigurationError, number> = {
  invalid_configuration: 400,
  header_not_listed: 400,
  invalid_header_name: 400,
  invalid_value: 400,
  value_too_long: 400,
  unknown_owner: 404,
  rate_limited: 429,
  owners_disabled: 503,
  variable_not_listed: 400,
  variable_missing: 400,
};

function refusalAnswer(r: OwnerRefusal): Response {
  const headers: Record<string, string> = { ...noStore, ...(r.retryAfterS !== undefined ? { "retry-after": String(r.retryAfterS) } : {}) };
  const body = { error: r.error, message: r.message, ...(r.fetched ? { fetched: r.fetched } : {}) } satisfies ApiShape<"ClaimError">;
  return Response.json(body, { status: CLAIM_STATUS[r.error], headers });
}

function configError(error: ConfigurationError, message: string, retryAfterS?: number): Response {
  const headers: Record<string, string> = { ...noStore, ...(retryAfterS !== undefined ? { "retry-after": String(retryAfterS) } : {}) };
  return Response.json({ error, message } satisfies ApiShape<"ConfigurationErrorAnswer">, { status: CONFIG_STATUS[error], headers });
}

/** Cross-site posts and a database that cannot be written are refused before anything else. */
function refuseEarly(request: Request, deps: OwnerRouteDeps): Response | null {
  const cross = crossSitePost(request.headers, ownOrigins(request, deps.publicBaseUrl));
  if (cross)
    return Response.json(
      { error: "cross_site", message: `Refused: only this site's own pages may post here (${cross}).` } satisfies ApiShape<"ErrorAnswer">,
      { status: 403, headers: noStore },
    );
  return refuseWhileUnwritable(deps.db);
}

async function guarded(deps: OwnerRouteDeps, fn: () => Promise<Response> | Response): Promise<Response> {
  try {
    return await fn();
  } catch (e) {
    const unwritable = unwritableAnswer(deps.db, e);
    if (unwritable) return unwritable;
    throw e;
  }
}

async function jsonBody(request: Request): Promise<unknown> {
  const text = await request.text();
  if (text.trim() === "") return {};
  return JSON.parse(text) as unknown;
}

/** A small no-store page for a form post that could not go on (the server page's claim button). */
function formRefusal(lang: Lang, server: string, text: string, status: number): Response {
  const esc = (v: string) => v.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  const back = `${lang === "zh" ? "/zh" : ""}${serverPath(server)}`;
  const html = `<!doctype html><html lang="${lang === "zh" ? "zh-Hans" : "en"}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${esc(OWNER_TEXT[lang].claimTitle)}</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 44rem; margin: 2rem auto; padding: 0 1rem; line-height: 1.5"><main>
<h1>${esc(OWNER_TEXT[lang].claimTitle)}</h1><p role="status">${esc(text)}</p><p><a href="${esc(back)}">${esc(OWNER_TEXT[lang].back)}</a></p></main></body></html>`;
  return new Response(html, { status, headers: { ...noStore, "content-type": "text/html; charset=utf-8" } });
}

/** The manage page's webhook sign-up: the one answer that carries its signing secret (the JSON API's 201 `secret`), shown once and
 * never put in a link or on the manage page. same-origin, so the back link's page can post its own forms. */
export function ownerSecretPage(lang: Lang, server: string, secret: string, manageToken: string): Response {
  const t = OWNER_TEXT[lang];
  const esc = (v: string) => v.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  const html = `<!doctype html><html lang="${lang === "zh" ? "zh-Hans" : "en"}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${esc(t.secretTitle)}</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 44rem; margin: 2rem auto; padding: 0 1rem; line-height: 1.5"><main>
<h1>${esc(t.secretTitle)}</h1><p role="status">${esc(t.secretSubscribed(server))}</p>
<p>${esc(t.secretShown)}</p><pre id="secret" style="white-space: pre-wrap; overflow-wrap: anywhere">${esc(secret)}</pre>
<p>${esc(t.secretSigned)} ${esc(t.secretGone)}</p>
<p><a href="${esc(ownerPagePath(manageToken))}">${esc(t.backToManage)}</a></p></main></body></html>`;
  return new Response(html, {
    status: 201,
    headers: { "cache-control": "no-store", "referrer-policy": "same-origin", "content-type": "text/html; charset=utf-8" },
  });
}

/** The server page's "Claim this listing" form: checked like every form of the site, then 303 to the claim page. */
async function claimForm(request: Request, server: string, deps: OwnerRouteDeps): Promise<Response> {
  let fields: FormData;
  try {
    fields = await request.formData();
  } catch {
    return new Response("Send the form as a form post.\n", { status: 400, headers: noStore });
  }
  const form = ClaimForm.safeParse(Object.fromEntries(fields));
  if (!form.success) return new Response("Send the form fields token and lang.\n", { status: 400, headers: noStore });
  const lang: Lang = form.data.lang ?? "en";
  if (!verifyFormToken(metaOnce(deps.db, FORM_KEY_META, newFormKey), server, form.data.token, new Date()))
    return formRefusal(
      lang,
      server,
      lang === "zh" ? "表单已过期，请重新加载服务端页面。" : "The form expired; reload the server page and try again.",
      400,
    );
  const a = createClaim(deps, { server, client: clientAddress(request.headers), lang });
  if (!a.ok) return formRefusal(lang, server, claimErrorText(lang, a.error, null), CLAIM_STATUS[a.error]);
  return new Response(null, { status: 303, headers: { ...noStore, location: claimPagePath(a.claim) } });
}

/** POST /api/servers/<name>/claims → 201 {claim, proof: {url, body}}; the server page's form gets a 303 to the claim page. */
export function postClaim(request: Request, server: string, deps: OwnerRouteDeps): Promise<Response> {
  return guarded(deps, async () => {
    const early = refuseEarly(request, deps);
    if (early) return early;
    if ((request.headers.get("content-type") ?? "").toLowerCase().startsWith("application/x-www-form-urlencoded"))
      return claimForm(request, server, deps);
    let body: unknown;
    try {
      body = await jsonBody(request);
    } catch {
      return Response.json({ error: "bad_request", message: "Send JSON, or nothing." } satisfies ApiShape<"ErrorAnswer">, { status: 400 });
    }
    const parsed = ClaimBody.safeParse(body);
    if (!parsed.success)
      return Response.json(
        { error: "bad_request", message: "The body may only carry lang (en or zh)." } satisfies ApiShape<"ErrorAnswer">,
        {
          status: 400,
        },
      );
    const a = createClaim(deps, { server, client: clientAddress(request.headers), lang: parsed.data.lang ?? "en" });
    if (!a.ok) return refusalAnswer(a);
    return Response.json({ claim: a.claim, proof: a.proof } satisfies ApiShape<"ClaimCreated">, { status: 201, headers: noStore });
  });
}

/** POST /api/claims/<claim>/verify → 200 {manage} or 422 {error, message, fetched}. */
export function postVerify(request: Request, claim: string, deps: OwnerRouteDeps): Promise<Response> {
  return guarded(deps, async () => {
    const early = refuseEarly(request, deps);
    if (early) return early;
    const a = await verifyClaim(deps, { claim, client: clientAddress(request.headers) });
    if (!a.ok) return refusalAnswer(a);
    return Response.json({ manage: a.manage } satisfies ApiShape<"ClaimVerified">, { headers: noStore });
  });
}

/** The owner a manage token names, or the answer that refuses it. */
function owner(request: Request, token: string, deps: OwnerRouteDeps): ClaimRow | Response {
  if (!deps.enabled) return refusalAnswer({ ok: false, error: "owners_disabled", message: "Owner features are off on this site." });
  const o = ownerByToken(deps, token, clientAddress(request.headers));
  if ("ok" in o) return o.error === "unknown_claim" ? configError("unknown_owner", o.message) : refusalAnswer(o);
  return o;
}

/** PUT /api/owners/<token>/configuration → 204; DELETE → 204. Nothing secret is answered back. */
export function putConfiguration(request: Request, token: string, deps: OwnerRouteDeps): Promise<Response> {
  return guarded(deps, async () => {
    const early = refuseEarly(request, deps);
    if (early) return early;
    const claim = owner(request, token, deps);
    if (claim instanceof Response) return claim;
    if (!deps.keys) return configError("owners_disabled", "Owner features are off on this site.");
    let body: unknown;
    try {
      body = await jsonBody(request);
    } catch {
      return configError("invalid_configuration", "Send a JSON object {headers: {name: value}, variables?: {name: value}}.");
    }
    const parsed = OwnerConfigurationBody.safeParse(body);
    if (!parsed.success)
      return configError(
        "invalid_configuration",
        "Send a JSON object {headers: {name: value}, variables?: {name: value}}, values as strings.",
      );
    const a = setConfiguration(deps.db, deps.keys, claim, parsed.data, (deps.now ?? (() => new Date()))());
    if (!a.ok) return configError(a.error, a.message);
    const vars = Object.keys(parsed.data.variables ?? {}).length;
    deps.log?.(
      `[owners] claim ${claim.id} on ${claim.server}: configuration set (${Object.keys(parsed.data.headers).length} header(s)${vars ? `, ${vars} URL variable(s)` : ""})`,
    );
    return new Response(null, { status: 204, headers: noStore });
  });
}

export function deleteConfiguration(request: Request, token: string, deps: OwnerRouteDeps): Promise<Response> {
  return guarded(deps, () => {
    const early = refuseEarly(request, deps);
    if (early) return early;
    const claim = owner(request, token, deps);
    if (claim instanceof Response) return claim;
    deleteSecrets(deps.db, claim.id);
    return new Response(null, { status: 204, headers: noStore });
  });
}

/** DELETE /api/owners/<token>: gives the claim up (its configuration and owner subscriptions with it) → 204. */
export function deleteClaim(request: Request, token: string, deps: OwnerRouteDeps): Promise<Response> {
  return guarded(deps, () => {
    const early = refuseEarly(request, deps);
    if (early) return early;
    const claim = owner(request, token, deps);
    if (claim instanceof Response) return claim;
    giveUpClaim(deps.db, claim.id, (deps.now ?? (() => new Date()))());
    return new Response(null, { status: 204, headers: noStore });
  });
}

/** POST /api/owners/<token>/subscriptions: §9's body; the subscription also gets the owner events. */
export function postOwnerSubscription(
  request: Request,
  token: string,
  deps: OwnerRouteDeps & { subscribe: Omit<SubscribeDeps, "db"> },
): Promise<Response> {
  return guarded(deps, async () => {
    const early = refuseEarly(request, deps);
    if (early) return early;
    const claim = owner(request, token, deps);
    if (claim instanceof Response) return claim;
    let body: unknown;
    try {
      body = await jsonBody(request);
    } catch {
      body = null;
    }
    const parsed = SubscribeBody.safeParse(body);
    if (!parsed.success)
      return Response.json(
        { error: "invalid_address", message: "Send a JSON object with email or webhook." },
        { status: 400, headers: noStore },
      );
    const a = await subscribe(
      { ...deps.subscribe, db: deps.db },
      {
        server: claim.server,
        ...parsed.data,
        client: clientAddress(request.headers),
        lang: claim.lang === "zh" ? "zh" : "en",
        claimId: claim.id,
      },
    );
    return subscriptionJsonAnswer(a);
  });
}

/** POST /api/owners/<token>/probe: a probe now, within the same limits as "Probe again now" → 202, or 429. */
export function postOwnerProbe(
  request: Request,
  token: string,
  deps: OwnerRouteDeps & { limits: ReprobeLimits; start: (serverId: number) => void },
): Promise<Response> {
  return guarded(deps, () => {
    const early = refuseEarly(request, deps);
    if (early) return early;
    const claim = owner(request, token, deps);
    if (claim instanceof Response) return claim;
    const a = requestReprobe(deps.db, claim.server, (deps.now ?? (() => new Date()))(), deps.limits);
    if (!a.queued) {
      const retry = "retryAt" in a && a.retryAt ? Math.max(1, Math.ceil((Date.parse(a.retryAt) - Date.now()) / 1000)) : undefined;
      return Response.json(
        { error: a.refusal, message: "A probe of this server was asked for recently; try again later." },
        {
          status: a.refusal === "unknown_server" ? 404 : 429,
          headers: { ...noStore, ...(retry ? { "retry-after": String(retry) } : {}) },
        },
      );
    }
    deps.start(a.serverId);
    return Response.json({ status: "queued" }, { status: 202, headers: noStore });
  });
}
