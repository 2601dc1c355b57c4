import type { Metadata } from "next";
import Link from "next/link";
import { getConfig } from "@/lib/config";
import { listServersFiles, SERVERS_FILE_KEEP_DAYS } from "@/lib/rounds/open-data";
import { censusCsvColumns, DATA_LICENSE } from "@/lib/site/census-data";
import { formatCount } from "@/lib/site/format";
import { counted, WORDS } from "@/lib/site/plural";
import { siteOrigin } from "@/app/_lib/db";
import { CENSUS_CSV_PATH, CENSUS_JSON_PATH, serversFilePath } from "@/lib/site/paths";
import { listCensusDays } from "@/lib/store/census";
import { siteDb } from "@/app/_lib/db";
import { pageLang } from "@/app/_lib/lang";
import { pageMetadata } from "@/app/_lib/meta";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ lang: string }> };

export const generateMetadata = async ({ params }: Props): Promise<Metadata> =>
  pageMetadata({
    path: "/data",
    lang: await pageLang(params),
    title: "Open data",
    description: `The daily census of remote MCP servers and every server's state per day, as CSV, JSON and JSON Lines, under ${DATA_LICENSE.id}.`,
  });

const kb = (bytes: number) => (bytes < 1024 ? `${bytes} bytes` : `${formatCount(Math.round(bytes / 1024))} KB`);

const COUNTS: [string, string][] = [
  ["era:<era>", "modern (server/discover), legacy (initialize or HTTP+SSE), unknown (no handshake completed), none (never probed)."],
  ["transport:<transport>", "streamable-http or sse: the transport of the remote the probe uses, for servers with one (not those that need configuration). Empty on rebuilt days."],
  [
    "auth:<outcome>",
    "open (the handshake completed without a credential), gate_usable_metadata (a credential gate stopped the handshake or the tool list and auth_metadata is Verified), gate_no_usable_metadata (a gate, and auth_metadata is not Verified), not_reached (failed, slowed down, opted out, needs configuration, never probed), unknown (a result that does not say).",
  ],
  ["overall:<state>", "verified, failed, observed_risk, not_checked, none (never probed), unknown (a rebuilt day's run stored before overall states were)."],
  ["not_checked:<cause>", "Servers whose overall state is Not checked, by its cause: credential_required, slow_down, opted_out, needs_configuration, …"],
  ["refusal:<code>", "The refusal code of error_taxonomy, for servers with that result (uncoded: stored before codes were). Empty on rebuilt days."],
  ["revision:<revision>", "Servers with which that protocol revision was agreed; a column for every revision seen."],
  ["observation:<code>", "Servers whose latest complete read carries that observation code; no such column until observations are recorded."],
];

