import type { Metadata } from "next";
import Link from "next/link";
import { faqPath, incidentsFeedPath, incidentsPath, serverPath } from "@/lib/site/paths";
import { firstParam, type SearchParams } from "@/lib/site/query";
import { incidentList } from "@/lib/store/incidents";
import { serverExists } from "@/lib/store/servers/detail";
import { localePath } from "@/lib/site/chrome";
import { INCIDENTS_TEXT } from "@/lib/site/list-text";
import { IncidentTable } from "@/app/_components/IncidentTable";
import { siteDb } from "@/app/_lib/db";
import { pageLang } from "@/app/_lib/lang";
import { pageMetadata } from "@/app/_lib/meta";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ lang: string }>; searchParams: Promise<SearchParams> };

export async function generateMetadata({ params, searchParams }: Props): Promise<Metadata> {
  const server = firstParam(await searchParams, "server");
  const lang = await pageLang(params);
  const t = INCIDENTS_TEXT[lang];
  return pageMetadata({
    path: incidentsPath(server),
    lang,
    title: t.title(server),
    description: t.description,
    feeds: [{ url: incidentsFeedPath(server), title: t.feedTitle(server) }],
  });
}

const PAGE_SIZE = 50;

export default async function IncidentsPage({ params, searchParams }: Props) {
  const [lang, sp] = await Promise.all([pageLang(params), searchParams]);
  const at = (path: string) => localePath(lang, path);
  const raw = Number.parseInt(firstParam(sp, "page") ?? "1", 10);
  const page = Number.isFinite(raw) && raw > 0 ? raw : 1;
  const db = siteDb();
  const asked = firstParam(sp, "server");
  const server = asked && serverExists(db, asked) ? asked : undefined;
  const { total, ongoing, rows } = incidentList(db, { server, limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE });
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const href = (p: number) => at(`${incidentsPath(server)}${server ? "&" : "?"}page=${p}`);
  const t = INCIDENTS_TEXT[lang];
  return (
    <>
      <h1>{t.title(server)}</h1>
      <p className="lede">{t.lede}</p>
      <p>
        <a href={incidentsFeedPath(server)}>{t.feedLink(Boolean(server))}</a>
        {t.feedAfter}
        <Link href={faqPath(lang, "incidents")}>{t.faqLink}</Link>
        {server ? (
          <>
            {" "}
            · <Link href={at(serverPath(server))}>{t.serverPage}</Link> · <Link href={at(incidentsPath())}>{t.allServers}</Link>
          </>
        ) : null}
      </p>
      {asked && !server ? (
        <p className="notice warn" role="note">
          {t.noServer[0]}
          <code>{asked}</code>
          {t.noServer[1]}
        </p>
      ) : null}
      <p role="status">{total === 0 ? t.none : t.recorded(total, ongoing)}</p>
      {rows.length > 0 ? <IncidentTable rows={rows} showServer={!server} lang={lang} /> : null}
      {pages > 1 ? (
        <nav className="pager" aria-label={t.pages}>
          {page > 1 ? <Link href={href(page - 1)}>{t.newer}</Link> : null}
          <span className="current">{t.pageOf(page, pages)}</span>
          {page < pages ? <Link href={href(page + 1)}>{t.older}</Link> : null}
        </nav>
      ) : null}
    </>
  );
}
