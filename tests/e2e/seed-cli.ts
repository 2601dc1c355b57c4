import { seedDatabase, seedOpenData } from "./seed";

// Runs before `npm start` (webServer command): the server opens the database at startup, so the
// file must be complete before it exists for the server.
const file = process.argv[2];
if (!file) {
  console.error("usage: tsx tests/e2e/seed-cli.ts <database file>");
  process.exit(2);
}
seedDatabase(file);
const dir = await seedOpenData(file);
console.log(`[e2e] seeded ${file} and ${dir}`);
