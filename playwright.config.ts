import { defineConfig } from "@playwright/test";
import { E2E_DB, E2E_PORT } from "./tests/e2e/env";
import { holdPastMidnight } from "./tests/e2e/midnight";

holdPastMidnight();

const baseURL = `http://127.0.0.1:${E2E_PORT}`;

export default defineConfig({
  testDir: "tests/e2e",
  testMatch: "*.spec.ts",
  outputDir: "test-results/playwright",
  globalSetup: "./tests/e2e/global-setup.ts",
  fullyParallel: true,
  workers: 2,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // On CI one retry: a test that fails and then passes is reported as flaky by name (plain-summary.ts) instead
  // of turning a shared, loaded machine's one slow navigation into a red run. Locally a failure is a failure.
  retries: process.env.CI ? 1 : 0,
  forbidOnly: !!process.env.CI,
  reporter: [["list"], ["./tests/e2e/plain-summary.ts"]],
  use: {
    baseURL,
    launchOptions: {
      executablePath: "/usr/bin/chromium",
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    },
    trace: "off",
  },
  // The fault tests (kill -9, SIGSTOP, a flood) compare latencies under load with latencies without it, and
  // stop or kill processes: they run last and alone, so no other spec's Chromium shares the two cores with them.
  projects: [
    { name: "site", testIgnore: "front.spec.ts" },
    { name: "faults", testMatch: "front.spec.ts", dependencies: ["site"] },
  ],
  webServer: {
    // Seed first: the server opens the database as it starts.
    command: `npx tsx tests/e2e/seed-cli.ts ${JSON.stringify(E2E_DB)} && npx tsx server.ts -H 127.0.0.1 -p ${E2E_PORT}`,
    url: `${baseURL}/api/health`,
    reuseExistingServer: false,
    timeout: 90_000,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      DATABASE_PATH: E2E_DB,
      // Scheduler off, and a registry URL that is not the demo (config.demo is true only when it is unset).
      PROBE_SCHEDULE: "",
      REGISTRY_URL: "http://127.0.0.1:9/",
      // No cross-reads against the seeded fleet (its servers do not exist).
      CROSS_READ_SAMPLE: "0",
      NEXT_TELEMETRY_DISABLED: "1",
    },
  },
});
