import { modernEndpoint, pages, SAMPLE_TOOLS, sendText } from "./zoo/wire";
import type { ZooBehaviour } from "./zoo/types";

// The demo's one server that changes between probes, so a newcomer sees tool history, the tool feed and an
// incident within minutes instead of never. Each probe starts with server/discover, which moves it one step:
// its tools as first read, then a tool added and a description changed, then a probe answered 502 (an
// incident opens), then a tool removed and a parameter added (the incident closes), and round again.

export const CHANGING_SERVER = "changing-tools";
export const CHANGING_ABOUT =
  "Changes its tool list between probes and answers one probe in four with HTTP 502, so tool changes and an incident show within the demo's first minutes.";

type Tool = Record<string, unknown>;
const [echo, search, remove] = SAMPLE_TOOLS as Tool[];
const withLimit = (t: Tool): Tool => {
  const schema = t.inputSchema as { properties: Record<string, unknown> };
  return { ...t, inputSchema: { ...schema, properties: { ...schema.properties, limit: { type: "integer", minimum: 1 } } } };
};

/** The four steps, one per probe; null is the probe that gets a 502. */
export const CHANGING_STEPS: (Tool[] | null)[] = [
  [echo!, search!],
  [{ ...echo!, description: "Echoes the text it is given, unchanged." }, search!, remove!],
  null,
  [{ ...echo!, description: "Echoes the text it is given, unchanged." }, withLimit(search!)],
];

/** The behaviour; its step counter lives in the handler's state, one per mounted server. */
export const changingTools: ZooBehaviour = (ctx) => {
  const body = ctx.body as { method?: unknown } | undefined;
  const probes = (ctx.state.probes as number | undefined) ?? 0;
  if (ctx.method === "POST" && body?.method === "server/discover") ctx.state.probes = probes + 1;
  const step = CHANGING_STEPS[(((ctx.state.probes as number | undefined) ?? 1) - 1) % CHANGING_STEPS.length];
  if (step === null) return sendText(ctx, 502, "text/html", "<html><body><h1>502 Bad Gateway</h1></body></html>");
  return modernEndpoint({ tools: pages([step!]) })(ctx);
};
