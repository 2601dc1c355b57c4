import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": new URL("./", import.meta.url).pathname.replace(/\/$/, "") } },
  test: {
    include: ["tests/unit/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ["default", "./tests/plain-summary.ts"],
    pool: "forks",
  },
});
