// Next.js calls register() once per server process before the first request. The Node.js work lives in a module loaded
// only on that runtime, so the Edge compile of this file has nothing to warn about.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { registerNode } = await import("./app/_lib/instrumentation-node");
    await registerNode({ frontPid: Number(process.env.MCP_STATUS_FRONT_PID) || null, port: process.env.PORT ?? "3000" });
  }
}
