import Link from "next/link";
import { getConfig } from "@/lib/config";
import { overallOf } from "@/lib/checks/overall";
import { formatUtc } from "@/lib/site/format";
import { CHECK_LABELS, type Lang } from "@/lib/site/labels";
import { claimErrorText, OWNER_TEXT } from "@/lib/site/owner-text";
import { ownerSummary } from "@/lib/site/owners";
import { encodeName, faqPath } from "@/lib/site/paths";
import { FORM_KEY_META, issueFormToken, newFormKey } from "@/lib/site/reprobe-form";
import type { OwnerView } from "@/lib/store/owners";
import { metaOnce } from "@/lib/store/reprobe";
import { CHECK_IDS } from "@/lib/vocabulary/checks";
import { siteDb } from "../../_lib/db";
import { StateChip } from "../StateChip";

/** The owner's view beside the public checks (architecture.md §11): "With the owner's key: Verified, 14 tools", its five checks
 * and its uptime; said apart from the public state, which it never changes. Nothing when no owner's view exists. */
export function OwnerViewPanel({ view, lang }: { view: OwnerView | null; lang: Lang }) {
  if (!view) return null;
  const t = OWNER_TEXT[lang];
  const state = overallOf(view.checks)?.state ?? "not_checked";
  const month = view.uptime.last30d;
  return (
    <section id="owner-view" aria-labelledby="owner-view-h" className={`owner-view overall overall-${state}`}>
      <h2 id="owner-view-h">{t.ownerViewTitle}</h2>
      <p className="overall-state">
        <StateChip state={state} cause={overallOf(view.checks)?.cause ?? null} lang={lang} />
        <span>{ownerSummary(lang, view)}</span>
      </p>
      <ul className="owner-checks">
        {CHECK_IDS.map((id) => {
          const c = view.checks.find((r) => r.check === id);
          return (
            <li key={id}>
              <strong>{CHECK_LABELS[lang][id]}</strong>{" "}
              <StateChip state={c?.state ?? null} cause={c?.notCheckedCause ?? null} lang={lang} />{" "}
              <span className="sub" lang={lang === "en" ? undefined : "en"}>
                {c?.reason}
              </span>
            </li>
          );
        })}
      </ul>
      <p className="sub">
        {t.ownerViewAt(formatUtc(view.lastProbedAt))}{" "}
        {month.ratio !== null ? t.ownerViewUptime(`${(month.ratio * 100).toFixed(1)}%`) : null} {t.publicStays}
      </p>
    </section>
  );
}

/** "Is this your server?": a plain form posting to /api/servers/<name>/claims with the page's form key; on a listing whose
 * host is a URL variable, the reason no claim can be made instead (there is no one origin to prove). */
export function ClaimSection({ name, lang, unclaimable = false }: { name: string; lang: Lang; unclaimable?: boolean }) {
  const t = OWNER_TEXT[lang];
  const enabled = getConfig().owners.secretsKey !== undefined;
  return (
    <section id="owner" aria-labelledby="owner-h" className="fold">
      <details>
        <summary>
          <h2 id="owner-h">{t.sectionTitle}</h2>
        </summary>
        <p>{t.sectionIntro}</p>
        {enabled && unclaimable ? (
          <p className="notice">{claimErrorText(lang, "variable_host", null)}</p>
        ) : enabled ? (
          <form method="post" action={`/api/servers/${encodeName(name)}/claims`}>
            <input type="hidden" name="token" value={issueFormToken(metaOnce(siteDb(), FORM_KEY_META, newFormKey), name, new Date())} />
            <input type="hidden" name="lang" value={lang} />
            <button type="submit">{t.claimButton}</button>
          </form>
        ) : (
          <p className="notice">{t.sectionOff}</p>
        )}
        <p className="sub">
          <Link href={faqPath(lang, "owners")}>{t.faqLink}</Link>
        </p>
      </details>
    </section>
  );
}
