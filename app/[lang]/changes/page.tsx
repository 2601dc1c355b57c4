import type { Metadata } from "next";
import Link from "next/link";
import { sameServerVersion, toolChangeList } from "@/lib/store/tools";
import { formatUtc } from "@/lib/site/format";
import { serverPath } from "@/lib/site/paths";
import { firstParam, type SearchParams } from "@/lib/site/query";
import { localePath } from "@/lib/site/chrome";
import { CHANGES_TEXT } from "@/lib/site/list-text";
import { siteDb } from "@/app/_lib/db";
import { StackTable } from "@/app/_components/StackTable";
import { pageLang } from "@/app/_lib/lang";
import { pageMetadata } from "@/app/_lib/meta";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ lang: string }>; searchParams: Promise<SearchParams> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const lang = await pageLang(params);
  const t = CHANGES_TEXT[lang];
  return pageMetadata({
    path: "/changes",
    lang,
    title: t.title,
    description: t.description,
    feeds: [{ url: "/changes/feed.xml", title: t.title }],
  });
}

const PAGE_SIZE = 100;

export default async function ChangesPage({ params, searchParams }: Props) {
  const lang = await pageLang(params);
  const raw = Number.parseInt(firstParam(await searchParams, "page") ?? "1", 10);
  const page = Number.isFinite(raw) && raw > 0 ? raw : 1;
  const { total, rows } = toolChangeList(siteDb(), { limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE });
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const t = CHANGES_TEXT[lang];
  return (
    <>
      <h1>{t.title}</h1>
      <p className="lede">{t.lede}</p>
      <p>
        <a href="/changes/feed.xml">{t.feedLink}</a>
        {t.feedBetween}
        <a href="/changes/states.xml">{t.statesFeedLink}</a>
        {t.feedAfter}
      </p>
      <p role="status">{total === 0 ? t.none : t.recorded(total)}</p>
      {rows.length > 0 ? (
        <StackTable
          columns={[
            { label: t.when, cell: (c) => <time dateTime={c.at}>{formatUtc(c.at)}</time> },
            { label: t.server, cell: (c) => <Link href={localePath(lang, serverPath(c.serverName))}>{c.serverName}</Link> },
            { label: t.tool, cell: (c) => <code>{c.toolName}</code> },
            {
              label: t.change,
              cell: (c) => (
                <>
                  {t.kinds[c.kind]}
                  {c.sameVersion !== null ? <span className="same-version">{t.sameVersion(c.sameVersion)}</span> : null}
                </>
              ),
            },
            { label: t.field, cell: (c) => (c.path ? <code>{c.path}</code> : t.wholeTool) },
            {
              label: t.beforeAfter,
              cell: (c) => (
                <>
                  {c.before !== null ? <code>{c.before}</code> : "–"} → {c.after !== null ? <code>{c.after}</code> : "–"}
                </>
              ),
            },
          ]}
          rows={rows.map((row) => ({ ...row, sameVersion: sameServerVersion(row) }))}
          rowKey={(c) => c.id}
          rowProps={(c) => ({ id: `change-${c.id}` })}
        />
      ) : null}
      {pages > 1 ? (
        <nav className="pager" aria-label={t.pages}>
          {page > 1 ? <Link href={localePath(lang, `/changes?page=${page - 1}`)}>{t.newer}</Link> : null}
          <span className="current">{t.pageOf(page, pages)}</span>
          {page < pages ? <Link href={localePath(lang, `/changes?page=${page + 1}`)}>{t.older}</Link> : null}
        </nav>
      ) : null}
    </>
  );
}
