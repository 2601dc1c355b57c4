// The owner's view (architecture.md §11): when the anonymous read of a server ends at the key or the gate, the same round
// probes it once more with the owner's configuration, sent to the probed remote's origin only (the probe's ownerHeaders),
// and stores that probe redacted, with its own five checks and uptime. The public run, state, badge and census are untouched.
import type { Db } from "../../../db/client";
import { configRefusal, judge } from "../../checks";
import type { CheckResult } from "../../checks/types";
import { probeServer, redactObservation, redactValues, type ProbeOptions } from "../../probe";
import type { Exchange, HandshakeOutcome, ProbeObservation, ProbeTarget } from "../../probe/types";
import {
  claimOrigin,
  enqueueOwnerEvent,
  insertOwnerRun,
  latestOwnerRunOf,
  ownerClaimFor,
  secretsOf,
  type OwnerRunInput,
} from "../../store/owners";
import { secretAad, unseal, type SecretsKeys } from "../../store/secrets";
import { DISCOVERY_CHECKS } from "../../vocabulary/checks";
import type { UrlVariables } from "../../probe/protocol";
import { tellExpiring } from "./configure";
import { fillTemplate, rebuildRedacted, redactFilled, type Filled } from "./variables";

/** One server's owner configuration, opened for a probe (headers, URL variables, and the origin the claim proved); or the
 * names alone when this site's key cannot open it. Variable names are shown as `{name}`. */
export type OwnerConfig =
  | { claimId: number; origin: string; headers: Record<string, string>; variables: Record<string, string>; names: string[] }
  | { claimId: number; unreadable: true; names: string[] };

/** What the round asks of the owners' feature for each server whose anonymous read ended at the key or the gate. */
export interface OwnerStep {
  configFor(serverId: number): OwnerConfig | null;
  /** The outcome of the claim's previous owner's-view run, to tell the owner once when its values start being refused. */
  previousOutcome(claimId: number): string | null;
}

/** The round's owner step; undefined without SECRETS_KEY (the owner features are off). */
export function createOwnerStep(db: Db, keys: SecretsKeys | undefined): OwnerStep | undefined {
  if (!keys) return undefined;
  return {
    configFor(serverId) {
      const claimId = ownerClaimFor(db, serverId);
      if (claimId === null) return null;
      const headers: Record<string, string> = {};
      const variables: Record<string, string> = {};
      const names: string[] = [];
      let unreadable = false;
      for (const s of secretsOf(db, claimId)) {
        names.push(s.kind === "variable" ? `{${s.name}}` : s.name);
        const plain = unseal(keys, s.sealed, secretAad(claimId, s.kind, s.name));
        if (plain === null) unreadable = true;
        else (s.kind === "variable" ? variables : headers)[s.name] = plain;
      }
      if (unreadable) return { claimId, unreadable: true, names };
      return { claimId, origin: claimOrigin(db, claimId) ?? "", headers, variables, names };
    },
    previousOutcome: (claimId) => latestOwnerRunOf(db, claimId)?.outcome ?? null,
  };
}

/** The anonymous read ended at the key (refused for want of the listed headers) or at a credential gate. */
export function wantsOwnerView(obs: ProbeObservation): boolean {
  if (obs.blocked || obs.slowDown) return false;
  return obs.handshake?.kind === "credential_gate" || obs.toolsList?.kind === "credential_gate" || configRefusal(obs) !== null;
}

/** What the round writes for the owner's view, in the run's own transaction. */
export interface OwnerWrite {
  run: OwnerRunInput;
  server: string;
  /** Set when the owner's values were refused and the previous owner's-view run was not: the owner is told once. */
  tellRefused?: string;
}

const DISCOVERY = DISCOVERY_CHECKS as readonly string[];

function lastSeq(hs: { seq?: number; seqs?: number[] }): number | undefined {
  return hs.seqs?.length ? hs.seqs[hs.seqs.length - 1] : hs.seq;
}

function statusAt(obs: ProbeObservation, seq: number | undefined): number | undefined {
  return seq === undefined ? undefined : obs.exchanges.find((x: Exchange) => x.seq === seq)?.status;
}

/** The 401 or 403 that refused the owner's values on the handshake or the tool list, or null. */
export function ownerRefusal(obs: ProbeObservation): { status: number; step: "handshake" | "tools_list" } | null {
  const hs = obs.handshake as (HandshakeOutcome & { seq?: number }) | undefined;
  const refusedStatus = (s: number | undefined) => (s === 401 || s === 403 ? s : null);
  if (hs?.kind === "credential_gate") return { status: hs.challenge.status, step: "handshake" };
  if (hs && (hs.kind === "refused_no_challenge" || hs.kind === "failed")) {
    const s = refusedStatus(statusAt(obs, lastSeq(hs)));
    if (s) return { status: s, step: "handshake" };
  }
  const t = obs.toolsList;
  if (t?.kind === "credential_gate") return { status: t.challenge.status, step: "tools_list" };
  if (t?.kind === "failed") {
    const s = refusedStatus(statusAt(obs, t.seqs[t.seqs.length - 1]));
    if (s) return { status: s, step: "tools_list" };
  }
  return null;
}

