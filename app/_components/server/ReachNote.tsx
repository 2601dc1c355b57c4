import Link from "next/link";
import { faqPath } from "@/lib/site/paths";
import { reachSentence } from "@/lib/site/reach";
import type { ServerConfiguration } from "@/lib/store/servers/configuration";

/** architecture.md §2.6 (suite 0.15.0): which reach case the server was, in plain words, and the registry's own reason. */
export function ReachNote({ configuration, needsConfig }: { configuration: ServerConfiguration; needsConfig: string | null }) {
  const sentence = reachSentence(configuration, "en");
  if (!sentence) return null;
  return (
    <div className="notice" role="note" data-reach={configuration.reach ?? "unknown"}>
      <p>
        <strong>{sentence}</strong>
      </p>
      {needsConfig ? <p>The registry entry needs configuration before a client can use it: {needsConfig}.</p> : null}
      <p>
        <Link href={`${faqPath("en", "which-servers")}#reach`}>Why a missing key never makes a server Failed</Link>.
      </p>
    </div>
  );
}
