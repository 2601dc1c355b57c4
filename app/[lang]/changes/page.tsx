import type { Metadata } from "next";
import Link from "next/link";
import { sameServerVersion, toolChangeList } from "@/lib/store/tools";
import { formatCount, formatUtc } from "@/lib/site/format";
import { serverPath } from "@/lib/site/paths";
import { firstParam, type SearchParams } from "@/lib/site/query";
import { localePath } from "@/lib/site/chrome";
import { siteDb } from "@/app/_lib/db";
import { pageLang } from "@/app/_lib/lang";
import { pageMetadata } from "@/app/_lib/meta";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ lang: string }>; searchParams: Promise<SearchParams> };

export const generateMetadata = async ({ params }: Props): Promise<Metadata> =>
  pageMetadata({
    path: "/changes",
    lang: await pageLang(params),
    title: "Tool-definition changes",
    description: "Every change to a remote MCP server's tool definitions, field by field, newest first.",
    feeds: [{ url: "/changes/feed.xml", title: "Tool-definition changes" }],
  });

const PAGE_SIZE = 100;

export default async function ChangesPage({ params, searchParams }: Props) {
  const lang = await pageLang(params);
  const raw = Number.parseInt(firstParam(await searchParams, "page") ?? "1", 10);
  const page = Number.isFinite(raw) && raw > 0 ? raw : 1;
  const { total, rows } = toolChangeList(siteDb(), { limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE });
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  return (
    <>
      <h1>Tool-definition changes</h1>
      <p className="lede">
        Every time a server&apos;s complete tool list differs from the last one we read, the difference is kept field by field. Newest
        first.
      </p>
      <p>
        <a href="/changes/feed.xml">Atom feed of all changes</a> · each server page has its own feed too. Check results changing state (any
        check, any server) have <a href="/changes/states.xml">a feed of their own</a>.
      </p>
      <p role="status">{total === 0 ? "No change recorded yet." : `${formatCount(total)} changes recorded.`}</p>
      {rows.length > 0 ? (
        <table className="stack">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Server</th>
              <th scope="col">Tool</th>
              <th scope="col">Change</th>
              <th scope="col">Field</th>
              <th scope="col">Before → after</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((c) => (
              <tr key={c.id} id={`change-${c.id}`}>
                <td data-label="When">
                  <time dateTime={c.at}>{formatUtc(c.at)}</time>
                </td>
                <td data-label="Server">
                  <Link href={localePath(lang, serverPath(c.serverName))}>{c.serverName}</Link>
                </td>
                <td data-label="Tool">
                  <code>{c.toolName}</code>
                </td>
                <td data-label="Change">
                  {c.kind}
                  {sameServerVersion(c) !== null ? (
                    <span className="same-version"> while serverInfo.version stayed {sameServerVersion(c)}</span>
                  ) : null}
                </td>
                <td data-label="Field">{c.path ? <code>{c.path}</code> : "whole tool"}</td>
                <td data-label="Before → after">
                  {c.before !== null ? <code>{c.before}</code> : "–"} → {c.after !== null ? <code>{c.after}</code> : "–"}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {pages > 1 ? (
        <nav className="pager" aria-label="Pages">
          {page > 1 ? <Link href={localePath(lang, `/changes?page=${page - 1}`)}>← Newer</Link> : null}
          <span className="current">
            Page {page} of {pages}
          </span>
          {page < pages ? <Link href={localePath(lang, `/changes?page=${page + 1}`)}>Older →</Link> : null}
        </nav>
      ) : null}
    </>
  );
}
