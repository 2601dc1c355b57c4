import Link from "next/link";
import { Stored } from "../Stored";
import { localePath } from "@/lib/site/chrome";
import { formatUtc } from "@/lib/site/format";
import type { Lang } from "@/lib/site/labels";
import { faqPath } from "@/lib/site/paths";
import { SERVER_TEXT } from "@/lib/site/server-text";
import type { ServerDetail } from "@/lib/store/servers/detail";
import { ReachNote } from "./ReachNote";

/** Breadcrumb, title, description, and the notices that change how the rest of the page reads. */
export function ServerHeader({ detail, lang = "en" }: { detail: ServerDetail; lang?: Lang }) {
  const t = SERVER_TEXT[lang];
  // The registry's own words (description, opt-out reason) stay as written; on /zh they are marked as English.
  const stored = lang === "en" ? undefined : "en";
  return (
    <>
      <p className="sub">
        <Link href={localePath(lang, "/")}>{t.allServers}</Link>
        {t.registryName}
        <code>{detail.name}</code>
      </p>
      <h1>{detail.title || detail.name}</h1>
      {detail.description ? (
        <p className="lede" lang={stored}>
          {detail.description}
        </p>
      ) : null}
      {detail.leftRegistryAt ? (
        <div className="notice warn" role="note">
          <p>
            <strong>{t.leftNotice[0]}</strong>
            {t.leftNotice[1]}
            <time dateTime={detail.leftRegistryAt}>{formatUtc(detail.leftRegistryAt)}</time>
            {t.leftNotice[2]}
          </p>
        </div>
      ) : null}
      {detail.optOut ? (
        <div className="notice" role="note">
          <p>
            {t.optOutHost}
            <code>{detail.host}</code>
            {t.optOutAsked}
            {t.optOutSource[detail.optOut.source === "robots" ? "robots" : "operator"]}
            {t.optOutSince}
            {formatUtc(detail.optOut.since)}
            {t.optOutReason}
            <Stored lang={lang}>{detail.optOut.reason}</Stored>
            {t.optOutEnd}
            <Link href={faqPath(lang, "opting-out")}>{t.optOutLink}</Link>.
          </p>
        </div>
      ) : null}
      <ReachNote configuration={detail.configuration} needsConfig={detail.needsConfig} lang={lang} />
    </>
  );
}
