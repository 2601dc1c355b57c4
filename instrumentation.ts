// Next.js calls register() once per server process before the first request.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { getConfig } = await import("./lib/config");
  const { startBackground } = await import("./lib/rounds/background");
  await startBackground(getConfig());
}
