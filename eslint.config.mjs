import tseslint from "typescript-eslint";

// Layer boundaries from STYLE.md, top to bottom: server.ts (npm start) → lib/front → app → lib/cli → lib/metrics → lib/mcp →
// lib/rounds → lib/regions → lib/demo → lib/site → lib/api → lib/store → db → lib/registry, lib/checks → lib/probe →
// lib/config → lib/vocabulary (the names every layer reads); `npm run deps` prints the graph they allow.
// lib/front (the front process) is imported by server.ts alone: nothing the renderer runs may depend on it
// (the outcome and refusal names the health answer lists live in lib/vocabulary/front).
// Patterns are regular expressions over the import string (relative or "@/…"). A folder is named right after
// "../", "@/", "@/lib/" or at the start, so a file of an allowed folder (../store/rounds) is not taken for the folder.
const dirs = (...names) => `(^|\\.\\./|@/|@/lib/)(${names.join("|")})(/|$)`;
const noNext = { regex: "^(next|react|react-dom)(/|$)", message: "lib/ and db/ must not depend on Next.js or React." };
const noApp = { regex: dirs("app"), message: "lib/ and db/ must not import app/." };
const noTests = { regex: dirs("tests"), message: "Production code must not import tests/: fixtures it needs live in lib/demo." };
const noFront = {
  regex: "(^|\\.\\./|@/|@/lib/)front(/|$)",
  message: "lib/front is the front process of npm start: only server.ts imports it.",
};
/** The NATS client: only lib/regions (and the agent command over it) speaks to the broker. */
const nats = "^@nats-io/";
/** The probe's entry point and transports: what only the layers that run probes may use. */
const probeInternals = "(^|/)probe(/index)?$|(^|/)probe/transport/";
const layer = (files, forbidden, message, base = [noNext, noApp, noTests, noFront]) => ({
  files,
  rules: { "no-restricted-imports": ["error", { patterns: [...base, ...forbidden.map((regex) => ({ regex, message }))] }] },
});

export default tseslint.config(
  { ignores: [".next/**", "node_modules/**", "data/**", "test-results/**", "playwright-report/**", "next-env.d.ts", "db/migrations/**"] },
  {
    files: ["**/*.ts", "**/*.tsx", "**/*.mjs"],
    languageOptions: { parser: tseslint.parser },
    plugins: { "@typescript-eslint": tseslint.plugin },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "no-restricted-syntax": [
        "error",
        { selector: "MemberExpression[object.name='process'][property.name='env']", message: "Read configuration through lib/config.ts." },
      ],
    },
  },
  // The front answers from memory and supervises the renderer; the renderer's code (app/ and below) never reaches it.
  layer(
    ["lib/front/**"],
    [
      dirs("rounds", "regions", "demo", "registry"),
      nats,
      probeInternals,
      "(^|/)db/schema$",
      "^drizzle-orm",
      "(^|/)metrics/(stored|renderer)$",
    ],
    "lib/front keys, holds and replays answers: it reads versions through lib/store and leaves rendering, rounds and the stored metrics to the renderer.",
    [noNext, noApp, noTests],
  ),
  layer(
    ["app/**", "instrumentation.ts", "proxy.ts"],
    [dirs("cli", "regions", "demo"), nats, "(^|/)db/schema$", "^drizzle-orm"],
    "app/ renders and routes: it reads through lib/store and starts rounds through lib/rounds.",
    [noTests, noFront],
  ),
  layer(["lib/cli/**", "lib/config.ts"], [], ""),
  layer(
    ["lib/metrics/**"],
    [dirs("cli", "mcp", "regions", "demo"), nats, probeInternals],
    "lib/metrics reads stored figures and process counters for /metrics; it starts nothing.",
  ),
  layer(
    ["lib/mcp/**"],
    [dirs("cli", "metrics", "rounds", "regions", "demo", "registry", "config"), nats, "(^|/)db/schema$", "^drizzle-orm", probeInternals],
    "lib/mcp answers MCP tool calls through lib/store and lib/site: it never probes, writes or reads the environment.",
  ),
  layer(
    ["lib/rounds/**"],
    [dirs("cli", "metrics")],
    "lib/rounds combines the I/O below it and never reaches up to the CLI or the pages (lib/site below it shapes words, e.g. the alert sentence both the webhook and the feed send).",
  ),
  layer(
    ["lib/regions/**"],
    [dirs("cli", "metrics", "mcp", "rounds", "demo", "site", "api", "store", "db", "registry")],
    "lib/regions carries probes to the regions over NATS and weighs their answers (the wire, dispatch, the agent's loop, quorum, region health): it stores nothing and reads no environment; lib/rounds records what it decides.",
  ),
  layer(
    ["lib/demo/**"],
    [dirs("cli", "metrics", "rounds", "regions", "site", "registry"), nats],
    "lib/demo serves the fixture fleet; rounds start it, never the reverse.",
  ),
  layer(
    ["lib/site/**"],
    [dirs("cli", "metrics", "rounds", "regions", "demo", "registry", "db"), nats, probeInternals],
    "lib/site shapes what pages show from stored values.",
  ),
  layer(
    ["lib/api/**"],
    [dirs("cli", "metrics", "rounds", "regions", "demo", "site", "registry"), nats, probeInternals],
    "lib/api holds the JSON API's schemas: vocabularies in, shapes out.",
  ),
  layer(
    ["lib/store/**"],
    [dirs("cli", "metrics", "rounds", "regions", "demo", "site", "api", "registry"), nats, probeInternals],
    "lib/store holds queries only.",
  ),
  layer(
    ["db/**"],
    [dirs("cli", "metrics", "rounds", "demo", "site", "api", "registry", "config"), nats, probeInternals],
    "db/ holds the schema and the connection.",
  ),
  layer(
    ["lib/registry/**"],
    [dirs("cli", "metrics", "rounds", "regions", "demo", "site", "api", "store", "db", "checks"), nats],
    "lib/registry knows the registry only.",
  ),
  layer(
    ["lib/checks/**"],
    [
      dirs("cli", "metrics", "rounds", "regions", "demo", "site", "api", "store", "db", "registry", "config"),
      nats,
      "^(undici|node:http|node:net|node:fs)$",
    ],
    "lib/checks is pure.",
  ),
  // lib/probe takes nothing from the rest of lib/ (relative imports inside it name none of these folders).
  layer(
    ["lib/probe/**"],
    [dirs("cli", "metrics", "rounds", "regions", "demo", "site", "api", "store", "db", "registry", "checks", "config"), nats],
    "lib/probe knows HTTP and MCP only (never NATS or regions): from outside itself it reads the names in lib/vocabulary alone.",
  ),
  // The ground floor: names every layer reads (states, kinds, codes, subjects), importing nothing of the project.
  layer(
    ["lib/vocabulary/**"],
    [
      dirs("cli", "metrics", "mcp", "rounds", "regions", "demo", "site", "api", "store", "db", "registry", "checks", "probe", "config"),
      nats,
    ],
    "lib/vocabulary is the ground floor: names and their types only, importing nothing of the project.",
  ),
  {
    files: ["lib/config.ts", "instrumentation.ts", "server.ts", "tests/**", "bench/**", "lib/cli/**", "playwright.config.ts", "scripts/**"],
    rules: { "no-restricted-syntax": "off" },
  },
);
