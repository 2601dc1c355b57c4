// Seeds a site database with a registry-sized population and its history (bench:site).
import type { Db } from "@/db/client";
import { judge } from "@/lib/checks";
import type { CheckResult } from "@/lib/checks/types";
import { CHECK_IDS, type CheckId, type CheckState } from "@/lib/vocabulary/checks";
import { SUITE_VERSION } from "@/lib/probe/protocol";
import { stateColumn } from "@/lib/store/servers/row";
import { canonicalToolList, diffToolLists, hashToolList } from "@/lib/rounds/tool-history";
import { fmt } from "./common";
import { profileFor, rng, syntheticObservation, toolsFor, type Profile } from "./synthetic";

const DAY_MS = 86_400_000;

export function benchServerName(i: number): string {
  return `io.github.org${i % 4000}/server-${String(i).padStart(5, "0")}`;
}

// ---------------------------------------------------------------------------------------------
// Seeding: plain prepared statements on the drizzle handle's better-sqlite3 connection, in batches.

export interface SeedStats {
  servers: number;
  runs: number;
  transitions: number;
  snapshots: number;
  toolChanges: number;
  coverageRows: number;
  ms: number;
}

export function seedSiteDb(db: Db, end: Date, SERVERS: number, DAYS: number): SeedStats {
  const t0 = performance.now();
  const c = db.$client;
  c.pragma("synchronous = OFF");
  c.pragma("cache_size = -262144");
  const start = end.getTime() - DAYS * DAY_MS;
  const iso = (ms: number) => new Date(ms).toISOString();

  const insServer = c.prepare(
    `insert into servers (id, name, title, description, version, remote_url, transport, host, registry_status, first_seen_at, last_seen_at,
       left_registry_at, era, protocol_version, last_probed_at, last_success_at, ${CHECK_IDS.map((id) => stateColumn(id).name).join(", ")},
       next_due_at, consecutive_failures, unchanged_streak, schedule_reason, tool_count, current_tool_hash, registry_updated_at, last_run_id)
     values (@id, @name, @title, @description, '1.2.0', @url, 'streamable-http', @host, @status, @firstSeen, @lastSeen, @left, @era, @pv,
       @lastProbed, @lastSuccess, @s0, @s1, @s2, @s3, @s4, @nextDue, @failures, @streak, @scheduleReason, @toolCount, @toolHash, @firstSeen, @lastRun)`,
  );
  const insRun = c.prepare(
    `insert into runs (id, server_id, round_id, started_at, finished_at, duration_ms, suite_version, era, protocol_version, requests, requests_ok, read, exchanges, keep_evidence)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insResult = c.prepare(
    `insert into check_results (server_id, "check", state, reason, evidence, suite_version, run_id, decided_at, since) values (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insTransition = c.prepare(
    `insert into transitions (server_id, "check", from_state, to_state, reason, suite_version, run_id, at) values (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insSnapshot = c.prepare(
    `insert into tool_snapshots (id, server_id, hash, tools, tool_count, first_seen_at, last_seen_at) values (?, ?, ?, ?, ?, ?, ?)`,
  );
  const insChange = c.prepare(
    `insert into tool_changes (server_id, at, tool_name, kind, path, before, after, from_snapshot_id, to_snapshot_id) values (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insCoverage = c.prepare(`insert into coverage_servers (day, server_id, read) values (?, ?, ?)`);

  // Verdicts per (profile, tool count), produced by the real judges from a synthetic observation.
  const verdicts = new Map<string, { results: CheckResult[]; requests: number; ok: number; era: string; pv: string | null }>();
  const verdictFor = (i: number, profile: Profile, toolVersion: number) => {
    const count = toolsFor(i, toolVersion).length;
    const key = `${profile}:${count}`;
    let v = verdicts.get(key);
    if (!v) {
      const obs = syntheticObservation(i, profile, toolVersion, end);
      const hs = obs.handshake;
      v = {
        results: judge(obs),
        requests: obs.exchanges.length,
        ok: obs.exchanges.filter((e) => e.status !== undefined && e.status < 300).length,
        era: obs.era,
        pv: hs && (hs.kind === "modern" || hs.kind === "legacy") ? hs.protocolVersion : null,
      };
      verdicts.set(key, v);
    }
    return v;
  };

  const coverage = new Map<string, { attempted: number; read: number; requests: number; ok: number }>();
  const stats: SeedStats = { servers: 0, runs: 0, transitions: 0, snapshots: 0, toolChanges: 0, coverageRows: 0, ms: 0 };
  let runId = 0;
  let snapshotId = 0;
  const roundsPerDay = 288;

  const seedServer = (i: number) => {
    const r = rng(i + 1);
    const base = profileFor(i);
    const id = i + 1;
    const name = benchServerName(i);
    const left = i % 50 === 49 ? start + 20 * DAY_MS : null;
    const lastDay = left ? 20 : DAYS;
    let toolVersion = 0;
    type Current = Record<CheckId, { state: CheckState; since: number; runId: number; result: CheckResult }>;
    let current: Current | null = null;
    let currentHash: string | null = null;
    let currentSnapshot = 0;
    let currentTools: unknown[] = [];
    let hashedVersion = -1;
    let lastRun = 0;
    let lastRunAt = 0;
    let lastSuccess: number | null = null;
    let failures = 0;
    let streak = 0;
    let lastProfile: Profile = base;
    const pending: (() => void)[] = [];

    for (let d = 0; d < lastDay; d++) {
      let profile = base;
      if (d > 0 && r() < 0.02) profile = base === "failing" ? "modern" : r() < 0.7 ? "failing" : "risky";
      if (d > 0 && r() < 0.01) toolVersion++;
      const healthy = profile !== "failing" && profile !== "gated";
      const runsToday = healthy ? 4 : 1;
      const dayStart = start + d * DAY_MS;
      const v = verdictFor(i, profile, toolVersion);
      const read = v.results[0]!.state === "verified" && v.results[2]!.state === "verified";
      for (let k = 0; k < runsToday; k++) {
        const at = dayStart + k * (DAY_MS / runsToday) + (i % 3600) * 1000;
        const rid = ++runId;
        const changed: CheckResult[] = [];
        for (const res of v.results) {
          const before = current?.[res.check];
          if (!before || before.state !== res.state) changed.push(res);
        }
        const isLast = d === lastDay - 1 && k === runsToday - 1;
        const keep = changed.length > 0;
        const exchanges = keep || isLast ? JSON.stringify(syntheticObservation(i, profile, toolVersion, new Date(at)).exchanges) : null;
        const duration = 80 + ((i * 17 + k) % 700);
        const roundId = Math.floor((at - start) / (DAY_MS / roundsPerDay)) + 1;
        const fromStates = current;
        pending.push(() => {
          insRun.run(
            rid,
            id,
            roundId,
            iso(at),
            iso(at + duration),
            duration,
            SUITE_VERSION,
            v.era,
            v.pv,
            v.requests,
            v.ok,
            read ? 1 : 0,
            exchanges,
            keep ? 1 : 0,
          );
          for (const res of changed) {
            insTransition.run(id, res.check, fromStates?.[res.check]?.state ?? null, res.state, res.reason, SUITE_VERSION, rid, iso(at));
          }
        });
        stats.runs++;
        stats.transitions += changed.length;
        const next = { ...(current ?? {}) } as Current;
        for (const res of v.results) {
          const before = current?.[res.check];
          next[res.check] = { state: res.state, since: before && before.state === res.state ? before.since : at, runId: rid, result: res };
        }
        current = next;
        // Tool history: a verified list is a snapshot; a new hash is a change with field-path diffs.
        if (v.results[2]!.state === "verified" && hashedVersion !== toolVersion) {
          hashedVersion = toolVersion;
          const canon = canonicalToolList(toolsFor(i, toolVersion));
          const hash = hashToolList(canon);
          if (hash !== currentHash) {
            const sid = ++snapshotId;
            const prevSnapshot = currentSnapshot;
            const diff = currentHash ? diffToolLists(currentTools, canon) : [];
            const toolsJson = JSON.stringify(canon);
            pending.push(() => {
              insSnapshot.run(sid, id, hash, toolsJson, canon.length, iso(at), iso(at));
              for (const ch of diff)
                insChange.run(id, iso(at), ch.toolName, ch.kind, ch.path, ch.before, ch.after, prevSnapshot || null, sid);
            });
            stats.snapshots++;
            stats.toolChanges += diff.length;
            currentHash = hash;
            currentSnapshot = sid;
            currentTools = canon;
          }
        }
        if (read) lastSuccess = at;
        failures = v.results[0]!.state === "failed" ? failures + 1 : 0;
        streak = changed.length ? 0 : streak + 1;
        lastRun = rid;
        lastRunAt = at;
      }
      const dayKey = iso(dayStart).slice(0, 10);
      pending.push(() => insCoverage.run(dayKey, id, read ? 1 : 0));
      stats.coverageRows++;
      const cov = coverage.get(dayKey) ?? { attempted: 0, read: 0, requests: 0, ok: 0 };
      cov.attempted++;
      if (read) cov.read++;
      cov.requests += v.requests * runsToday;
      cov.ok += v.ok * runsToday;
      coverage.set(dayKey, cov);
      lastProfile = profile;
    }

    const final = current!;
    const healthyNow = lastProfile !== "failing" && lastProfile !== "gated";
    const vFinal = verdictFor(i, lastProfile, toolVersion);
    insServer.run({
      id,
      name,
      title: `Server ${i}`,
      description: `A remote MCP server for ${["issues", "invoices", "calendars", "documents"][i % 4]} (benchmark population ${i}).`,
      url: `https://mcp${i % 997}.example-host${i % 113}.com/s/${i}/mcp`,
      host: `mcp${i % 997}.example-host${i % 113}.com`,
      status: left ? "left" : "active",
      firstSeen: iso(start),
      lastSeen: iso(left ?? end.getTime()),
      left: left ? iso(left) : null,
      era: vFinal.era,
      pv: vFinal.pv,
      lastProbed: iso(lastRunAt),
      lastSuccess: lastSuccess ? iso(lastSuccess) : null,
      s0: final.handshake.state,
      s1: final.protocol_version.state,
      s2: final.tools_list.state,
      s3: final.error_taxonomy.state,
      s4: final.auth_metadata.state,
      nextDue: iso(lastRunAt + (healthyNow ? 6 * 3_600_000 : 24 * 3_600_000)),
      failures,
      streak,
      scheduleReason: healthyNow
        ? `healthy; results unchanged ${streak} times, next probe in 6 h`
        : `${failures} failures in a row; next probe in 24 h`,
      toolCount: currentHash ? currentTools.length : null,
      toolHash: currentHash,
      lastRun,
    });
    for (const p of pending) p();
    for (const check of CHECK_IDS) {
      const f = final[check];
      insResult.run(
        id,
        check,
        f.state,
        f.result.reason,
        JSON.stringify(f.result.evidence),
        SUITE_VERSION,
        f.runId,
        iso(lastRunAt),
        iso(f.since),
      );
    }
    stats.servers++;
  };

  const BATCH = 500;
  for (let b = 0; b < SERVERS; b += BATCH) {
    c.transaction(() => {
      for (let i = b; i < Math.min(SERVERS, b + BATCH); i++) seedServer(i);
    })();
    if ((b / BATCH) % 10 === 0)
      process.stdout.write(`\r[bench:site] seeding ${fmt.n(Math.min(SERVERS, b + BATCH))}/${fmt.n(SERVERS)} servers`);
  }
  process.stdout.write("\n");

  c.transaction(() => {
    const insDaily = c.prepare(
      `insert into coverage_daily (day, servers_read, servers_attempted, requests, requests_ok) values (?, ?, ?, ?, ?)`,
    );
    for (const [day, v] of coverage) insDaily.run(day, v.read, v.attempted, v.requests, v.ok);
    const insRound = c.prepare(
      `insert into rounds (started_at, finished_at, status, "trigger", due, probed, read, failed, gated, skipped, heartbeat_at) values (?, ?, 'done', 'scheduler', ?, ?, ?, ?, ?, 0, ?)`,
    );
    const perRound = Math.round((SERVERS * 3.4) / roundsPerDay);
    for (let k = 0; k < DAYS * roundsPerDay; k++) {
      const at = start + k * (DAY_MS / roundsPerDay);
      insRound.run(
        iso(at),
        iso(at + 40_000),
        perRound,
        perRound,
        Math.round(perRound * 0.8),
        Math.round(perRound * 0.1),
        Math.round(perRound * 0.08),
        iso(at + 40_000),
      );
    }
    const setMeta = c.prepare(`insert into meta (key, value) values (?, ?) on conflict(key) do update set value = excluded.value`);
    setMeta.run("registry_refreshed_at", end.toISOString());
    setMeta.run("registry_last_error", "");
  })();
  c.pragma("wal_checkpoint(TRUNCATE)");
  c.exec("ANALYZE");
  c.pragma("synchronous = NORMAL");
  stats.ms = performance.now() - t0;
  return stats;
}
