import { after } from "next/server";
import { getConfig } from "@/lib/config";
import { roundDepsFromConfig } from "@/lib/rounds/background";
import { startReprobeRound } from "@/lib/rounds/reprobe";
import { ownerRouteDeps } from "../../../_lib/owner-deps";
import { postOwnerProbe } from "../../../_lib/owners";

export const dynamic = "force-dynamic";

// POST /api/owners/<token>/probe: a probe now, under the same limits as the server page's "Probe again now".
export async function POST(request: Request, { params }: { params: Promise<{ token: string }> }) {
  const config = getConfig();
  return postOwnerProbe(request, (await params).token, {
    ...ownerRouteDeps(request),
    limits: { minMinutes: config.reprobeMinMinutes, hourlyCap: config.reprobeHourlyCap },
    start: (serverId) => {
      const r = startReprobeRound(roundDepsFromConfig(config), serverId);
      if (r.started) after(r.done);
    },
  });
}
