import tseslint from "typescript-eslint";

// Layer boundaries from STYLE.md: app → lib/rounds, lib/store → lib/checks, lib/registry → lib/probe.
const noNext = { group: ["next", "next/*", "react", "react-dom"], message: "lib/ must not depend on Next.js or React." };
const noApp = { group: ["@/app/*", "../app/*", "../../app/*"], message: "lib/ must not import app/." };
const layer = (files, forbidden, message) => ({
  files,
  rules: { "no-restricted-imports": ["error", { patterns: [noNext, noApp, ...forbidden.map((g) => ({ group: g, message }))] }] },
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
  layer(["lib/probe/**"], [["**/checks/*", "!**/checks/vocabulary", "!**/checks/types"], ["**/store/*", "**/rounds/*", "**/registry/*", "**/db/*", "**/config"]], "lib/probe knows HTTP and MCP only."),
  layer(["lib/checks/**"], [["**/store/*", "**/rounds/*", "**/registry/*", "**/db/*", "**/config", "undici", "node:http", "node:net", "node:fs"]], "lib/checks is pure."),
  layer(["lib/registry/**"], [["**/store/*", "**/rounds/*", "**/db/*"]], "lib/registry knows the registry only."),
  layer(["lib/store/**"], [["**/rounds/*", "**/probe/transport*"]], "lib/store holds queries only."),
  {
    files: ["lib/config.ts", "instrumentation.ts", "tests/**", "bench/**", "lib/cli/**", "playwright.config.ts", "scripts/**", "lib/demo/**"],
    rules: { "no-restricted-syntax": "off" },
  },
);
