import { censusCsv } from "@/lib/site/census-data";
import { listCensusDays } from "@/lib/store/census";
import { siteDb } from "../../_lib/db";

export const dynamic = "force-dynamic";

export function GET() {
  return new Response(censusCsv(listCensusDays(siteDb())), {
    headers: {
      "content-type": "text/csv; charset=utf-8; header=present",
      "content-disposition": 'inline; filename="census.csv"',
      "cache-control": "public, max-age=0, must-revalidate",
    },
  });
}
