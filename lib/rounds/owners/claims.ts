// Claims (architecture.md §11): anyone asks for one on a listed server and gets a secret claim token and a proof to publish at
// the probed remote's origin; verifying fetches it once (proof.ts) and answers what it found; a verified claim's proof is
// fetched again every 7 days, and a claim whose proof was gone twice in a row lapses with its configuration.
import type { Db } from "../../../db/client";
import type { AddressPolicy } from "../../probe/address-policy";
import type { DnsLookup } from "../../probe/transport/dns";
import {
  attemptsWithin,
  claimByManageToken,
  claimByToken,
  countAttempt,
  dueRechecks,
  insertClaim,
  markVerified,
  newProof,
  ownerTarget,
  recordRecheck,
  type ClaimRow,
} from "../../store/owners";
import { operatorOptOuts } from "../../store/optouts";
import type { ClaimError } from "../../vocabulary/owners";
import type { RoundHostGate } from "../host-gate";
import { fetchProof, proofUrl, type ProofFetch } from "./proof";
import { hostIsVariable } from "./variables";

export const RECHECK_EVERY_MS = 7 * 86_400_000;

export interface OwnerDeps {
  db: Db;
  policy: AddressPolicy;
  /** The User-Agent of the proof fetch (the probe's). */
  userAgent: string;
  /** The site's origin, for the manage link. */
  siteUrl: string;
  /** False without SECRETS_KEY: the owner features are off. */
  enabled: boolean;
  dnsLookup?: DnsLookup;
  hostGate?: RoundHostGate;
  robots?: boolean;
  now?: () => Date;
  log?: (line: string) => void;
  /** Claims one client address may make in an hour (default 10). */
  claimHourlyCap?: number;
  /** Tokens naming nothing one client address may send in an hour before every token route answers 429 (default 20). */
  guessHourlyCap?: number;
}

export type OwnerRefusal = {
  ok: false;
  error: ClaimError;
  message: string;
  retryAfterS?: number;
  fetched?: { status: number | null; bytes: number };
};

const refuse = (error: ClaimError, message: string, extra: Partial<OwnerRefusal> = {}): OwnerRefusal => ({
  ok: false,
  error,
  message,
  ...extra,
});

export const DISABLED_MESSAGE = "Owner features are off on this site: it has no SECRETS_KEY to keep owners' values with.";

export const managePath = (token: string) => `/owners/${token}`;

const retryAfter = (retryAt: string | null, now: Date) =>
  retryAt ? Math.max(1, Math.ceil((Date.parse(retryAt) - now.getTime()) / 1000)) : 3600;

/** Refuses a client that sent too many tokens naming nothing this hour (the limit on guessing claim and manage tokens). */
export function guessLimited(deps: OwnerDeps, client: string | null): OwnerRefusal | null {
  const now = (deps.now ?? (() => new Date()))();
  const cap = deps.guessHourlyCap ?? 20;
  const seen = attemptsWithin(deps.db, { scope: "token_guess", client: client ?? "unknown", now, limit: cap });
  if (seen.count < cap) return null;
  return refuse("rate_limited", `Too many links that name nothing came from this address; try again later.`, {
    retryAfterS: retryAfter(seen.retryAt, now),
  });
}

/** Counts a token that named nothing. */
export function countGuess(deps: OwnerDeps, client: string | null): void {
  countAttempt(deps.db, { scope: "token_guess", client: client ?? "unknown", now: (deps.now ?? (() => new Date()))() });
}

export type ClaimAnswer = { ok: true; claim: string; proof: { url: string; body: string } } | OwnerRefusal;

/** POST /api/servers/<name>/claims: a new pending claim on the server's probed remote. */
export function createClaim(deps: OwnerDeps, req: { server: string; client: string | null; lang: string }): ClaimAnswer {
  const now = (deps.now ?? (() => new Date()))();
  if (!deps.enabled) return refuse("owners_disabled", DISABLED_MESSAGE);
  const target = ownerTarget(deps.db, req.server);
  if (!target) return refuse("unknown_server", "No server by that registry name.");
  // An origin taken from an owner's values would let whoever holds one tenant's host own the listing: refused.
  if (target.remoteUrl && hostIsVariable(target.remoteUrl))
    return refuse(
      "variable_host",
      "The host of this server's URL is a URL variable, so there is no one origin to publish a proof on and this listing cannot be claimed.",
    );
  let origin: string;
  try {
    origin = new URL(target.remoteUrl ?? "").origin;
    if (origin === "null") throw new Error("opaque");
  } catch {
    return refuse("no_remote", "This server has no remote the site probes, so there is no origin to publish a proof on.");
  }
  const host = new URL(origin).host;
  const optedOut = operatorOptOuts(deps.db)(host);
  if (optedOut)
    return refuse("opted_out", `${host} asked not to be probed (${optedOut}), so the site sends it nothing, not even a proof check.`);
  const cap = deps.claimHourlyCap ?? 10;
  const seen = attemptsWithin(deps.db, { scope: "claim", client: req.client ?? "unknown", now, limit: cap });
  if (seen.count >= cap)
    return refuse("rate_limited", `At most ${cap} claims an hour come from one address; try again later.`, {
      retryAfterS: retryAfter(seen.retryAt, now),
    });
  countAttempt(deps.db, { scope: "claim", client: req.client ?? "unknown", now });
  const proof = newProof();
  const { token } = insertClaim(deps.db, { serverId: target.serverId, origin, proof, lang: req.lang === "zh" ? "zh" : "en", now });
  deps.log?.(`[owners] claim made on ${target.name}`);
  return { ok: true, claim: token, proof: { url: proofUrl(origin), body: proof } };
}

