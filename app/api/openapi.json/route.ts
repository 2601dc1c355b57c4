import { getConfig } from "@/lib/config";
import { openApiDocument } from "../_lib/openapi";

export const dynamic = "force-dynamic";

let document: string | undefined;

// GET /api/openapi.json: the JSON API as OpenAPI 3.1, generated once per process from the routes' zod schemas.
export function GET() {
  document ??= JSON.stringify(openApiDocument({ publicBaseUrl: getConfig().publicBaseUrl }));
  return new Response(document, { headers: { "content-type": "application/json", "cache-control": "public, max-age=300" } });
}
