import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { ownerByToken } from "@/lib/rounds/owners/claims";
import { ownerFields } from "@/lib/rounds/owners/configure";
import { formatUtc } from "@/lib/site/format";
import { configurationErrorText, OWNER_TEXT } from "@/lib/site/owner-text";
import { serverPath } from "@/lib/site/paths";
import { firstParam, type SearchParams } from "@/lib/site/query";
import { ownerSubscriptionCount, ownerTargetById, ownerView, secretsOf } from "@/lib/store/owners";
import { CONFIGURATION_ERRORS, type ConfigurationError } from "@/lib/vocabulary/owners";
import { OwnerViewPanel } from "../../_components/owners/OwnerSections";
import { langOf, ownerPageDeps } from "../../_lib/owner-page";

// GET /owners/<manage token>: the manage page of a verified claim (architecture.md §11), a capability URL: never cached, never
// indexed, no Referer. Values are write-only: the page lists header names and when they were set, never a value.
export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Manage your listing", robots: { index: false, follow: false }, referrer: "same-origin" };

type Params = { params: Promise<{ token: string }>; searchParams: Promise<SearchParams> };

export default async function OwnerPage({ params, searchParams }: Params) {
  const [{ token }, query] = await Promise.all([params, searchParams]);
  const { deps, client } = await ownerPageDeps();
  const claim = ownerByToken(deps, token, client);
  if ("ok" in claim) notFound();
  const lang = langOf(claim.lang);
  const t = OWNER_TEXT[lang];
  const db = deps.db;
  const done = firstParam(query, "done");
  const error = CONFIGURATION_ERRORS.find((e) => e === firstParam(query, "error")) as ConfigurationError | undefined;
  const target = ownerTargetById(db, claim.serverId);
  const { headers: allowed, variables } = target ? ownerFields(target) : { headers: [], variables: [] };
  const secrets = secretsOf(db, claim.id);
  const action = (a: string) => `/owners/${encodeURIComponent(token)}/${a}`;
  const back = `${lang === "zh" ? "/zh" : ""}${serverPath(claim.server)}`;
  return (
    <div lang={lang === "zh" ? "zh-Hans" : "en"} className="owner-page">
      <h1>{t.manageTitle}</h1>
      <p>
        <Link href={back}>{claim.server}</Link>
      </p>
      <p className="sub">{t.manageKeep}</p>
      {deps.enabled ? null : <p className="notice warn">{t.sectionOff}</p>}
      <div role="status">
        {done && t.done[done] ? <p className="notice ok">{t.done[done]}</p> : null}
        {error ? <p className="notice warn">{configurationErrorText(lang, error)}</p> : null}
      </div>
      <p>
        {claim.verifiedAt ? t.verifiedAt(formatUtc(claim.verifiedAt)) : null}{" "}
        {claim.nextCheckAt ? t.nextCheck(formatUtc(claim.nextCheckAt)) : null}
      </p>
      <OwnerViewPanel view={ownerView(db, claim.serverId, new Date())} lang={lang} />
      <section aria-labelledby="config-h">
        <h2 id="config-h">{t.configTitle}</h2>
        <p>{t.configIntro}</p>
        {secrets.length ? (
          <ul>
            {secrets.map((s) => (
              <li key={`${s.kind}:${s.name}`}>
                <code>{t.configSet(s.kind === "variable" ? `{${s.name}}` : s.name, formatUtc(s.setAt))}</code>
                {s.expiresAt ? t.configExpires(formatUtc(s.expiresAt)) : null}
              </li>
            ))}
          </ul>
        ) : (
          <p className="sub">{t.configNone}</p>
        )}
        {allowed.length || variables.length ? (
          <form method="post" action={action("configure")} className="subscribe-form" autoComplete="off">
            {variables.length ? <p className="sub">{t.configVariables(variables.map((n) => `{${n}}`).join(", "))}</p> : null}
            {variables.map((name) => (
              <label key={`v:${name}`} className="subscribe-address">
                <code>{`{${name}}`}</code>
                <input type="password" name={`variable:${name}`} maxLength={8192} autoComplete="off" spellCheck={false} />
              </label>
            ))}
            {allowed.length ? <p className="sub">{t.configAllowed(allowed.join(", "))}</p> : null}
            {allowed.map((name) => (
              <label key={name} className="subscribe-address">
                <code>{name}</code>
                <input type="password" name={`header:${name}`} maxLength={8192} autoComplete="off" spellCheck={false} />
              </label>
            ))}
            <button type="submit">{t.saveConfig}</button>
          </form>
        ) : (
          <p className="notice">{t.configNoHeaders}</p>
        )}
        {secrets.length ? (
          <form method="post" action={action("remove")}>
            <button type="submit" className="button secondary">
              {t.removeConfig}
            </button>
          </form>
        ) : null}
      </section>
      <section aria-labelledby="probe-h">
        <h2 id="probe-h">{t.probeNow}</h2>
        <p className="sub">{t.probeNote}</p>
        <form method="post" action={action("probe")}>
          <button type="submit">{t.probeNow}</button>
        </form>
      </section>
      <section aria-labelledby="tell-h">
        <h2 id="tell-h">{t.subscribeTitle}</h2>
        <p>{t.subscribeIntro}</p>
        <p className="sub">{t.subscriptions(ownerSubscriptionCount(db, claim.id))}</p>
        <form method="post" action={action("subscribe")} className="subscribe-form">
          <label className="subscribe-address">
            {t.subscribeWebhook}
            <input type="text" name="address" required maxLength={2048} spellCheck={false} />
          </label>
          <button type="submit">{t.subscribeButton}</button>
        </form>
      </section>
      <section aria-labelledby="giveup-h">
        <h2 id="giveup-h">{t.giveUpTitle}</h2>
        <p>{t.giveUpText}</p>
        <form method="post" action={action("give-up")}>
          <button type="submit" className="button secondary">
            {t.giveUpButton}
          </button>
        </form>
      </section>
    </div>
  );
}
