import type { Metadata } from "next";
import Link from "next/link";
import { getConfig } from "@/lib/config";
import { listServersFiles, SERVERS_FILE_KEEP_DAYS } from "@/lib/rounds/open-data";
import { censusCsvColumns, DATA_LICENSE } from "@/lib/site/census-data";
import { localePath } from "@/lib/site/chrome";
import { DATA_TEXT } from "@/lib/site/list-text";
import { CENSUS_CSV_PATH, CENSUS_JSON_PATH, faqPath, serversFilePath } from "@/lib/site/paths";
import { listCensusDays } from "@/lib/store/census";
import { Inline } from "@/app/_components/Inline";
import { StackTable } from "@/app/_components/StackTable";
import { siteDb, siteOrigin } from "@/app/_lib/db";
import { pageLang } from "@/app/_lib/lang";
import { pageMetadata } from "@/app/_lib/meta";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ lang: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const lang = await pageLang(params);
  const t = DATA_TEXT[lang];
  return pageMetadata({ path: "/data", lang, title: t.title, description: t.description(DATA_LICENSE.id) });
}

export default async function DataPage({ params }: Props) {
  const [lang, origin] = await Promise.all([pageLang(params), siteOrigin()]);
  const t = DATA_TEXT[lang];
  const rows = listCensusDays(siteDb());
  const files = listServersFiles(getConfig().openDataDir);
  const columns = censusCsvColumns(rows);
  return (
    <>
      <h1>{t.title}</h1>
      <p className="lede">{t.lede(SERVERS_FILE_KEEP_DAYS)}</p>
      <p className="notice" role="note" id="licence">
        {t.licence[0]}
        <a href={DATA_LICENSE.url}>{DATA_LICENSE.name}</a>
        {t.licence[1]}
        {DATA_LICENSE.id}
        {t.licence[2]}
      </p>

      <section aria-labelledby="downloads-h">
        <h2 id="downloads-h">{t.downloads}</h2>
        <StackTable
          columns={[
            { label: t.file, cell: (f) => f.file },
            { label: t.what, cell: (f) => f.what },
          ]}
          rows={[
            { key: "census.csv", file: <a href={CENSUS_CSV_PATH}>census.csv</a>, what: t.censusCsv(rows.length) },
            { key: "census.json", file: <a href={CENSUS_JSON_PATH}>census.json</a>, what: <Inline text={t.censusJson} /> },
            ...files.map((f) => ({ key: f.name, file: <a href={serversFilePath(f.day)}>{f.name}</a>, what: t.dayFile(f.day, t.size(f.bytes)) })),
          ]}
          rowKey={(f) => f.key}
        />
        {files.length === 0 ? <p>{t.noDayFile}</p> : null}
        <p>
          <Inline text={t.dayFiles(SERVERS_FILE_KEEP_DAYS)} />
        </p>
        <pre className="example">
          <code>{`curl -sS -O -C - ${origin}${serversFilePath(files[0]?.day ?? "2026-11-30")}\ngunzip -c ${files[0]?.name ?? "servers-2026-11-30.jsonl.gz"} | head -n 1`}</code>
        </pre>
      </section>

      <section aria-labelledby="census-schema-h">
        <h2 id="census-schema-h">{t.censusH}</h2>
        <p>
          <Inline text={t.census} />
        </p>
        <StackTable
          columns={[
            { label: t.column, cell: ([c]) => <code>{c}</code> },
            { label: t.meaning, cell: ([, m]) => m },
          ]}
          rows={t.columns}
          rowKey={([c]) => c}
        />
        <p className="sub">
          {t.todaysColumns[0]}
          <code>{columns.join(", ")}</code>
          <Inline text={t.todaysColumns[1]} />
          <a href="/api/openapi.json">{t.todaysColumns[2]}</a>
          <Inline text={t.todaysColumns[3]} />
        </p>
      </section>

      <section aria-labelledby="servers-schema-h">
        <h2 id="servers-schema-h">{t.serversH}</h2>
        <p>
          <Inline text={t.servers[0]} />
          <a href="/api/openapi.json">{t.servers[1]}</a>
          <Inline text={t.servers[2]} />
        </p>
        <ul>
          <li>
            <Inline text={t.fields[0]} />
          </li>
          <li>
            <Inline text={t.fields[1][0]} />
            <Link href={faqPath(lang, "changelog")}>{t.fields[1][1]}</Link>
            <Inline text={t.fields[1][2]} />
          </li>
          <li>
            <Inline text={t.fields[2]} />
          </li>
        </ul>
      </section>
      <p>
        {t.charts[0]}
        <Link href={localePath(lang, "/census")}>{t.charts[1]}</Link>
        {t.charts[2]}
      </p>
    </>
  );
}
