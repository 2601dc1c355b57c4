import type { Db } from "../../db/client";
import { CHECK_IDS, type CheckId, type CheckState, type NotCheckedCause } from "../vocabulary/checks";
import type { Era, Transport } from "../probe/protocol";
import { uptime30dByServer } from "./uptime";
import type { ClientsReport } from "../checks/clients";
import { clientsReport } from "../checks/clients";
import { clientsVerdictOf } from "./servers/list";
import { configurationOf, type ServerConfiguration } from "./servers/configuration";

// The rows of the daily open-data file (`servers-YYYY-MM-DD.jsonl.gz`, architecture.md §3): the latest state of every server
// listed in the registry, one object per line. Its shape is `OpenDataServer` in lib/api/schemas.ts.

export interface OpenDataServer {
  name: string;
  remoteUrl: string | null;
  transport: Transport | null;
  era: Era | null;
  protocolVersion: string | null;
  overall: CheckState | null;
  overallCause: NotCheckedCause | null;
  checks: Record<CheckId, { state: CheckState; suiteVersion: string } | null>;
  uptime30d: { ratio: number | null; up: number; reached: number };
  /** architecture.md §2.10: which kinds of client can connect. */
  clients: ClientsReport;
  /** architecture.md §2.6 (0.15.0): its configuration need and what reaching it without the listed headers found. */
  configuration: ServerConfiguration;
  lastProbedAt: string | null;
  lastSuccessAt: string | null;
}

/** Every listed server, by name, in pages of `batch` (so a writer can yield between them). */
export function* openDataServers(db: Db, now: Date, batch = 1000): Generator<OpenDataServer[]> {
  const uptime = uptime30dByServer(db, now);
  const page = db.$client.prepare(
    `SELECT id, name, remote_url, transport, era, protocol_version, overall, overall_cause, last_probed_at, last_success_at, clients,
            needs_config, config_headers, reach, reach_refusal
     FROM servers WHERE left_registry_at IS NULL AND name > ? ORDER BY name LIMIT ?`,
  );
  const checks = db.$client.prepare(
    `SELECT server_id, "check", state, suite_version FROM check_results WHERE server_id IN (SELECT value FROM json_each(?))`,
  );
  let after = "";
  for (;;) {
    const rows = page.all(after, batch) as Record<string, string | number | null>[];
    if (rows.length === 0) return;
    after = String(rows[rows.length - 1]!.name);
    const byServer = new Map<number, OpenDataServer["checks"]>();
    for (const r of rows) byServer.set(Number(r.id), Object.fromEntries(CHECK_IDS.map((id) => [id, null])) as OpenDataServer["checks"]);
    for (const c of checks.all(JSON.stringify(rows.map((r) => r.id))) as {
      server_id: number;
      check: CheckId;
      state: CheckState;
      suite_version: string;
    }[])
      byServer.get(c.server_id)![c.check] = { state: c.state, suiteVersion: c.suite_version };
    yield rows.map((r) => ({
      name: String(r.name),
      remoteUrl: r.remote_url as string | null,
      transport: r.transport as Transport | null,
      era: r.era as Era | null,
      protocolVersion: r.protocol_version as string | null,
      overall: r.overall as CheckState | null,
      overallCause: r.overall_cause as NotCheckedCause | null,
      checks: byServer.get(Number(r.id))!,
      uptime30d: uptime.get(Number(r.id)) ?? { ratio: null, up: 0, reached: 0 },
      clients: clientsReport(clientsVerdictOf(r.clients as string | null)),
      configuration: configurationOf({
        needsConfig: r.needs_config as string | null,
        configHeaders: r.config_headers as string | null,
        reach: r.reach as ServerConfiguration["reach"],
        reachRefusal: r.reach_refusal as string | null,
      }),
      lastProbedAt: r.last_probed_at as string | null,
      lastSuccessAt: r.last_success_at as string | null,
    }));
  }
}
