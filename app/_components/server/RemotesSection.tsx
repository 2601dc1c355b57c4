import Link from "next/link";
import type { RegistryRemote } from "@/lib/probe/protocol";
import type { Lang } from "@/lib/site/labels";
import { faqPath } from "@/lib/site/paths";
import { SECTIONS_TEXT } from "@/lib/site/server-text";
import { StackTable } from "../StackTable";
import { Stored } from "../Stored";

/** architecture.md §2.6: every remote the registry lists for the server, its transport, and why it was or was not probed. */
export function RemotesSection({ remotes, lang = "en" }: { remotes: RegistryRemote[]; lang?: Lang }) {
  // One remote is the one in the facts above (or the needs-configuration notice).
  if (remotes.length < 2) return null;
  const t = SECTIONS_TEXT[lang];
  return (
    <section aria-labelledby="remotes-h">
      <h2 id="remotes-h">{t.remotesH}</h2>
      <p className="sub">
        {t.remotesSub[0]}
        <Link href={`${faqPath(lang, "which-servers")}#which-remote`}>{t.remotesSub[1]}</Link>
        {t.remotesSub[2]}
      </p>
      <StackTable
        className="remotes"
        columns={[
          {
            label: t.colUrl,
            cell: (r) => (
              <>
                <code>{r.url}</code>
                {r.filledUrl ? (
                  <>
                    {" "}
                    {t.probedAs[0]}
                    <code>{r.filledUrl}</code>
                    {t.probedAs[1]}
                  </>
                ) : null}
              </>
            ),
          },
          { label: t.colTransport, cell: (r) => r.transport },
          {
            label: t.colStanding,
            cell: (r) => (
              <>
                <span className={`standing standing-${r.standing}`}>{t.standing[r.standing]}</span>
                {r.why ? (
                  <>
                    {t.whySep}
                    <Stored lang={lang}>{r.why}</Stored>
                  </>
                ) : (
                  ""
                )}
              </>
            ),
          },
        ]}
        rows={remotes}
        rowKey={(r, i) => `${i}-${r.url}`}
        rowProps={(r) => ({ "data-standing": r.standing })}
      />
    </section>
  );
}