/** The answer's words for what the fetch found (never a value: the proof file is public). */
function proofRefusal(f: Exclude<ProofFetch, { kind: "found" }>, url: string): OwnerRefusal {
  switch (f.kind) {
    case "not_found":
      return refuse("proof_not_found", `${url} answered HTTP ${f.status}: publish the proof there, then verify again.`, {
        fetched: { status: f.status, bytes: f.bytes },
      });
    case "mismatch":
      return refuse("proof_mismatch", `${url} answered HTTP ${f.status} with ${f.bytes} bytes, but no line of it is this claim's proof.`, {
        fetched: { status: f.status, bytes: f.bytes },
      });
    case "redirected":
      return refuse(
        "proof_redirected",
        `${url} answered HTTP ${f.status}, a redirect${f.location ? ` to ${f.location.slice(0, 200)}` : ""}; the site follows none, so the proof must be served at this URL itself.`,
        { fetched: { status: f.status, bytes: 0 } },
      );
    case "unreachable":
      return refuse("proof_unreachable", `${url} could not be fetched: ${f.error}.`, { fetched: { status: null, bytes: 0 } });
    case "opted_out":
      return refuse("opted_out", `${f.host} asked not to be probed (${f.reason}), so the site sends it nothing, not even a proof check.`);
    case "address_not_allowed":
      return refuse("address_not_allowed", `The proof's address is not one the site may fetch: ${f.detail}.`);
  }
}

export type VerifyAnswer = { ok: true; manage: string; server: string } | OwnerRefusal;

/** POST /api/claims/<claim>/verify: one fetch of the proof; a match verifies the claim and answers a manage link. */
export async function verifyClaim(deps: OwnerDeps, req: { claim: string; client: string | null }): Promise<VerifyAnswer> {
  const now = deps.now ?? (() => new Date());
  if (!deps.enabled) return refuse("owners_disabled", DISABLED_MESSAGE);
  const limited = guessLimited(deps, req.client);
  if (limited) return limited;
  const claim = claimByToken(deps.db, req.claim);
  if (!claim) {
    countGuess(deps, req.client);
    return refuse("unknown_claim", "No claim by this token.");
  }
  if (claim.state === "lapsed") return refuse("claim_lapsed", "This claim lapsed or was given up; make a new one.");
  const url = proofUrl(claim.origin);
  const f = await fetchProof(deps, claim.origin, claim.proof);
  if (f.kind !== "found") return proofRefusal(f, url);
  const token = markVerified(deps.db, claim.id, now(), new Date(now().getTime() + RECHECK_EVERY_MS));
  deps.log?.(`[owners] claim ${claim.id} on ${claim.server} verified`);
  return { ok: true, manage: `${deps.siteUrl.replace(/\/+$/, "")}${managePath(token)}`, server: claim.server };
}

/** The verified claim a manage token names, counting a token that names nothing as a guess. */
export function ownerByToken(deps: OwnerDeps, token: string, client: string | null): ClaimRow | OwnerRefusal {
  const limited = guessLimited(deps, client);
  if (limited) return limited;
  const claim = claimByManageToken(deps.db, token);
  if (claim) return claim;
  countGuess(deps, client);
  return refuse("unknown_claim", "No owner by this link: it was never made, or its claim lapsed or was given up.");
}

/** The weekly re-check of every verified claim due for it; returns how many lapsed. A fetch that gets no answer at all (the
 * site's own network, a timeout) counts as a miss too: the proof must be there when asked. */
export async function recheckClaims(deps: OwnerDeps, limit = 100): Promise<{ checked: number; lapsed: number }> {
  const now = deps.now ?? (() => new Date());
  let lapsed = 0;
  const due = dueRechecks(deps.db, now(), limit);
  for (const claim of due) {
    const f = await fetchProof(deps, claim.origin, claim.proof);
    const found = f.kind === "found";
    const next = new Date(now().getTime() + RECHECK_EVERY_MS);
    if (recordRecheck(deps.db, claim.id, found, now(), next) === "lapsed") {
      lapsed++;
      deps.log?.(`[owners] claim ${claim.id} on ${claim.server} lapsed: its proof was gone twice in a row`);
    }
  }
  return { checked: due.length, lapsed };
}

/** The claim a claim token names, for the claim page, counting a token that names nothing as a guess. */
export function claimForPage(deps: OwnerDeps, token: string, client: string | null): ClaimRow | OwnerRefusal {
  const limited = guessLimited(deps, client);
  if (limited) return limited;
  const claim = claimByToken(deps.db, token);
  if (claim) return claim;
  countGuess(deps, client);
  return refuse("unknown_claim", "No claim by this token.");
}
