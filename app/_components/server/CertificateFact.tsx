import Link from "next/link";
import { CERTIFICATE_WARN_DAYS, certificateView } from "@/lib/site/certificate";
import { formatUtc } from "@/lib/site/format";
import type { Lang } from "@/lib/site/labels";
import { faqPath } from "@/lib/site/paths";
import { SECTIONS_TEXT } from "@/lib/site/server-text";
import type { RunSummary } from "@/lib/store/runs";

/** architecture.md §2.8: the certificate of an https server, as the latest probe saw it (a fact, not a check). */
export function CertificateFact({ run, now, lang = "en" }: { run: RunSummary | null; now: Date; lang?: Lang }) {
  const c = certificateView(run?.certificate, now);
  if (!c) return null;
  const t = SECTIONS_TEXT[lang];
  return (
    <section aria-labelledby="certificate-h">
      <h2 id="certificate-h">{t.certificateH}</h2>
      {c.warn ? (
        <div className="notice warn" role="note">
          <p>
            <strong>{c.daysLeft !== null && c.daysLeft < 0 ? t.certExpired : t.certSoon}</strong>
            {c.daysLeft !== null ? t.certDaysParen(t.certDays(c.daysLeft)) : ""}
            {t.certWarn(CERTIFICATE_WARN_DAYS)}
          </p>
        </div>
      ) : null}
      <dl className="facts">
        <dt>{t.issuer}</dt>
        <dd>{c.issuer ?? t.notNamed}</dd>
        {c.subject ? (
          <>
            <dt>{t.subject}</dt>
            <dd>{c.subject}</dd>
          </>
        ) : null}
        <dt>{t.expires}</dt>
        <dd>
          {c.validTo ? (
            <>
              <time dateTime={c.validTo}>{formatUtc(c.validTo)}</time>
              {c.daysLeft !== null ? ` · ${t.certDays(c.daysLeft)}` : ""}
            </>
          ) : (
            t.unknown
          )}
        </dd>
        {c.rejected ? (
          <>
            <dt>{t.accepted}</dt>
            <dd>
              {t.rejected[0]}
              <code>{c.rejected}</code>
              {t.rejected[1]}
            </dd>
          </>
        ) : null}
      </dl>
      <p className="sub">
        {t.certSub[0]}
        <Link href={`${faqPath(lang, "hints")}#certificate`}>{t.certSub[1]}</Link>
        {t.certSub[2]}
      </p>
    </section>
  );
}
