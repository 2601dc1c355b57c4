import path from "node:path";

export const E2E_PORT = Number(process.env.E2E_PORT ?? 3317);
export const E2E_DB = path.resolve(process.env.E2E_DB ?? "test-results/e2e-db/mcp-status-e2e.db");
export const SCREENSHOT_DIR = path.resolve("test-results/screenshots");
