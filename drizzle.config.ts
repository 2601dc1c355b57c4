import { defineConfig } from "drizzle-kit";

// `npx drizzle-kit generate` writes db/migrations; db/client.ts applies them at open.
export default defineConfig({
  dialect: "sqlite",
  schema: "./db/schema.ts",
  out: "./db/migrations",
});
