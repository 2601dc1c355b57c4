// Next.js calls register() once per server process before the first request.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  // As the renderer of `npm start` (lib/front/renderer.ts) it runs in a session of its own, so it ends
  // itself when the front is gone, even a front killed with -9.
  const front = Number(process.env.MCP_STATUS_FRONT_PID);
  if (front) setInterval(() => process.ppid !== front && process.exit(0), 1_000).unref();
  const { getConfig } = await import("./lib/config");
  const { startBackground } = await import("./lib/rounds/background");
  // Without the front (plain next start or next dev) nobody else sends subscribers' messages: this process does.
  await startBackground(getConfig(), console.log, front ? {} : { sender: { siteUrl: `http://localhost:${process.env.PORT ?? 3000}` } });
}