export default async function DataPage() {
  const origin = await siteOrigin();
  const rows = listCensusDays(siteDb());
  const files = listServersFiles(getConfig().openDataDir);
  const columns = censusCsvColumns(rows);
  return (
    <>
      <h1>Open data</h1>
      <p className="lede">
        What the site measures, to download and study: one row of counts per UTC day since the census began, and every server&apos;s
        state on each of the last {SERVERS_FILE_KEEP_DAYS} days. Served as files; nothing is computed per download.
      </p>
      <p className="notice" role="note" id="licence">
        Licence: <a href={DATA_LICENSE.url}>{DATA_LICENSE.name}</a> ({DATA_LICENSE.id}). Use it for anything, and say where it came from:
        &ldquo;mcp-status census&rdquo; with a link to this page. The server names, URLs and descriptions in it are the MCP registry&apos;s.
      </p>

      <section aria-labelledby="downloads-h">
        <h2 id="downloads-h">Downloads</h2>
        <table className="stack">
          <thead>
            <tr>
              <th scope="col">File</th>
              <th scope="col">What</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <td data-label="File">
                <a href={CENSUS_CSV_PATH}>census.csv</a>
              </td>
              <td data-label="What">The daily rows, one column per count ({counted(rows.length, WORDS.day)}).</td>
            </tr>
            <tr>
              <td data-label="File">
                <a href={CENSUS_JSON_PATH}>census.json</a>
              </td>
              <td data-label="What">
                The same rows as JSON: <code>{"{license, days: [CensusDay]}"}</code>.
              </td>
            </tr>
            {files.map((f) => (
              <tr key={f.name}>
                <td data-label="File">
                  <a href={serversFilePath(f.day)}>{f.name}</a>
                </td>
                <td data-label="What">
                  Every listed server on {f.day}, one JSON object per line, gzip ({kb(f.bytes)}).
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {files.length === 0 ? <p>No daily server file yet: the first is written after the first round of a UTC day.</p> : null}
        <p>
          The day files are written once a day, after the day&apos;s first round, and kept {SERVERS_FILE_KEEP_DAYS} days; a day that is
          not there answers 404, a name whose day is not a date answers 400. They carry an <code>ETag</code> and answer byte ranges, so
          a download can resume:
        </p>
        <pre className="example">
          <code>{`curl -sS -O -C - ${origin}${serversFilePath(files[0]?.day ?? "2026-11-30")}\ngunzip -c ${files[0]?.name ?? "servers-2026-11-30.jsonl.gz"} | head -n 1`}</code>
        </pre>
      </section>

      <section aria-labelledby="census-schema-h">
        <h2 id="census-schema-h">census.csv and census.json</h2>
        <p>
          One row per UTC day on which a round finished. It counts every server listed in the registry at the end of that day&apos;s first
          round, each by its latest stored result, so every group of counts adds up to <code>registry</code>. A day without a round has
          no row. Rows are never deleted. Rows with <code>source</code> <code>backfill</code> were rebuilt afterwards from the probes still
          stored (kept 30 days): they have no transports and no refusal shapes, and <code>uncertain</code> counts servers whose latest
          stored probe was older than that.
        </p>
        <table className="stack">
          <thead>
            <tr>
              <th scope="col">Column</th>
              <th scope="col">Meaning</th>
            </tr>
          </thead>
          <tbody>
            {(
              [
                ["day", "The UTC day, YYYY-MM-DD."],
                ["source", "round (written after that day's first round) or backfill (rebuilt later)."],
                ["as_of", "The moment the counts describe: the end of the day's first round."],
                ["registry", "Servers listed in the registry then."],
                ["probed", "Of those, servers probed at least once."],
                ["uncertain", "Rebuilt days only: servers counted by a probe older than the run retention."],
                ["needs_configuration", "Servers Not checked because every listed remote needs the user's own values."],
                ...COUNTS,
              ] as [string, string][]
            ).map(([c, m]) => (
              <tr key={c}>
                <td data-label="Column">
                  <code>{c}</code>
                </td>
                <td data-label="Meaning">{m}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <p className="sub">
          Today&apos;s columns: <code>{columns.join(", ")}</code>. In census.json the groups are objects (<code>eras</code>,{" "}
          <code>transports</code>, <code>auth</code>, <code>overall</code>, <code>notCheckedCauses</code>, <code>refusals</code>,{" "}
          <code>revisions</code>, <code>observations</code>), null where the CSV has empty cells; the schema is <code>CensusAnswer</code>{" "}
          in <a href="/api/openapi.json">the OpenAPI document</a>.
        </p>
      </section>

      <section aria-labelledby="servers-schema-h">
        <h2 id="servers-schema-h">servers-YYYY-MM-DD.jsonl.gz</h2>
        <p>
          Every server listed in the registry when the file was written, ordered by name, one JSON object per line (the{" "}
          <code>OpenDataServer</code> schema of <a href="/api/openapi.json">the OpenAPI document</a>):
        </p>
        <ul>
          <li>
            <code>name</code>, <code>remoteUrl</code> (the remote the probe reads), <code>transport</code>, <code>era</code>,{" "}
            <code>protocolVersion</code> (the agreed revision);
          </li>
          <li>
            <code>checks</code>: for each of <code>handshake</code>, <code>protocol_version</code>, <code>tools_list</code>,{" "}
            <code>error_taxonomy</code>, <code>auth_metadata</code>, its <code>state</code> and the <code>suiteVersion</code> that decided
            it (<Link href="/faq/changelog">rule changes</Link>);
          </li>
          <li>
            <code>overall</code> and <code>overallCause</code>; <code>uptime30d</code> (<code>ratio</code>, <code>up</code>,{" "}
            <code>reached</code> over 30 whole UTC days); <code>lastProbedAt</code> and <code>lastSuccessAt</code> (the last complete read).
          </li>
        </ul>
      </section>
      <p>
        The charts drawn from these rows are on <Link href="/census">the census page</Link>.
      </p>
    </>
  );
}
