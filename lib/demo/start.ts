import type { Db } from "../../db/client";
import { addOptOut } from "../store/optouts";
import { startDemoFleet, type RunningFleet } from "./fleet";
import { entryStatus } from "./loopback-registry";

let fleet: Promise<RunningFleet> | undefined;

/** Starts the built-in demo registry and fleet once per process and records the operator opt-out it needs. */
export async function startDemo(db: Db, log: (line: string) => void): Promise<RunningFleet> {
  fleet ??= startDemoFleet();
  const f = await fleet;
  const since = new Date().toISOString();
  for (const o of f.operatorOptOuts) addOptOut(db, { host: o.host, reason: o.reason, source: "operator", since });
  const active = f.entries.filter((e) => entryStatus(e) === "active").length;
  log(`[demo] built-in registry at ${f.registry.url} lists ${active} fixture servers on loopback`);
  return f;
}
