import { CHECK_IDS } from "@/lib/vocabulary/checks";
import { badgePath, checkAnchor, serverJsonPath, serverPath, shieldsEndpointPath } from "@/lib/site/paths";
import { CopyField } from "../CopyField";
import { FoldSection } from "./FoldSection";

/** Badges, JSON and anchors to link to, as copyable text with absolute URLs. */
export function LinkTargets({ name, origin }: { name: string; origin: string }) {
  const pageUrl = `${origin}${serverPath(name)}`;
  const badgeUrl = `${origin}${badgePath(name)}`;
  return (
    <FoldSection id="links" headingId="links-h" title="Link to this report">
      <p>
        Badges are SVG images: <code>/badge/&lt;registry name&gt;</code> for the overall state and{" "}
        <code>/badge/&lt;registry name&gt;?check=&lt;check id&gt;</code> for one check (ids: {CHECK_IDS.join(", ")}). The same paths under{" "}
        <code>/api/badge/</code> answer shields.io endpoint JSON. Badges are cached for five minutes.
      </p>
      <p>
        <img src={badgePath(name)} alt={`MCP status badge for ${name}`} height={20} />
      </p>
      <CopyField label="Badge (Markdown)" text={`[![MCP status](${badgeUrl})](${pageUrl})`} />
      <CopyField label="Badge (HTML)" text={`<a href="${pageUrl}"><img src="${badgeUrl}" alt="MCP status"></a>`} />
      <CopyField
        label="Uptime badge, 30 days (Markdown; &window=24h, 7d or 90d for another window)"
        text={`[![MCP uptime](${badgeUrl}?metric=uptime)](${pageUrl})`}
      />
      <CopyField label="JSON" text={`${origin}${serverJsonPath(name)}`} />
      <CopyField
        label="shields.io endpoint"
        text={`https://img.shields.io/endpoint?url=${encodeURIComponent(`${origin}${shieldsEndpointPath(name)}`)}`}
      />
      <CopyField label="Link to one check (handshake)" text={`${pageUrl}#${checkAnchor("handshake")}`} />
    </FoldSection>
  );
}