const namesOf = (names: readonly string[]) => names.map((n) => `\`${n}\``).join(", ");

/** Every check Not checked with one reason (the owner's trouble is never the server's Failed). */
function allNotChecked(results: CheckResult[], reason: string, cause: CheckResult["notCheckedCause"], from?: "tools_list"): CheckResult[] {
  return results.map((r) =>
    from === "tools_list" && (r.check === "handshake" || r.check === "protocol_version")
      ? r
      : { check: r.check, state: "not_checked", reason, evidence: DISCOVERY.includes(r.check) ? r.evidence : [], notCheckedCause: cause },
  );
}

function handshakeCompleted(obs: ProbeObservation): boolean {
  const k = obs.handshake?.kind;
  return k === "modern" || k === "legacy" || k === "sse" || k === "discovered_newer";
}

/** Probes a server once more with its owner's configuration; null when there is none to use, or the probe told nothing
 * (a slow-down, an opt-out: the anonymous read already says so). Never throws for anything a server does. */
export async function probeAsOwner(
  step: OwnerStep,
  server: { id: number; name: string },
  target: ProbeTarget,
  options: ProbeOptions,
  roundId: number | null,
  now: () => Date,
  filling?: { urlVariables: UrlVariables; allowed: (url: URL) => Promise<boolean> },
): Promise<OwnerWrite | null> {
  const config = step.configFor(server.id);
  if (!config || config.names.length === 0) return null;
  // A remote with no address without URL variables is probed only with all of them filled, on the claimed origin.
  let filled: Extract<Filled, { ok: true }> | null = null;
  if (filling && !("unreadable" in config)) {
    const f = fillTemplate(filling.urlVariables, config.variables, config.origin);
    if (!f.ok || !(await filling.allowed(new URL(f.url)))) return null;
    filled = f;
  }
  const shownUrl = filled ? filled.redacted : target.url;
  const base = { claimId: config.claimId, serverId: server.id, roundId };
  if ("unreadable" in config) {
    const reason = `The owner's configuration (${namesOf(config.names)}) cannot be read with this site's current SECRETS_KEY; it was not sent, and the owner's view stays unknown until the owner enters it again or the right key returns.`;
    const results = judge({ url: shownUrl, transport: target.transport, startedAt: "", finishedAt: "", era: "unknown", exchanges: [] });
    return {
      server: server.name,
      run: {
        ...base,
        at: now(),
        outcome: "unreadable",
        tools: null,
        results: allNotChecked(results, reason, "needs_configuration"),
        exchanges: null,
      },
    };
  }
  // Judged as a client with the key sees it: no registry header names, so a refusal is not read as "needs configuration".
  const secretValues = [...Object.values(config.headers), ...Object.values(config.variables)];
  const raw = await probeServer(
    { url: filled ? filled.url : target.url, transport: target.transport },
    { ...options, ownerHeaders: config.headers },
  );
  if (raw.blocked || raw.slowDown) return null;
  // Judged on what the server said, stored redacted: a value that is an ordinary word (a tenant called `tools`) must not
  // turn a verdict, and the reasons carry no value either.
  const obs = filled ? redactFilled(raw, filled, secretValues) : redactObservation(raw, secretValues);
  const hideText = (text: string) => redactValues(filled ? rebuildRedacted(text, filled.pairs) : text, secretValues);
  let results = judge(raw).map((r) => ({ ...r, reason: hideText(r.reason) }));
  const refused = ownerRefusal(raw);
  let outcome: OwnerRunInput["outcome"] = handshakeCompleted(raw) ? "up" : "down";
  let tellRefused: string | undefined;
  if (refused) {
    const reason = `Refused with HTTP ${refused.status} with the owner's configuration (${namesOf(config.names)}) on the ${refused.step === "handshake" ? "handshake" : "tool list"}; the owner is told, and this says nothing against the server.`;
    results = allNotChecked(results, reason, "credential_required", refused.step === "tools_list" ? "tools_list" : undefined);
    outcome = "refused";
    if (step.previousOutcome(config.claimId) !== "refused") tellRefused = reason;
  }
  const tools = raw.toolsList?.kind === "complete" ? raw.toolsList.tools.length : null;
  return {
    server: server.name,
    run: { ...base, at: now(), outcome, tools, results, exchanges: obs.exchanges },
    ...(tellRefused ? { tellRefused } : {}),
  };
}

/** Writes the owner's-view run and what the owner is told of it, in the caller's transaction (the server's run). */
export function applyOwnerWrite(db: Db, w: OwnerWrite): void {
  insertOwnerRun(db, w.run);
  if (w.tellRefused)
    enqueueOwnerEvent(db, w.run.claimId, "owner_configuration_refused", { reason: w.tellRefused, at: w.run.at.toISOString() }, w.run.at);
  tellExpiring(db, w.run.claimId, w.server, w.run.at);
}
