import { CHECK_IDS } from "@/lib/vocabulary/checks";
import type { Lang } from "@/lib/site/labels";
import { badgePath, checkAnchor, serverJsonPath, serverPath, shieldsEndpointPath } from "@/lib/site/paths";
import { SECTIONS_TEXT } from "@/lib/site/server-text";
import { CopyField } from "../CopyField";
import { FoldSection } from "./FoldSection";

/** Badges, JSON and anchors to link to, as copyable text with absolute URLs. The page linked is the English one, as
 * badges are shown to everyone; the words around them are in the page's language. */
export function LinkTargets({ name, origin, lang = "en" }: { name: string; origin: string; lang?: Lang }) {
  const pageUrl = `${origin}${serverPath(name)}`;
  const badgeUrl = `${origin}${badgePath(name)}`;
  const t = SECTIONS_TEXT[lang];
  return (
    <FoldSection id="links" headingId="links-h" title={t.linksH}>
      <p>
        {t.badgesAbout[0]}
        <code>/badge/{t.badgeName}</code>
        {t.badgesAbout[1]}
        <code>
          /badge/{t.badgeName}?check={t.badgeCheck}
        </code>
        {t.badgesAbout[2]}
        {CHECK_IDS.join(", ")}
        {t.badgesAbout[3]}
        <code>/api/badge/</code>
        {t.badgesAbout[4]}
      </p>
      <p>
        <img src={badgePath(name)} alt={t.badgeAlt(name)} height={20} />
      </p>
      <CopyField label={t.badgeMarkdown} text={`[![MCP status](${badgeUrl})](${pageUrl})`} lang={lang} />
      <CopyField label={t.badgeHtml} text={`<a href="${pageUrl}"><img src="${badgeUrl}" alt="MCP status"></a>`} lang={lang} />
      <CopyField label={t.uptimeBadge} text={`[![MCP uptime](${badgeUrl}?metric=uptime)](${pageUrl})`} lang={lang} />
      <CopyField label={t.json} text={`${origin}${serverJsonPath(name)}`} lang={lang} />
      <CopyField
        label={t.shields}
        text={`https://img.shields.io/endpoint?url=${encodeURIComponent(`${origin}${shieldsEndpointPath(name)}`)}`}
        lang={lang}
      />
      <CopyField label={t.oneCheck} text={`${pageUrl}#${checkAnchor("handshake")}`} lang={lang} />
    </FoldSection>
  );
}
