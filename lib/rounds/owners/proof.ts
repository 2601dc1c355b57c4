// The one fetch of an owner's proof file (architecture.md §11): `<origin of the probed remote>/.well-known/mcp-status-claim`,
// through the probe's address policy (DNS checked and pinned), the opt-outs (the operator's list, robots.txt) and the host
// gate, with no redirect followed: a redirect is refused with its target named.
import type { Db } from "../../../db/client";
import type { AddressPolicy } from "../../probe/address-policy";
import { HttpSession } from "../../probe/transport/http";
import { AddressRefusedError, resolveChecked, type DnsLookup } from "../../probe/transport/dns";
import { DEFAULT_LIMITS } from "../../probe/types";
import { operatorOptOuts } from "../../store/optouts";
import { CLAIM_PROOF_PATH } from "../../vocabulary/owners";
import { createHostGate, type RoundHostGate } from "../host-gate";
import { createRobotsBook, robotsDisallows, ROBOTS_DISALLOW_REASON } from "../robots";

export const PROOF_TIMEOUT_MS = 10_000;
export const PROOF_MAX_BYTES = 4 * 1024;

export interface ProofFetchDeps {
  db: Db;
  policy: AddressPolicy;
  userAgent: string;
  dnsLookup?: DnsLookup;
  /** The site's host gate view; a one-off gate on the database by default (shares slots with rounds in every process). */
  hostGate?: RoundHostGate;
  /** Consult robots.txt (default true). */
  robots?: boolean;
  now?: () => Date;
}

/** What the fetch found, as facts the answer and the page word. */
export type ProofFetch =
  | { kind: "found"; status: number; bytes: number }
  | { kind: "not_found"; status: number; bytes: number }
  | { kind: "mismatch"; status: number; bytes: number }
  | { kind: "redirected"; status: number; location: string | null }
  | { kind: "unreachable"; error: string }
  | { kind: "opted_out"; host: string; reason: string }
  | { kind: "address_not_allowed"; detail: string };

/** The proof URL on a remote's origin. */
export const proofUrl = (origin: string) => new URL(CLAIM_PROOF_PATH, origin).toString();

/** True when one line of the body, trimmed, is the proof: several owners may publish theirs in one file. */
export const bodyHasProof = (body: string, proof: string) => body.split(/\r?\n/).some((l) => l.trim() === proof);

export async function fetchProof(deps: ProofFetchDeps, origin: string, proof: string): Promise<ProofFetch> {
  const url = new URL(proofUrl(origin));
  const operator = operatorOptOuts(deps.db)(url.host);
  if (operator) return { kind: "opted_out", host: url.host, reason: operator };
  const gate = deps.hostGate ?? createHostGate({ db: deps.db, limitOf: () => 1 });
  try {
    try {
      await resolveChecked(url.hostname, deps.policy, deps.dnsLookup);
    } catch (e) {
      if (e instanceof AddressRefusedError) return { kind: "address_not_allowed", detail: e.message };
    }
    if (deps.robots !== false) {
      const robots = createRobotsBook({
        db: deps.db,
        now: deps.now ?? (() => new Date()),
        policy: deps.policy,
        userAgent: deps.userAgent,
        gate,
      });
      if (robotsDisallows(url.toString(), await robots.rowFor(url)))
        return { kind: "opted_out", host: url.host, reason: ROBOTS_DISALLOW_REASON };
    }
    const http = new HttpSession({
      policy: deps.policy,
      limits: {
        ...DEFAULT_LIMITS,
        connectTimeoutMs: PROOF_TIMEOUT_MS,
        headersTimeoutMs: PROOF_TIMEOUT_MS,
        bodyTimeoutMs: PROOF_TIMEOUT_MS,
        deadlineMs: PROOF_TIMEOUT_MS,
        maxBodyBytes: PROOF_MAX_BYTES,
      },
      userAgent: deps.userAgent,
      hostGate: gate,
      deadline: AbortSignal.timeout(PROOF_TIMEOUT_MS),
      exchanges: [],
      ...(deps.dnsLookup ? { dnsLookup: deps.dnsLookup } : {}),
    });
    try {
      const a = await http.send({ phase: "claim_proof", method: "GET", url: url.toString(), headers: { accept: "text/plain" } });
      if (a.status === undefined) return { kind: "unreachable", error: a.error ?? "no answer" };
      const bytes = a.exchange.bodyBytes ?? 0;
      if (a.status >= 300 && a.status < 400) return { kind: "redirected", status: a.status, location: a.headers["location"] ?? null };
      if (a.status < 200 || a.status >= 300) return { kind: "not_found", status: a.status, bytes };
      if (a.failure && a.failure !== "cap") return { kind: "unreachable", error: a.error ?? "the answer could not be read" };
      return bodyHasProof(a.text, proof) ? { kind: "found", status: a.status, bytes } : { kind: "mismatch", status: a.status, bytes };
    } finally {
      await http.close();
    }
  } finally {
    if (!deps.hostGate) gate.settle();
  }
}
