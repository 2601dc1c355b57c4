import { after } from "next/server";
import { getDb } from "@/db/client";
import { getConfig } from "@/lib/config";
import { roundDepsFromConfig } from "@/lib/rounds/background";
import { startReprobeRound } from "@/lib/rounds/reprobe";
import { postReprobe } from "../_lib/reprobe";

export const dynamic = "force-dynamic";

// POST /api/reprobe: the server page's "Probe again now" form. One probe of one registry server, through a
// one-server round (same probe, opt-outs, lock and writes as any round), within REPROBE_* limits.
export function POST(request: Request) {
  const config = getConfig();
  return postReprobe(request, {
    db: getDb(config),
    now: () => new Date(),
    limits: { minMinutes: config.reprobeMinMinutes, hourlyCap: config.reprobeHourlyCap },
    publicBaseUrl: config.publicBaseUrl,
    start: (serverId) => {
      const r = startReprobeRound(roundDepsFromConfig(config), serverId);
      if (r.started) after(r.done);
    },
  });
}
