import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import type { Exchange } from "@/lib/probe/types";
import { formatDuration, formatUtc } from "@/lib/site/format";
import { serverPath } from "@/lib/site/paths";
import { getRunView } from "@/lib/store/history";
import { localePath } from "@/lib/site/chrome";
import { ExchangeView } from "@/app/_components/ExchangeView";
import { siteDb } from "@/app/_lib/db";
import { pageLang } from "@/app/_lib/lang";
import { pageMetadata } from "@/app/_lib/meta";

export const dynamic = "force-dynamic";

type Params = { params: Promise<{ lang: string; id: string }> };

function runOf(idParam: string) {
  const id = /^\d{1,12}$/.test(idParam) ? Number(idParam) : null;
  return id === null ? null : getRunView(siteDb(), id);
}

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const run = runOf((await params).id);
  if (!run) return { title: "No such run" };
  return pageMetadata({
    path: `/runs/${run.id}`,
    lang: await pageLang(params),
    title: `Run ${run.id} of ${run.serverName}`,
    description: `One probe of ${run.serverName}: its timings, requests and, while kept, every exchange.`,
  });
}

// GET /runs/<id>: one probe of one server, as the history strip links it (runs are kept 30 days).
export default async function RunPage({ params }: Params) {
  const [run, lang] = await Promise.all([params.then((p) => runOf(p.id)), pageLang(params)]);
  if (!run) notFound();
  const exchanges = run.exchanges ? (JSON.parse(run.exchanges) as Exchange[]) : [];
  const ms = (v: number | null) => (v === null ? "not measured (no answer)" : formatDuration(v));
  return (
    <>
      <p className="sub">
        <Link href={localePath(lang, serverPath(run.serverName))}>{run.serverName}</Link> / run {run.id}
      </p>
      <h1>
        Probe of {run.serverName} at {formatUtc(run.startedAt)}
      </h1>
      <dl className="facts">
        <dt>Started</dt>
        <dd>
          <time dateTime={run.startedAt}>{formatUtc(run.startedAt)}</time>, took {formatDuration(run.durationMs)}
        </dd>
        <dt>Era · revision</dt>
        <dd>
          {run.era}
          {run.protocolVersion ? ` · ${run.protocolVersion}` : ""}
        </dd>
        <dt>Requests</dt>
        <dd>
          {run.requests} sent, {run.requestsOk} answered 2xx{run.read ? "; the tool list was read completely" : ""}
        </dd>
        <dt>Handshake time</dt>
        <dd>{ms(run.handshakeMs)}</dd>
        <dt>Tool-list time</dt>
        <dd>{ms(run.toolsListMs)}</dd>
        <dt>Suite version</dt>
        <dd>{run.suiteVersion}</dd>
      </dl>
      <h2>Exchanges</h2>
      {exchanges.length === 0 ? (
        <p className="sub">
          {run.requests === 0
            ? "Nothing was sent in this run."
            : "The exchanges of this run were not kept (only the latest run and runs that changed a state keep theirs)."}
        </p>
      ) : (
        exchanges.map((e) => <ExchangeView key={e.seq} exchange={e} anchor={`ex-${e.seq}`} open={exchanges.length <= 2} />)
      )}
    </>
  );
}
