// One day's cross-read: the fixed sample, read by the official client under the probe's politeness rules, each
// list compared with the probe's current complete read, outcomes stored for the day.
import type { Db } from "../../../db/client";
import type { AddressPolicy } from "../../probe/address-policy";
import type { DnsLookup } from "../../probe/transport/dns";
import type { ProbeLimits } from "../../probe/types";
import { createHostGate, type RoundHostGate } from "../host-gate";
import { createHostQueue } from "../host-queue";
import { hostOf } from "../hosts";
import { createRobotsBook, robotsDisallows } from "../robots";
import {
  crossReadCandidates,
  currentProbeRead,
  emptyCrossReadCounts,
  initializeFirstRefusal,
  probeDiscoveryVerdicts,
  replaceCrossReads,
  type CrossReadCounts,
  type CrossReadInput,
} from "../../store/cross-reads";
import { operatorOptOuts } from "../../store/optouts";
import { CROSS_READ_OUTCOMES } from "../../vocabulary/store";
import { compareToolLists, explainDifference, explainFailedRead, fixedSample } from "./compare";
import { crossReadServer } from "./reader";

export interface CrossReadDeps {
  db: Db;
  /** The UTC day the outcomes are stored under. */
  day: string;
  sample: number;
  policy: AddressPolicy;
  userAgent: string;
  /** A view of the site's host gate (architecture.md §2.5). Default: one on `db`, which paces each host together with the
   * rounds of every process on that database. */
  hostGate?: RoundHostGate;
  /** Consult robots.txt like the probe does. Default true. */
  robots?: boolean;
  /** Servers read at once (each on its own host). Default 4: the cross-reader is a side job. */
  concurrency?: number;
  limits?: Partial<ProbeLimits>;
  dnsLookup?: DnsLookup;
  now?: () => Date;
  log?: (line: string) => void;
}

export interface CrossReadSummary {
  day: string;
  sampled: number;
  /** Sampled servers left alone: their host opted out (operator list or robots.txt). */
  optedOut: number;
  counts: CrossReadCounts;
  durationMs: number;
}

export async function runCrossRead(deps: CrossReadDeps): Promise<CrossReadSummary> {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());
  const log = deps.log ?? ((l: string) => console.log(l));
  const t0 = performance.now();
  const sampled = fixedSample(crossReadCandidates(db), deps.sample);
  const isOptedOut = operatorOptOuts(db);
  const gate = deps.hostGate ?? createHostGate({ db, limitOf: () => 1 });
  const robots = createRobotsBook({ db, now, policy: deps.policy, userAgent: deps.userAgent, gate });
  const rows: CrossReadInput[] = [];
  let optedOut = 0;

  const queue = createHostQueue(sampled, { hostOf: (s) => hostOf(s.remoteUrl) ?? `#${s.id}`, limitOf: () => 1 });
  const worker = async () => {
    for (let taken = await queue.take(); taken; taken = await queue.take()) {
      const s = taken.item;
      try {
        let url: URL | null = null;
        try {
          url = new URL(s.remoteUrl);
        } catch {
          url = null;
        }
        if (url && (isOptedOut(url.host) || (deps.robots !== false && robotsDisallows(url.toString(), await robots.rowFor(url))))) {
          optedOut++;
          continue;
        }
        const cross = url
          ? await crossReadServer(
              { url: url.toString(), transport: s.transport },
              { policy: deps.policy, userAgent: deps.userAgent, hostGate: gate, limits: deps.limits, dnsLookup: deps.dnsLookup },
            )
          : ({ ok: false, error: "the listed URL is not a valid URL", requests: 0 } as const);
        const probe = currentProbeRead(db, s.id);
        const { outcome, paths } = compareToolLists(probe?.tools ?? null, cross.ok ? cross.tools : null);
        rows.push({
          serverId: s.id,
          outcome,
          paths,
          detail: cross.ok ? `read with ${cross.protocolVersion ?? "an unknown revision"}` : cross.error,
          crossToolCount: cross.ok ? cross.tools.length : null,
          probeToolCount: probe ? probe.tools.length : null,
          readAt: now().toISOString(),
          explanation:
            explainDifference(outcome, probeDiscoveryVerdicts(db, s.id)) ?? explainFailedRead(cross.ok, initializeFirstRefusal(db, s.id)),
        });
      } catch (e) {
        log(`[crossread] ${s.name}: not recorded: ${(e as Error).message}`);
      } finally {
        taken.done();
      }
    }
  };
  const n = Math.max(1, Math.min(deps.concurrency ?? 4, sampled.length || 1));
  await Promise.all(Array.from({ length: n }, worker));
  gate.settle();
  replaceCrossReads(db, deps.day, rows);

  const counts: CrossReadCounts = emptyCrossReadCounts();
  for (const r of rows) {
    counts[r.outcome]++;
    if (r.explanation) counts.explained++;
  }
  const durationMs = Math.round(performance.now() - t0);
  log(
    `[crossread] ${deps.day}: ${sampled.length} sampled, ${optedOut} opted out; ${CROSS_READ_OUTCOMES.map((o) => `${counts[o]} ${o}`).join(", ")} (${counts.explained} explained) in ${Math.round(durationMs / 1000)} s`,
  );
  return { day: deps.day, sampled: sampled.length, optedOut, counts, durationMs };
}
