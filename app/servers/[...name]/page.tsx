import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { overallOf } from "@/lib/checks/overall";
import { CHECK_IDS } from "@/lib/checks/vocabulary";
import { evidenceModel } from "@/lib/site/evidence";
import { nameFromSegments } from "@/lib/site/paths";
import type { SearchParams } from "@/lib/site/query";
import { serverIdByName } from "@/lib/store/history";
import { getRunExchanges } from "@/lib/store/runs";
import { getServerDetail, type ServerDetail } from "@/lib/store/servers";
import { RenderStamp } from "../../_components/RenderStamp";
import { ReprobeSection } from "../../_components/ReprobeForm";
import { ServerHistory } from "../../_components/ServerHistory";
import { AtAGlance } from "../../_components/server/AtAGlance";
import { CertificateFact } from "../../_components/server/CertificateFact";
import { CheckCard } from "../../_components/server/CheckCard";
import { EvidenceSection } from "../../_components/server/EvidenceSection";
import { IncidentsSection } from "../../_components/server/IncidentsSection";
import { LinkTargets } from "../../_components/server/LinkTargets";
import { RegionsSection } from "../../_components/server/RegionsSection";
import { RemotesSection } from "../../_components/server/RemotesSection";
import { ServerFacts } from "../../_components/server/ServerFacts";
import { ServerHeader } from "../../_components/server/ServerHeader";
import { ToolChangesSection, ToolsSection } from "../../_components/server/ToolsSection";
import { siteDb, siteOrigin } from "../../_lib/db";
import { serverPageMetadata } from "../../_lib/server-meta";

// Rendered on every request it reaches; `npm start`'s front keeps one answer per server data version
// (lib/front), so most requests never get here.
export const dynamic = "force-dynamic";

type Params = { params: Promise<{ name: string[] }>; searchParams: Promise<SearchParams> };

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const name = nameFromSegments((await params).name);
  return (await serverPageMetadata(name, await siteOrigin())) ?? { title: "No such server" };
}

function ChecksSection({ detail, cites }: { detail: ServerDetail; cites: ReturnType<typeof evidenceModel>["cites"] }) {
  return (
    <section aria-labelledby="checks-h">
      <h2 id="checks-h">Checks in detail, and their history</h2>
      <p className="sub">
        Each check links to itself (<code>#check-&lt;id&gt;</code>) and to the exchanges it cites in the evidence above. States are
        observations of one anonymous probe, not a certification; <Link href="/faq/refusals">how refusals are recorded</Link>.
      </p>
      {CHECK_IDS.map((id) => (
        <CheckCard
          key={id}
          id={id}
          check={detail.checks.find((c) => c.check === id)}
          cites={cites.get(id) ?? []}
          history={detail.transitions.filter((t) => t.check === id)}
        />
      ))}
    </section>
  );
}

export default async function ServerPage({ params, searchParams }: Params) {
  const name = nameFromSegments((await params).name);
  const [origin, query] = await Promise.all([siteOrigin(), searchParams]);
  const db = siteDb();
  const detail = getServerDetail(db, name);
  if (!detail) notFound();
  const latestRunId = detail.latestRun?.id ?? null;
  const evidence = evidenceModel(detail.checks, latestRunId, (runId) =>
    runId === latestRunId ? detail.exchanges : (getRunExchanges(db, runId) ?? []),
  );

  return (
    <>
      <ServerHeader detail={detail} />
      <AtAGlance overall={overallOf(detail.checks)} checks={detail.checks} crossRead={detail.crossRead} />
      <ServerFacts detail={detail} />
      <RemotesSection remotes={detail.remotes} />
      <CertificateFact run={detail.latestRun} now={new Date()} />
      <ReprobeSection name={name} leftRegistry={!!detail.leftRegistryAt} optedOut={!!detail.optOut} query={query} />
      <RegionsSection db={db} serverId={serverIdByName(db, name) ?? -1} lastRunId={latestRunId} checks={detail.checks} now={new Date()} />
      <ServerHistory name={name} now={new Date()} />
      <IncidentsSection name={name} />
      <ToolsSection tools={detail.tools} />
      <ToolChangesSection name={name} changes={detail.toolChanges} everRead={detail.toolHash !== null || detail.lastSuccessAt !== null} />
      <EvidenceSection items={evidence.items} latestRun={detail.latestRun} />
      <ChecksSection detail={detail} cites={evidence.cites} />
      <LinkTargets name={name} origin={origin} />
      <RenderStamp note="it is rendered again when a probe of this server is recorded." />
    </>
  );
}
