import { createHash } from "node:crypto";
import { canonicalToolList, diffToolLists } from "../tool-history";
import { DISCOVERY_CHECKS } from "../../vocabulary/checks";
import { isDifference, type CrossReadInput, type ProbeDiscoveryVerdict } from "../../store/cross-reads";
import type { CrossReadOutcome } from "../../vocabulary/store";

/** The tool fields the official client keeps (its schema drops others), so both lists are compared on these only. */
export const COMPARED_TOOL_FIELDS = [
  "name",
  "title",
  "description",
  "inputSchema",
  "outputSchema",
  "annotations",
  "icons",
  "execution",
  "_meta",
] as const;

function project(tools: readonly unknown[]): unknown[] {
  return tools.map((t) =>
    t && typeof t === "object" && !Array.isArray(t)
      ? Object.fromEntries(COMPARED_TOOL_FIELDS.filter((k) => k in t).map((k) => [k, (t as Record<string, unknown>)[k]]))
      : t,
  );
}

/** The outcome for one server: null stands for "this reader has no complete list". Paths name the tool, then the
 * field path inside it ("search.inputSchema.properties.q.type"); a tool only one side lists is its bare name. */
export function compareToolLists(
  probe: readonly unknown[] | null,
  cross: readonly unknown[] | null,
): { outcome: CrossReadOutcome; paths: string[] } {
  if (!probe && !cross) return { outcome: "neither", paths: [] };
  if (!cross) return { outcome: "only_probe", paths: [] };
  if (!probe) return { outcome: "only_cross_reader", paths: [] };
  const changes = diffToolLists(canonicalToolList(project(probe)), canonicalToolList(project(cross)));
  const paths = changes.map((c) => (c.path ? `${c.toolName}.${c.path}` : c.toolName));
  return paths.length === 0 ? { outcome: "agreed", paths } : { outcome: "disagreed", paths };
}

/** A fixed random sample: the `n` servers whose name hashes lowest. The same servers come back day after day,
 * a new server joins only where its hash falls, and nothing about the probe's results decides who is in it. */
export function fixedSample<T extends { name: string }>(items: readonly T[], n: number): T[] {
  return items
    .map((item) => ({ item, key: createHash("sha256").update(`mcp-status cross-read\n${item.name}`).digest("hex") }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .slice(0, Math.max(0, n))
    .map((x) => x.item);
}

/** architecture.md §6: a difference is explained when the probe's verdict follows a rule that forbids what the legacy reader
 * did (a -32020/21/22 decline, a 5xx or 3xx on server/discover: no fallback) or the probe was told to hold back (a
 * slow-down, an opt-out). Anything else is unexplained, and only that is what the cross_read alert counts. */
export function explainDifference(outcome: CrossReadOutcome, verdicts: readonly ProbeDiscoveryVerdict[]): CrossReadInput["explanation"] {
  if (!isDifference(outcome)) return null;
  for (const id of DISCOVERY_CHECKS) {
    const v = verdicts.find((x) => x.check === id);
    if (!v) continue;
    if (v.noFallback) return { rule: v.noFallback, code: v.noFallbackCode };
    if (v.state === "not_checked" && (v.notCheckedCause === "slow_down" || v.notCheckedCause === "opted_out"))
      return { rule: v.notCheckedCause, code: null };
  }
  return null;
}

/** architecture.md §2.10: the legacy reader starts with initialize, so on a server whose initialize-first clients cannot
 * connect its failed read is that fact, not a difference to chase. */
export function explainFailedRead(crossOk: boolean, refusal: { code: number | null } | null): CrossReadInput["explanation"] {
  return !crossOk && refusal ? { rule: "initialize_refused", code: refusal.code } : null;
}
