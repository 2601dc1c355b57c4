import Link from "next/link";
import { Stored } from "../Stored";
import type { Lang } from "@/lib/site/labels";
import { faqPath } from "@/lib/site/paths";
import { reachSentence } from "@/lib/site/reach";
import { SERVER_TEXT } from "@/lib/site/server-text";
import type { ServerConfiguration } from "@/lib/store/servers/configuration";

/** architecture.md §2.6 (suite 0.15.0): which reach case the server was, in plain words, and the registry's own reason. */
export function ReachNote({
  configuration,
  needsConfig,
  lang = "en",
}: {
  configuration: ServerConfiguration;
  needsConfig: string | null;
  lang?: Lang;
}) {
  const sentence = reachSentence(configuration, lang);
  if (!sentence) return null;
  const t = SERVER_TEXT[lang];
  return (
    <div className="notice" role="note" data-reach={configuration.reach ?? "unknown"}>
      <p>
        <strong>{sentence}</strong>
      </p>
      {needsConfig ? (
        <p>
          {t.needsConfig}
          <Stored lang={lang}>{needsConfig}</Stored>
          {t.needsConfigEnd}
        </p>
      ) : null}
      <p>
        <Link href={`${faqPath(lang, "which-servers")}#reach`}>{t.reachLink}</Link>
        {lang === "en" ? "." : "。"}
      </p>
    </div>
  );
}
