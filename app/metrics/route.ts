import { getDb } from "@/db/client";
import { getConfig } from "@/lib/config";
import { createRendererMetrics } from "@/lib/metrics/renderer";

export const dynamic = "force-dynamic";

let handler: ((request: Request) => Promise<Response>) | undefined;

// GET /metrics with Authorization: Bearer $METRICS_TOKEN → Prometheus text; 401 without it; 404 while
// METRICS_TOKEN is unset. Under `npm start` the front answers it and asks this route for its part.
export function GET(request: Request) {
  const config = getConfig();
  handler ??= createRendererMetrics({ token: config.metricsToken, db: getDb(config) });
  return handler(request);
}

export const HEAD = GET;
