import { getConfig } from "@/lib/config";
import { startBackground } from "@/lib/rounds/background";

/** register() of instrumentation.ts on the Node.js runtime. A file of its own so the Edge compile of instrumentation.ts
 * never sees process.ppid or process.exit (next build warned about both, for a runtime this site never uses). */
export async function registerNode({ frontPid, port }: { frontPid: number | null; port: string }): Promise<void> {
  // As the renderer of `npm start` (lib/front/renderer.ts) it runs in a session of its own, so it ends
  // itself when the front is gone, even a front killed with -9.
  if (frontPid) setInterval(() => process.ppid !== frontPid && process.exit(0), 1_000).unref();
  // Without the front (plain next start or next dev) nobody else sends subscribers' messages: this process does.
  await startBackground(getConfig(), console.log, frontPid ? {} : { sender: { siteUrl: `http://localhost:${port}` } });
}
