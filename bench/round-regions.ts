// bench:round's distributed mode (architecture.md §8): the broker and one agent process per region for the round run
// through them, what the round's database says about the probes it sent, and the two rounds' states side by side.
import { CHECK_IDS, type CheckId, type CheckState } from "@/lib/vocabulary/checks";
import { RUN_ROLES, type RunRole } from "@/lib/vocabulary/regions";
import { SITE_USER, startAgent, startBroker } from "@/tests/fixtures/nats";
import { cpuSeconds } from "./common";

/** `--regions` / BENCH_REGIONS: a count ("3": a, b, c) or a list ("eu,us,ap"); unset, empty or "0": in-process only. */
export function benchRegions(value: string | undefined): string[] {
  const v = value?.trim() ?? "";
  if (v === "" || v === "0") return [];
  if (/^\d+$/.test(v)) {
    const n = Number(v);
    if (n > 26) throw new Error(`--regions ${v}: at most 26 regions`);
    return Array.from({ length: n }, (_, i) => String.fromCharCode(97 + i));
  }
  return v
    .split(",")
    .map((r) => r.trim())
    .filter(Boolean);
}

export interface BenchRegions {
  /** What the round's process gets, as the site would: NATS_URL, NATS_USER, NATS_PASSWORD, PROBE_REGIONS. */
  env: Record<string, string>;
  /** CPU seconds used so far by the agents together, and by the broker. */
  cpu(): { agents: number; broker: number };
  stop(): Promise<void>;
  /** SIGKILL to the agents and the broker at once, for a bench that must exit now (its time limit, a signal). */
  killNow(): void;
}

/** Debian's nats-server with the configuration `npm run nats-config` writes, and one `npm run agent` process per region
 * at `niceness`, each answering before this returns. */
export async function startBenchRegions(regions: string[], niceness: number): Promise<BenchRegions> {
  const broker = await startBroker(regions);
  const agents = regions.map((r) => startAgent(broker, r, { niceness }));
  const stop = async () => {
    await Promise.all(agents.map((a) => a.kill("SIGTERM")));
    await broker.stop();
  };
  try {
    await Promise.all(agents.map((a) => a.ready));
  } catch (e) {
    await stop();
    throw e;
  }
  return {
    env: { NATS_URL: broker.url, NATS_USER: SITE_USER, NATS_PASSWORD: broker.users[SITE_USER]!, PROBE_REGIONS: regions.join(",") },
    cpu: () => {
      const pid = broker.pid();
      return { agents: cpuSeconds(agents.map((a) => a.pid)), broker: pid ? cpuSeconds([pid]) : 0 };
    },
    stop,
    killNow: () => {
      for (const a of agents) a.child.kill("SIGKILL");
      const pid = broker.pid();
      if (pid) process.kill(pid, "SIGKILL");
    },
  };
}

/** Env that keeps a round in-process whatever the orchestrator's own environment holds. */
export const IN_PROCESS_ENV: Record<string, string> = { NATS_URL: "", PROBE_REGIONS: "", PROBE_LOCAL_REGION: "" };

export interface RunsTally {
  servers: number;
  runs: number;
  /** Runs per region and role: every run is one probe a region answered. */
  byRegion: Map<string, Record<RunRole, number>>;
}

/** The runs a fresh database holds after one round, per region and role. */
export function tallyRuns(client: { prepare(sql: string): { all(): unknown[]; get(): unknown } }): RunsTally {
  const rows = client.prepare("select region, role, count(*) as n from runs group by region, role order by region").all() as {
    region: string;
    role: RunRole;
    n: number;
  }[];
  const byRegion = new Map<string, Record<RunRole, number>>();
  for (const r of rows) {
    const per = byRegion.get(r.region) ?? (Object.fromEntries(RUN_ROLES.map((role) => [role, 0])) as Record<RunRole, number>);
    per[r.role] += r.n;
    byRegion.set(r.region, per);
  }
  const servers = (client.prepare("select count(*) as n from servers").get() as { n: number }).n;
  return { servers, runs: rows.reduce((a, r) => a + r.n, 0), byRegion };
}

interface States {
  name: string;
  states: Record<CheckId, CheckState | null>;
}

/** Every server's five states in both rounds: how many are identical, and the first differences as "name: check a → b". */
export function compareStates(reference: readonly States[], other: readonly States[], show = 10) {
  const others = new Map(other.map((r) => [r.name, r.states]));
  const differences: string[] = [];
  let equal = 0;
  for (const r of reference) {
    const o = others.get(r.name);
    const changed = CHECK_IDS.filter((c) => o?.[c] !== r.states[c]);
    if (changed.length === 0) equal++;
    else if (differences.length < show)
      differences.push(`${r.name}: ${changed.map((c) => `${c} ${r.states[c] ?? "none"} → ${o?.[c] ?? "none"}`).join(", ")}`);
  }
  return { equal, total: reference.length, differences, missing: reference.filter((r) => !others.has(r.name)).length };
}

/** The share of servers whose handshake or tool list failed: the ones a primary read sends to two other regions. */
export function failureShare(stored: readonly States[]): { failing: number; share: number } {
  const failing = stored.filter((r) => r.states.handshake === "failed" || r.states.tools_list === "failed").length;
  return { failing, share: stored.length ? failing / stored.length : 0 };
}
