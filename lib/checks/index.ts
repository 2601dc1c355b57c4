import type { CertificateFacts, Exchange, ProbeObservation } from "../probe/types";
import { judgeAuthMetadata, judgeErrorTaxonomy, judgeHandshake, judgeProtocolVersion, judgeToolsList } from "./judges";
import { diagnose, hintSentence } from "./hints";
import { refusalCode } from "./refusal";
import { reachOf, withReach, type ReachRefusal } from "./reach";
import type { CheckResult } from "./types";
import { SUITE_VERSION, type Era } from "../probe/protocol";
import { CHECK_IDS, type CheckId, type CheckState, type Reach } from "../vocabulary/checks";
import { observe, type ObservationFacts } from "./observations";
import { withSentence, type Observation } from "./observation-text";
import { clientsReport, judgeClients, type ClientsReport } from "./clients";

export { judgeAuthMetadata, judgeErrorTaxonomy, judgeHandshake, judgeProtocolVersion, judgeToolsList } from "./judges";
export type { CheckResult } from "./types";
export { hintSentence, type Hint } from "./hints";
export { overallOf, overallState, type Overall, type OverallInput } from "./overall";
export { observe, type ObservationFacts } from "./observations";
export { configRefusal, reachOf, type ReachFacts, type ReachRefusal } from "./reach";
export { observationSentence, withSentence, type Observation } from "./observation-text";

/** The five verdicts, in CHECK_IDS order. Pure: the same observation always gives the same results. */
export function judge(obs: ProbeObservation): CheckResult[] {
  const byId: Record<CheckId, (o: ProbeObservation) => CheckResult> = {
    handshake: judgeHandshake,
    protocol_version: judgeProtocolVersion,
    tools_list: judgeToolsList,
    error_taxonomy: (o) => ({ ...judgeErrorTaxonomy(o), code: refusalCode(o) }),
    auth_metadata: judgeAuthMetadata,
  };
  return withReach(
    obs,
    CHECK_IDS.map((id) => withHint(obs, byId[id](obs))),
  );
}

/** Adds the hint the verdict's evidence matches (architecture.md §2.8), and the exchanges it rests on. */
function withHint(obs: ProbeObservation, r: CheckResult): CheckResult {
  const d = diagnose(obs, r);
  if (!d) return r;
  return { ...r, hint: d.hint, evidence: [...new Set([...r.evidence, ...d.evidence])].sort((a, b) => a - b) };
}

/** The server's `instructions`, from whichever handshake completed. */
export function instructionsOf(obs: ProbeObservation): string | undefined {
  const hs = obs.handshake;
  return hs && "instructions" in hs ? hs.instructions : undefined;
}

/** architecture.md §2.9: the observations on a complete read's tool list and the server's instructions; none otherwise. */
export function observationsOf(obs: ProbeObservation): ObservationFacts[] {
  if (obs.blocked || obs.toolsList?.kind !== "complete") return [];
  return observe({ tools: obs.toolsList.tools, instructions: instructionsOf(obs) });
}

/** The report the CLI prints and the JSON link targets serve (architecture.md §4). */
export interface ProbeReport {
  url: string;
  suite: string;
  era: Era;
  protocolVersion: string | null;
  checks: Record<CheckId, { state: CheckState; reason: string; hint?: string }>;
  /** architecture.md §2.10: which kinds of client can connect; a fact beside the checks. */
  clients: ClientsReport;
  /** architecture.md §2.6 (0.15.0): the headers the probe was told are required (never sent) and what it found without them. */
  configuration: ProbeConfiguration;
  exchanges: Exchange[];
  /** The TLS certificate of an https server, as presented (architecture.md §2.8). */
  certificate?: CertificateFacts;
  /** architecture.md §2.9: facts about the tool definitions of a complete read; they move no state. */
  observations: Observation[];
}

/** The revision both sides agreed, or null when none was. */
export function agreedRevision(obs: ProbeObservation): string | null {
  const hs = obs.handshake;
  if (hs?.kind === "modern") return hs.protocolVersion;
  if ((hs?.kind === "legacy" || hs?.kind === "sse") && hs.common) return hs.protocolVersion;
  return null;
}

/** The report's `configuration`, the same shape as the site's (`needed`, `headers`, `reach`, `refusal`). */
export interface ProbeConfiguration {
  needed: boolean;
  headers: string[];
  /** null when this probe could not tell (a slow-down, an opt-out). */
  reach: Reach | null;
  refusal?: ReachRefusal;
}

export function probeConfiguration(obs: ProbeObservation): ProbeConfiguration {
  const headers = obs.configHeaders ?? [];
  const facts = reachOf(obs);
  return {
    needed: headers.length > 0 || obs.blocked?.kind === "needs_config",
    headers,
    reach: facts?.reach ?? null,
    ...(facts?.refusal ? { refusal: facts.refusal } : {}),
  };
}

export function buildReport(obs: ProbeObservation, results: readonly CheckResult[]): ProbeReport {
  const checks = Object.fromEntries(
    results.map((r) => [r.check, { state: r.state, reason: r.reason, ...(r.hint ? { hint: hintSentence(r.hint) } : {}) }]),
  ) as ProbeReport["checks"];
  return {
    url: obs.url,
    suite: SUITE_VERSION,
    era: obs.era,
    protocolVersion: agreedRevision(obs),
    checks,
    clients: clientsReport(judgeClients(obs)),
    configuration: probeConfiguration(obs),
    exchanges: obs.exchanges,
    ...(obs.certificate ? { certificate: obs.certificate } : {}),
    observations: observationsOf(obs).map(withSentence),
  };
}
