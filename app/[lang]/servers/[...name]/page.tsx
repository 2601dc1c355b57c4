import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { overallOf } from "@/lib/checks/overall";
import { CHECK_IDS } from "@/lib/vocabulary/checks";
import { evidenceModel } from "@/lib/site/evidence";
import { faqPath, nameFromSegments } from "@/lib/site/paths";
import type { SearchParams } from "@/lib/site/query";
import { serverIdByName } from "@/lib/store/history";
import { getRunExchanges } from "@/lib/store/runs";
import { latestObservationsByName } from "@/lib/store/observations";
import { getServerDetail, type ServerDetail } from "@/lib/store/servers/detail";
import { RenderStamp } from "@/app/_components/RenderStamp";
import { ReprobeSection } from "@/app/_components/ReprobeForm";
import { SubscribeSection } from "@/app/_components/SubscribeForm";
import { ClaimSection, OwnerViewPanel } from "@/app/_components/owners/OwnerSections";
import { hostIsVariable } from "@/lib/rounds/owners/variables";
import { ownerView } from "@/lib/store/owners";
import { ServerHistory } from "@/app/_components/ServerHistory";
import { AtAGlance } from "@/app/_components/server/AtAGlance";
import { CertificateFact } from "@/app/_components/server/CertificateFact";
import { CheckCard } from "@/app/_components/server/CheckCard";
import { EvidenceSection } from "@/app/_components/server/EvidenceSection";
import { IncidentsSection } from "@/app/_components/server/IncidentsSection";
import { LinkTargets } from "@/app/_components/server/LinkTargets";
import { RegionsSection } from "@/app/_components/server/RegionsSection";
import { RemotesSection } from "@/app/_components/server/RemotesSection";
import { ServerFacts } from "@/app/_components/server/ServerFacts";
import { ServerHeader } from "@/app/_components/server/ServerHeader";
import { ToolChangesSection, ToolsSection } from "@/app/_components/server/ToolsSection";
import { siteDb, siteOrigin } from "@/app/_lib/db";
import { serverPageMetadata } from "@/app/_lib/server-meta";
import { pageLang } from "@/app/_lib/lang";
import type { Lang } from "@/lib/site/labels";
import { SERVER_TEXT } from "@/lib/site/server-text";

// Rendered on every request it reaches; `npm start`'s front keeps one answer per server data version
// (lib/front), so most requests never get here.
export const dynamic = "force-dynamic";

type Params = { params: Promise<{ lang: string; name: string[] }>; searchParams: Promise<SearchParams> };

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const name = nameFromSegments((await params).name);
  return (await serverPageMetadata(name, await siteOrigin(), await pageLang(params))) ?? { title: "No such server" };
}

function ChecksSection({
  detail,
  cites,
  overallReason,
  lang,
}: {
  detail: ServerDetail;
  cites: ReturnType<typeof evidenceModel>["cites"];
  overallReason: string | null;
  lang: Lang;
}) {
  const t = SERVER_TEXT[lang];
  const [before, after, link, end] = t.checksSub;
  return (
    <section id="checks" aria-labelledby="checks-h">
      <h2 id="checks-h">{t.checksH}</h2>
      <p className="sub">
        {before}
        <code>#check-&lt;id&gt;</code>
        {after}
        <Link href={faqPath(lang, "refusals")}>{link}</Link>
        {end}
      </p>
      {CHECK_IDS.map((id) => (
        <CheckCard
          key={id}
          id={id}
          check={detail.checks.find((c) => c.check === id)}
          cites={cites.get(id) ?? []}
          history={detail.transitions.filter((t) => t.check === id)}
          overallReason={overallReason}
          lang={lang}
        />
      ))}
    </section>
  );
}

/** The page's sections; a link to a folded one lands inside it, which opens it (no script needed). */
function PageContents({ lang }: { lang: Lang }) {
  const t = SERVER_TEXT[lang];
  const items: [string, string][] = [
    ["#server-facts", t.contents.facts],
    ["#history", t.contents.history],
    ["#response-time-content", t.contents.responseTime],
    ["#incidents-content", t.contents.incidents],
    ["#tools-content", t.contents.tools],
    ["#changes-content", t.contents.toolChanges],
    ["#evidence-content", t.contents.evidence],
    ["#checks", t.contents.checks],
    ["#links-content", t.contents.links],
  ];
  return (
    <nav aria-label={t.contentsLabel} className="page-contents">
      <span className="sub">{t.contentsLead}</span>
      <ul>
        {items.map(([href, label]) => (
          <li key={href}>
            <a href={href}>{label}</a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

export default async function ServerPage({ params, searchParams }: Params) {
  const name = nameFromSegments((await params).name);
  const [origin, query, lang] = await Promise.all([siteOrigin(), searchParams, pageLang(params)]);
  const db = siteDb();
  const detail = getServerDetail(db, name);
  if (!detail) notFound();
  const latestRunId = detail.latestRun?.id ?? null;
  const overall = overallOf(detail.checks);
  // Said once, in the overall line; the checks, their history and incidents with the same reason refer to it.
  const overallReason = overall?.state === "verified" ? null : (overall?.reason ?? null);
  const evidence = evidenceModel(detail.checks, latestRunId, (runId) =>
    runId === latestRunId ? detail.exchanges : (getRunExchanges(db, runId) ?? []),
  );

  return (
    <>
      <ServerHeader detail={detail} lang={lang} />
      <AtAGlance
        overall={overall}
        checks={detail.checks}
        crossRead={detail.crossRead}
        clients={detail.clientsVerdict}
        observations={latestObservationsByName(db, name)}
        lang={lang}
      />
      <OwnerViewPanel view={ownerViewOf(db, name)} lang={lang} />
      <PageContents lang={lang} />
      <ServerFacts detail={detail} lang={lang} />
      <RemotesSection remotes={detail.remotes} lang={lang} />
      <CertificateFact run={detail.latestRun} now={new Date()} lang={lang} />
      <ReprobeSection name={name} leftRegistry={!!detail.leftRegistryAt} optedOut={!!detail.optOut} query={query} lang={lang} />
      <SubscribeSection name={name} lang={lang} query={query} />
      <ClaimSection name={name} lang={lang} unclaimable={detail.remoteUrl ? hostIsVariable(detail.remoteUrl) : false} />
      <RegionsSection
        db={db}
        serverId={serverIdByName(db, name) ?? -1}
        lastRunId={latestRunId}
        checks={detail.checks}
        now={new Date()}
        lang={lang}
      />
      <ServerHistory name={name} now={new Date()} lang={lang} />
      <IncidentsSection name={name} overallReason={overallReason} lang={lang} />
      <ToolsSection tools={detail.tools} observations={latestObservationsByName(db, name)} lang={lang} />
      <ToolChangesSection
        name={name}
        changes={detail.toolChanges}
        everRead={detail.toolHash !== null || detail.lastSuccessAt !== null}
        lang={lang}
      />
      <EvidenceSection items={evidence.items} latestRun={detail.latestRun} lang={lang} />
      <ChecksSection detail={detail} cites={evidence.cites} overallReason={overallReason} lang={lang} />
      <LinkTargets name={name} origin={origin} lang={lang} />
      <RenderStamp note={SERVER_TEXT[lang].renderNote} lang={lang} />
    </>
  );
}

/** The owner's view of a server by its registry name, or null. */
function ownerViewOf(db: ReturnType<typeof siteDb>, name: string) {
  const id = serverIdByName(db, name);
  return id === null ? null : ownerView(db, id, new Date());
}
