import { CHECK_IDS, type CheckState } from "../vocabulary/checks";
import { CHECK_LABELS, STATE_LABELS } from "../site/labels";
import type { RecentChanges, SearchServers, ServerStatus } from "./schemas";

// The text beside each structured result, written for a model that reads it to decide whether to connect a
// server: states in words with their reasons and hints, times, and the page to cite.

const label = (s: CheckState | null) => (s ? STATE_LABELS.en[s] : "not probed yet");
const when = (iso: string | null, never: string) => (iso ? iso.replace(/\.\d{3}Z$/, "Z") : never);
const short = (v: string | null) => (v === null ? "(none)" : v.length > 160 ? `${v.slice(0, 159)}…` : v);
const percent = (ratio: number | null) => (ratio === null ? "no probe reached it" : `${(ratio * 100).toFixed(ratio === 1 ? 0 : 1)}%`);

/** What a model should keep in mind about every verdict. */
const CAVEAT = [
  "States describe what mcp-status observed when it last probed the server anonymously;",
  "Not checked means it could not look, which is not a fault, and auth_metadata is about whether a client can discover",
  "how to authenticate, never whether that authentication is sound.",
].join(" ");

export function serverStatusText(s: ServerStatus): string {
  const lines: string[] = [];
  lines.push(`${s.name}${s.title ? ` (${s.title})` : ""}: mcp-status report.`);
  if (!s.inRegistry) lines.push(`This server left the official registry at ${when(s.leftRegistryAt, "?")}; its last results are kept.`);
  if (!s.overall) lines.push("Overall: not probed yet; no verdict exists.");
  else if (s.overall.state === "verified") {
    lines.push("Overall: Verified (the handshake completed and the whole tool list was read, with nothing failed or risky).");
  } else {
    const by = s.overall.check ?? "a check not yet evaluated";
    lines.push(`Overall: ${label(s.overall.state)}, decided by ${by}${s.overall.reason ? `: ${s.overall.reason}` : "."}`);
  }
  lines.push("Checks:");
  for (const id of CHECK_IDS) {
    const c = s.checks[id];
    if (!c) {
      lines.push(`- ${id} (${CHECK_LABELS.en[id]}): not probed yet.`);
      continue;
    }
    lines.push(`- ${id} (${CHECK_LABELS.en[id]}): ${label(c.state)}. ${c.reason}`);
    if (c.hint) lines.push(`  What to change: ${c.hint}`);
  }
  const revision = s.protocolVersion ? `${s.era ?? "?"} era, revision ${s.protocolVersion}` : "no revision agreed";
  const tools = s.toolCount === null ? "tool count unknown" : `${s.toolCount} tools`;
  lines.push(`Probed at ${s.remoteUrl ?? "no usable remote"} (${s.transport ?? "?"}); ${revision}; ${tools}.`);
  lines.push(
    `Last probe: ${when(s.lastProbedAt, "never")}. Last complete read of the tool list: ${when(s.lastCompleteReadAt, "never")}.` +
      ` Next probe due: ${when(s.nextDueAt, "as soon as possible")}.`,
  );
  const u = s.uptime;
  lines.push(
    u
      ? `Uptime: 24 h ${percent(u.last24h.ratio)}, 7 days ${percent(u.last7d.ratio)}, 30 days ${percent(u.last30d.ratio)}, 90 days ${percent(u.last90d.ratio)}.`
      : "Uptime: not available from this site yet.",
  );
  // architecture.md §2.10: one line per kind of client.
  lines.push(
    `Initialize-first clients (TypeScript SDK by default, MCP Inspector, 2025-era): ${s.clients.initializeFirst.state}. ${s.clients.initializeFirst.reason}`,
  );
  lines.push(
    `Discover-first clients (Python SDK v2, C# SDK 2, Go SDK 1.7): ${s.clients.discoverFirst.state}. ${s.clients.discoverFirst.reason}`,
  );
  // architecture.md §2.6 (0.15.0): the configuration the registry lists, and what the anonymous probe found.
  if (s.configuration.sentence) lines.push(`Configuration: ${s.configuration.sentence}`);
  // architecture.md §2.9: facts about the definitions, said as facts; they changed none of the states above.
  if (s.observations.length) {
    lines.push(`Observations on the tool definitions (facts, not verdicts; they change no state): ${s.observations.length}.`);
    for (const o of s.observations) lines.push(`- ${o.code}: ${o.sentence}`);
  } else if (s.lastCompleteReadAt) {
    lines.push("Observations on the tool definitions: none.");
  }
  lines.push(`Page: ${s.page} (JSON: ${s.json}).`);
  lines.push(CAVEAT);
  return lines.join("\n");
}

export function searchServersText(r: SearchServers, query: string | undefined): string {
  const lines: string[] = [];
  const what = query ? `matching ${JSON.stringify(query)}` : "in total";
  lines.push(`${r.total} server${r.total === 1 ? "" : "s"} ${what}; page ${r.page} of ${r.pages}, ${r.pageSize} per page.`);
  for (const n of r.notes) lines.push(`Note: ${n}`);
  if (r.servers.length === 0)
    lines.push(r.total === 0 ? "Nothing matched: try part of a registry name, or fewer filters." : "This page is past the last one.");
  for (const s of r.servers) {
    const checks = CHECK_IDS.map((id) => `${id} ${label(s.states[id])}`).join(", ");
    const left = s.leftRegistryAt ? "; left the registry" : "";
    lines.push(
      `- ${s.name}${s.title ? ` (${s.title})` : ""}: overall ${label(s.overall)}; ${checks}; last probe ${when(s.lastProbedAt, "never")}${left}. ${s.page}`,
    );
  }
  if (r.page < r.pages) lines.push(`More on page ${r.page + 1}.`);
  lines.push("get_server_status gives one server's reasons and hints.");
  return lines.join("\n");
}

export function recentChangesText(r: RecentChanges): string {
  const lines: string[] = [];
  const count = (n: number, more: boolean) => `${n}${more ? "+" : ""}`;
  lines.push(
    `Changes from ${when(r.since, "?")} to ${when(r.until, "?")}: ${count(r.stateChanges.length, r.more.stateChanges)} check state changes,` +
      ` ${count(r.toolChanges.length, r.more.toolChanges)} tool-definition changes (newest first).`,
  );
  for (const n of r.notes) lines.push(`Note: ${n}`);
  if (r.stateChanges.length) lines.push("State changes:");
  for (const c of r.stateChanges) {
    const from = c.from ? label(c.from) : "first result";
    lines.push(`- ${when(c.at, "?")} ${c.name} ${c.check}: ${from} → ${label(c.to)}. ${c.reason} ${c.page}`);
  }
  if (r.toolChanges.length) lines.push("Tool changes:");
  for (const t of r.toolChanges) {
    const field = t.path ? ` field ${t.path}` : "";
    const values = t.kind === "changed" ? ` from ${short(t.before)} to ${short(t.after)}` : "";
    lines.push(`- ${when(t.at, "?")} ${t.name} tool ${t.tool} ${t.kind}${field}${values}. ${t.page}`);
  }
  if (r.more.stateChanges || r.more.toolChanges) {
    lines.push("Older changes in this window were left out: ask again with a later since, or a larger limit.");
  }
  return lines.join("\n");
}
