import type { ApiShape } from "@/lib/api/schemas";
import { censusJson } from "@/lib/site/census-data";
import { listCensusDays } from "@/lib/store/census";
import { siteDb } from "../../_lib/db";

export const dynamic = "force-dynamic";

export function GET() {
  return Response.json(censusJson(listCensusDays(siteDb())) satisfies ApiShape<"CensusAnswer">, {
    headers: { "cache-control": "public, max-age=0, must-revalidate" },
  });
}
