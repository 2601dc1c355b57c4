import { spawn } from "node:child_process";
import fs from "node:fs";
import autocannon from "autocannon";
import { startNext } from "@/tests/fixtures/next-server";
import { freePort } from "@/lib/cli/ports";
import { seedDatabase, SEED } from "@/tests/e2e/seed";
import { cpuSeconds, descendants } from "@/bench/common";
const FLOOD = fs.readFileSync("/tmp/front/flood.js.txt", "utf8").replace(/^const FLOOD = `/, "").replace(/`;\s*$/, "").replace(/\\\\\*/g, "\\*");
const serverUrl = (n: string) => `/servers/${n.split("/").map(encodeURIComponent).join("/")}`;
const HELD = [serverUrl(SEED.modern), serverUrl(SEED.legacy), `/badge/${SEED.modern}`, `/api/servers/${SEED.modern}`, "/"];
const db = "/tmp/front/flood.db";
if (!fs.existsSync(db)) seedDatabase(db);
const site = await startNext({ dbPath: db, port: await freePort(), env: { CROSS_READ_SAMPLE: "0", PUBLIC_BASE_URL: "https://status.example", FRONT_MAX_RENDERS: "2", FRONT_RENDER_QUEUE: "4" } });
for (const p of HELD) for (let i = 0; i < 3; i++) await (await fetch(site.origin + p)).arrayBuffer();
const flood = (paths: string[], nice: boolean) => new Promise<number>((resolve) => { const t0 = Date.now(); const args = ["-e", FLOOD, site.origin, "500", "40", ...paths]; const c = spawn(nice ? "/usr/bin/nice" : process.execPath, nice ? ["-n", "10", process.execPath, ...args] : args, { stdio: ["ignore", "ignore", "inherit"] }); c.once("exit", () => resolve(Date.now() - t0)); });
const lat: { at: number; ms: number }[] = [];
let n = 0;
const load = autocannon({ url: site.origin, connections: 5, overallRate: Number(process.env.RATE ?? 300), duration: 600, requests: [{ method: "GET", setupRequest: (r) => ({ ...r, path: HELD[n++ % HELD.length]! }) }] }).on("response", (_c, _s, _b, ms) => void lat.push({ at: Date.now(), ms }));
const p99 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.99)] ?? 0;
const pids = () => [site.pid, ...descendants(site.pid)];
const variants: [string, string[], boolean][] = [
  ["mix, niced", [`${serverUrl(SEED.modern)}?utm=*&x=*`, "/?q=*", "/changes?page=*"], true],
  ["mix, not niced", [`${serverUrl(SEED.modern)}?utm=*&x=*`, "/?q=*", "/changes?page=*"], false],
];
let last = 3000;
for (let round = 0; round < 3; round++) for (const [label, paths, nice] of variants) {
  await new Promise((r) => setTimeout(r, 500));
  const q0 = Date.now(); await new Promise((r) => setTimeout(r, last)); const q1 = Date.now();
  const c0 = cpuSeconds([site.pid]);
  const t0 = Date.now(); const ms = await flood(paths, nice); const t1 = Date.now(); last = ms;
  const cpu = cpuSeconds([site.pid]) - c0;
  const quiet = lat.filter((l) => l.at >= q0 && l.at <= q1).map((l) => l.ms);
  const burst = lat.filter((l) => l.at >= t0 && l.at <= t1).map((l) => l.ms);
  console.log(`${label.padEnd(22)} burst ${ms} ms, front cpu ${cpu.toFixed(2)} s; held p99 quiet ${p99(quiet)} (${quiet.length}), burst ${p99(burst)} (${burst.length})`);
}
load.stop(); await load; await site.stop();
