import fs from "node:fs";
import path from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, test } from "vitest";
import { openApiDocument } from "@/app/api/_lib/openapi";
import { API_SCHEMAS, ServerAnswer, ServerRow } from "@/lib/api/schemas";
import { ServerListParams } from "@/lib/site/query";
import { documentValidator } from "../../fixtures/openapi-ajv";

// The generated document, checked by a real OpenAPI validator and compiled by a real JSON Schema validator;
// and every route file under app/api, app/metrics and app/data (and /census) is in it.

const doc = openApiDocument();

/** Route files as OpenAPI paths, with the methods they export: app/api/servers/[...name]/route.ts → /api/servers/{name}. */
function routeFiles(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory() && !e.name.startsWith("_")) walk(p);
      else if (e.name === "route.ts") {
        const route = `/${path.relative("app", dir)}`.replace(/\[(?:\.\.\.)?([a-z]+)\]/g, "{$1}");
        const methods = [...fs.readFileSync(p, "utf8").matchAll(/export (?:async )?(?:function|const) (GET|POST|PUT|DELETE|PATCH)\b/g)].map(
          (m) => m[1]!.toLowerCase(),
        );
        out.set(route, methods);
      }
    }
  };
  walk("app/api");
  walk("app/metrics");
  walk("app/data");
  // The catch-all of /api/servers/{name} answers POST for its last segment `subscriptions` (names contain "/").
  const server = out.get("/api/servers/{name}") ?? [];
  if (server.includes("post")) {
    out.set(
      "/api/servers/{name}",
      server.filter((m) => m !== "post"),
    );
    out.set("/api/servers/{name}/subscriptions", ["post"]);
    out.set("/api/servers/{name}/claims", ["post"]);
  }
  // Pages with a documented contract of their own: /census answers a window that is not allowed with 400.
  out.set("/census", ["get"]);
  return out;
}

describe("/api/openapi.json", () => {
  test("is a valid OpenAPI 3.1 document by @seriousme/openapi-schema-validator", async () => {
    const result = await new Validator().validate(structuredClone(doc) as unknown as Record<string, unknown>);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  test("every schema in it compiles as JSON Schema 2020-12 (ajv, strict)", () => {
    const v = documentValidator(doc);
    for (const name of Object.keys(doc.components.schemas)) expect(() => v.component(name), name).not.toThrow();
    for (const [route, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        for (const status of Object.keys(op.responses)) {
          const types = Object.keys((op.responses as Record<string, { content?: object }>)[status]!.content ?? {});
          for (const type of types)
            expect(() => v.response(route, method, Number(status), type), `${method} ${route} ${status}`).not.toThrow();
        }
      }
    }
  });

  test("every route file under app/api (and /metrics) is documented with each method it exports", () => {
    const routes = routeFiles();
    expect(routes.size).toBeGreaterThanOrEqual(11);
    for (const [route, methods] of routes) {
      expect(Object.keys(doc.paths), route).toContain(route);
      const documented = Object.keys(doc.paths[route as keyof typeof doc.paths]);
      for (const m of methods.filter((m) => m !== "head")) expect(documented, `${m} ${route}`).toContain(m);
    }
    expect(Object.keys(doc.paths).sort()).toEqual([...routes.keys()].sort());
  });

  test("is generated from the schemas: every field of a schema is a property of its component, and nothing else", () => {
    const props = (name: keyof typeof API_SCHEMAS) =>
      Object.keys((doc.components.schemas[name] as { properties: object }).properties).sort();
    expect(props("ServerRow")).toEqual(Object.keys(ServerRow.shape).sort());
    expect(props("ServerAnswer")).toEqual(Object.keys(ServerAnswer.shape).sort());
    const params = doc.paths["/api/servers"].get.parameters.map((p) => p.name).sort();
    expect(params).toEqual(Object.keys(ServerListParams.shape).sort());
    expect(Object.keys(doc.components.schemas).sort()).toEqual(Object.keys(API_SCHEMAS).sort());
  });

  test("objects are closed, so an answer with a field no schema names fails validation", () => {
    const validate = documentValidator(doc).component("ErrorAnswer");
    expect(validate({ error: "not_found", message: "No such thing." })).toBe(true);
    expect(validate({ error: "not_found", message: "No such thing.", extra: 1 })).toBe(false);
  });
});
