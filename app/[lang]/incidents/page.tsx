import type { Metadata } from "next";
import Link from "next/link";
import { formatCount } from "@/lib/site/format";
import { faqPath, incidentsFeedPath, incidentsPath, serverPath } from "@/lib/site/paths";
import { firstParam, type SearchParams } from "@/lib/site/query";
import { incidentList } from "@/lib/store/incidents";
import { serverExists } from "@/lib/store/servers/detail";
import { localePath } from "@/lib/site/chrome";
import { IncidentTable } from "@/app/_components/IncidentTable";
import { siteDb } from "@/app/_lib/db";
import { pageLang } from "@/app/_lib/lang";
import { pageMetadata } from "@/app/_lib/meta";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ lang: string }>; searchParams: Promise<SearchParams> };

export async function generateMetadata({ params, searchParams }: Props): Promise<Metadata> {
  const server = firstParam(await searchParams, "server");
  return pageMetadata({
    path: incidentsPath(server),
    lang: await pageLang(params),
    title: server ? `Incidents of ${server}` : "Incidents",
    description: "When remote MCP servers stopped answering a careful client, for how long, and why: recent incidents across all servers.",
    feeds: [{ url: incidentsFeedPath(server), title: server ? `Incidents: ${server}` : "Incidents" }],
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
  return (
    <>
      <h1>{server ? `Incidents of ${server}` : "Incidents"}</h1>
      <p className="lede">
        An incident is a stretch of time in which a server&apos;s discovery checks (handshake, protocol version, tool list) were Failed: it
        opens at the probe that found one Failed and closes at the first later probe that reached the server with none Failed. Most recent
        first.
      </p>
      <p>
        <a href={incidentsFeedPath(server)}>Atom feed of {server ? "this server's" : "all"} incidents</a> (an entry when one opens and one
        when it closes) · <Link href={faqPath(lang, "incidents")}>how incidents are recorded</Link>
        {server ? (
          <>
            {" "}
            · <Link href={at(serverPath(server))}>the server&apos;s page</Link> · <Link href={at(incidentsPath())}>all servers</Link>
          </>
        ) : null}
      </p>
      {asked && !server ? (
        <p className="notice warn" role="note">
          No server is named <code>{asked}</code>; showing incidents of all servers.
        </p>
      ) : null}
      <p role="status">
        {total === 0
          ? "No incident recorded yet."
          : `${formatCount(total)} ${total === 1 ? "incident" : "incidents"} recorded, ${formatCount(ongoing)} ongoing.`}
      </p>
      {rows.length > 0 ? <IncidentTable rows={rows} showServer={!server} /> : null}
      {pages > 1 ? (
        <nav className="pager" aria-label="Pages">
          {page > 1 ? <Link href={href(page - 1)}>← Newer</Link> : null}
          <span className="current">
            Page {page} of {pages}
          </span>
          {page < pages ? <Link href={href(page + 1)}>Older →</Link> : null}
        </nav>
      ) : null}
    </>
  );
}
