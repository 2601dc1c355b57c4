import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { claimForPage } from "@/lib/rounds/owners/claims";
import { proofUrl } from "@/lib/rounds/owners/proof";
import { claimErrorText, OWNER_TEXT } from "@/lib/site/owner-text";
import { serverPath } from "@/lib/site/paths";
import { firstParam, type SearchParams } from "@/lib/site/query";
import { CLAIM_ERRORS, type ClaimError } from "@/lib/vocabulary/owners";
import { CopyField } from "../../_components/CopyField";
import { langOf, ownerPageDeps } from "../../_lib/owner-page";

// GET /claims/<claim token>: the claim page (architecture.md §11), a capability URL: never cached, never indexed, no Referer to
// another site (same-origin, not no-referrer: that makes the browser post its own forms with Origin: null). It speaks the
// language of the page the claim was made on.
export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Claim a listing", robots: { index: false, follow: false }, referrer: "same-origin" };

type Params = { params: Promise<{ token: string }>; searchParams: Promise<SearchParams> };

export default async function ClaimPage({ params, searchParams }: Params) {
  const [{ token }, query] = await Promise.all([params, searchParams]);
  const { deps, client } = await ownerPageDeps();
  const claim = claimForPage(deps, token, client);
  if ("ok" in claim) notFound();
  const lang = langOf(claim.lang);
  const t = OWNER_TEXT[lang];
  const error = CLAIM_ERRORS.find((e) => e === firstParam(query, "error")) as ClaimError | undefined;
  const status = Number(firstParam(query, "status"));
  const back = `${lang === "zh" ? "/zh" : ""}${serverPath(claim.server)}`;
  return (
    <div lang={lang === "zh" ? "zh-Hans" : "en"} className="owner-page">
      <h1>{t.claimTitle}</h1>
      <p>
        <Link href={back}>{claim.server}</Link>
      </p>
      <p className="sub">{t.claimKeep}</p>
      {deps.enabled ? null : <p className="notice warn">{t.sectionOff}</p>}
      <div role="status">
        {error ? <p className="notice warn">{claimErrorText(lang, error, Number.isFinite(status) && status > 0 ? status : null)}</p> : null}
      </div>
      {claim.state === "lapsed" ? (
        <p className="notice warn">{t.claimLapsed}</p>
      ) : (
        <>
          <p>{t.claimStep1}</p>
          <CopyField label={t.claimUrl} text={proofUrl(claim.origin)} />
          <CopyField label={t.claimBody} text={claim.proof} />
          <p>{t.claimStep2}</p>
          <form method="post" action={`/claims/${encodeURIComponent(token)}/verify`}>
            <button type="submit">{t.verifyButton}</button>
          </form>
        </>
      )}
      <p className="sub">{t.claimRules}</p>
    </div>
  );
}
