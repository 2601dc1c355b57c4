import { AggregatorRegistry, collectDefaultMetrics, Registry } from "prom-client";
import type { Family } from "./families";

// prom-client's default process metrics for this process, and the merge of several processes' families into
// one exposition. The two processes of `npm start` never export the same series: default metrics carry a
// `process` label, stored metrics come from the renderer only and the front's own from the front only. So
// the merge sums nothing twice; summing is only the way prom-client's aggregation joins the parts.

export type ProcessRole = "front" | "renderer";

export const CONTENT_TYPE = Registry.PROMETHEUS_CONTENT_TYPE;

const processRegistries = new Map<ProcessRole, Registry>();
const collected = new Set<ProcessRole>();

/** This process's default metrics (CPU, memory, handles, GC, event-loop lag), labelled with its role;
 * collection starts on the first call (call it at start so the first scrape has a full picture). */
export function processRegistry(role: ProcessRole): Registry {
  let r = processRegistries.get(role);
  if (!r) {
    r = new Registry();
    collectDefaultMetrics({ register: r, labels: { process: role } });
    processRegistries.set(role, r);
  }
  return r;
}

export async function processFamilies(role: ProcessRole): Promise<Family[]> {
  const r = processRegistry(role);
  if (!collected.has(role)) {
    // The lag gauge is set one tick after a collection: the first scrape collects twice, so it has it.
    collected.add(role);
    await r.getMetricsAsJSON();
    await new Promise((resolve) => setImmediate(resolve));
  }
  const families = (await r.getMetricsAsJSON()) as unknown as Family[];
  // prom-client also exports nodejs_active_{handles,requests,resources}_total as gauges, which breaks the
  // _total convention (promtool flags them); the same figures remain by type in nodejs_active_*.
  return families.filter((f) => !(f.type === "gauge" && f.name.endsWith("_total")));
}

/** The Prometheus text of several parts, each family once. */
export function exposition(parts: Family[][]): Promise<string> {
  // Each family aggregated by summing: series of distinct label sets stay apart, and prom-client's own choice
  // for some defaults ("omit" for the start time, "average" for lag) would drop or blend per-process values.
  const summed = parts.map((families) => families.map((f) => ({ ...f, aggregator: "sum" as const })));
  return AggregatorRegistry.aggregate(summed).metrics();
}
