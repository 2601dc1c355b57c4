import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import type { Exchange } from "@/lib/probe/types";
import { formatDuration, formatUtc } from "@/lib/site/format";
import { serverPath } from "@/lib/site/paths";
import { getRunView } from "@/lib/store/history";
import { localePath } from "@/lib/site/chrome";
import { RUN_TEXT } from "@/lib/site/list-text";
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
  const [run, lang] = await Promise.all([params.then((p) => runOf(p.id)), pageLang(params)]);
  const t = RUN_TEXT[lang];
  if (!run) return { title: t.noSuchRun };
  return pageMetadata({
    path: `/runs/${run.id}`,
    lang,
    title: t.title(run.id, run.serverName),
    description: t.description(run.serverName),
  });
}

// GET /runs/<id>: one probe of one server, as the history strip links it (runs are kept 30 days).
export default async function RunPage({ params }: Params) {
  const [run, lang] = await Promise.all([params.then((p) => runOf(p.id)), pageLang(params)]);
  if (!run) notFound();
  const t = RUN_TEXT[lang];
  const exchanges = run.exchanges ? (JSON.parse(run.exchanges) as Exchange[]) : [];
  const ms = (v: number | null) => (v === null ? t.notMeasured : formatDuration(v));
  return (
    <>
      <p className="sub">
        <Link href={localePath(lang, serverPath(run.serverName))}>{run.serverName}</Link>
        {t.crumb(run.id)}
      </p>
      <h1>{t.h1(run.serverName, formatUtc(run.startedAt))}</h1>
      <dl className="facts">
        <dt>{t.started}</dt>
        <dd>
          <time dateTime={run.startedAt}>{formatUtc(run.startedAt)}</time>
          {t.took(formatDuration(run.durationMs))}
        </dd>
        <dt>{t.era}</dt>
        <dd>
          {run.era}
          {run.protocolVersion ? ` · ${run.protocolVersion}` : ""}
        </dd>
        <dt>{t.requests}</dt>
        <dd>{t.requestsSent(run.requests, run.requestsOk, Boolean(run.read))}</dd>
        <dt>{t.handshakeTime}</dt>
        <dd>{ms(run.handshakeMs)}</dd>
        <dt>{t.toolsListTime}</dt>
        <dd>{ms(run.toolsListMs)}</dd>
        <dt>{t.suiteVersion}</dt>
        <dd>{run.suiteVersion}</dd>
      </dl>
      <h2>{t.exchanges}</h2>
      {exchanges.length === 0 ? (
        <p className="sub">{run.requests === 0 ? t.nothingSent : t.notKept}</p>
      ) : (
        <>
          {t.exchangesAsRecorded ? <p className="sub">{t.exchangesAsRecorded}</p> : null}
          {exchanges.map((e) => (
            <ExchangeView key={e.seq} exchange={e} anchor={`ex-${e.seq}`} open={exchanges.length <= 2} lang={lang} />
          ))}
        </>
      )}
    </>
  );
}
