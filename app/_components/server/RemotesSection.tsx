import Link from "next/link";
import type { RegistryRemote, RemoteStanding } from "@/lib/probe/protocol";

const STANDING_WORDS: Record<RemoteStanding, string> = {
  probed: "probed",
  needs_configuration: "needs configuration",
  passed_over: "passed over: another remote was probed",
};

/** architecture.md §2.6: every remote the registry lists for the server, its transport, and why it was or was not probed. */
export function RemotesSection({ remotes }: { remotes: RegistryRemote[] }) {
  // One remote is the one in the facts above (or the needs-configuration notice).
  if (remotes.length < 2) return null;
  return (
    <section aria-labelledby="remotes-h">
      <h2 id="remotes-h">Listed remotes</h2>
      <p className="sub">
        The probe talks to the first remote that needs no configuration, streamable-http before sse (
        <Link href="/faq/which-servers#which-remote">which remote is probed</Link>).
      </p>
      <table className="stack remotes">
        <thead>
          <tr>
            <th scope="col">URL</th>
            <th scope="col">Transport</th>
            <th scope="col">Standing</th>
          </tr>
        </thead>
        <tbody>
          {remotes.map((r, i) => (
            <tr key={`${i}-${r.url}`} data-standing={r.standing}>
              <td data-label="URL">
                <code>{r.url}</code>
                {r.filledUrl ? (
                  <>
                    {" "}
                    (probed as <code>{r.filledUrl}</code>)
                  </>
                ) : null}
              </td>
              <td data-label="Transport">{r.transport}</td>
              <td data-label="Standing">
                <span className={`standing standing-${r.standing}`}>{STANDING_WORDS[r.standing]}</span>
                {r.why ? `: ${r.why}` : ""}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
