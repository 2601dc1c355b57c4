import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { CHECK_IDS, type CheckId } from "@/lib/checks/vocabulary";
import { CHECK_LABELS } from "@/lib/site/labels";
import { SUITE_VERSION } from "@/lib/probe/protocol";
import type { Exchange } from "@/lib/probe/types";
import { getRunExchanges, type CheckResultRow } from "@/lib/store/runs";
import { getServerDetail, type ServerDetail } from "@/lib/store/servers";
import { formatDuration, formatRelative, formatUtc } from "@/lib/site/format";
import { badgePath, checkAnchor, nameFromSegments, serverFeedPath, serverJsonPath, serverStatesFeedPath, shieldsEndpointPath } from "@/lib/site/paths";
import { overallState } from "@/lib/site/states";
import { CopyField } from "../../_components/CopyField";
import { ExchangeView } from "../../_components/ExchangeView";
import { ReprobeSection } from "../../_components/ReprobeForm";
import { ServerHistory } from "../../_components/ServerHistory";
import { StateChip } from "../../_components/StateChip";
import { siteDb, siteOrigin } from "../../_lib/db";

export const dynamic = "force-dynamic";

type Params = { params: Promise<{ name: string[] }>; searchParams?: Promise<Record<string, string | string[] | undefined>> };

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const name = nameFromSegments((await params).name);
  const detail = getServerDetail(siteDb(), name);
  if (!detail) return { title: "No such server" };
  return {
    title: name,
    description: `Observed MCP checks for ${name}, with reasons and evidence.`,
    alternates: {
      types: {
        "application/atom+xml": [
          { url: serverFeedPath(name), title: `Tool changes: ${name}` },
          { url: serverStatesFeedPath(name), title: `State changes: ${name}` },
        ],
      },
    },
  };
}

/** Exchanges by run id, so each check shows the run its verdict came from. */
function exchangesByRun(detail: ServerDetail): Map<number, Exchange[]> {
  const map = new Map<number, Exchange[]>();
  if (detail.latestRun) map.set(detail.latestRun.id, detail.exchanges);
  const db = siteDb();
  for (const c of detail.checks) {
    if (!map.has(c.runId)) map.set(c.runId, getRunExchanges(db, c.runId) ?? []);
  }
  return map;
}

function CheckSection({ id, check, detail, runs }: { id: CheckId; check: CheckResultRow | undefined; detail: ServerDetail; runs: Map<number, Exchange[]> }) {
  const history = detail.transitions.filter((t) => t.check === id);
  const evidence = check ? (runs.get(check.runId) ?? []).filter((e) => check.evidence.includes(e.seq)) : [];
  return (
    <section className="check" id={checkAnchor(id)} aria-labelledby={`${checkAnchor(id)}-h`}>
      <h3 id={`${checkAnchor(id)}-h`}>
        <a href={`#${checkAnchor(id)}`}>{CHECK_LABELS.en[id]}</a>
        <StateChip state={check?.state ?? null} />
      </h3>
      {check ? (
        <>
          <p className="reason">{check.reason}</p>
          <dl className="facts">
            <dt>Decided</dt>
            <dd>
              <time dateTime={check.decidedAt}>{formatUtc(check.decidedAt)}</time>
            </dd>
            <dt>In this state since</dt>
            <dd>
              <time dateTime={check.since}>{formatUtc(check.since)}</time>
            </dd>
            <dt>Suite version</dt>
            <dd>
              {check.suiteVersion}
              {check.suiteVersion !== SUITE_VERSION ? ` (current suite is ${SUITE_VERSION}; see the ` : null}
              {check.suiteVersion !== SUITE_VERSION ? <Link href="/faq/changelog">rule changes</Link> : null}
              {check.suiteVersion !== SUITE_VERSION ? ")" : null}
            </dd>
          </dl>
          <h4>Evidence</h4>
          {evidence.length === 0 ? (
            <p className="sub">
              {check.evidence.length === 0
                ? "This verdict rests on no HTTP exchange (nothing was sent, or the reason says why)."
                : "The exchanges behind this verdict were not kept."}
            </p>
          ) : (
            // The last exchange is usually the one that decided; earlier ones start folded on long lists.
            evidence.map((e, i) => (
              <ExchangeView key={e.seq} exchange={e} anchor={`${checkAnchor(id)}-ex-${e.seq}`} open={evidence.length <= 2 || i === evidence.length - 1} />
            ))
          )}
        </>
      ) : (
        <p>Not evaluated yet: this server has not been probed.</p>
      )}
      <h4>History</h4>
      {history.length === 0 ? (
        <p className="sub">No state changes recorded.</p>
      ) : (
        <table className="stack">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">From</th>
              <th scope="col">To</th>
              <th scope="col">Reason</th>
              <th scope="col">Suite</th>
            </tr>
          </thead>
          <tbody>
            {history.map((t, i) => (
              <tr key={`${t.at}-${i}`}>
                <td data-label="When">
                  <time dateTime={t.at}>{formatUtc(t.at)}</time>
                </td>
                <td data-label="From">{t.fromState ? <StateChip state={t.fromState} /> : "first result"}</td>
                <td data-label="To">
                  <StateChip state={t.toState} />
                </td>
                <td data-label="Reason">{t.reason}</td>
                <td data-label="Suite">{t.suiteVersion}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function toolName(tool: unknown): string {
  const n = (tool as { name?: unknown })?.name;
  return typeof n === "string" ? n : "(no name)";
}
function toolDescription(tool: unknown): string | null {
  const d = (tool as { description?: unknown })?.description;
  return typeof d === "string" ? d : null;
}

export default async function ServerPage({ params, searchParams }: Params) {
  const name = nameFromSegments((await params).name);
  const detail = getServerDetail(siteDb(), name);
  if (!detail) notFound();

  const now = new Date();
  const origin = await siteOrigin();
  const runs = exchangesByRun(detail);
  const overall = overallState(detail.states);
  const pageUrl = `${origin}/servers/${name.split("/").map(encodeURIComponent).join("/")}`;
  const badgeUrl = `${origin}${badgePath(name)}`;

  return (
    <>
      <p className="sub">
        <Link href="/">All servers</Link> / registry name <code>{detail.name}</code>
      </p>
      <h1>{detail.title || detail.name}</h1>
      {detail.description ? <p className="lede">{detail.description}</p> : null}

      {detail.leftRegistryAt ? (
        <div className="notice warn" role="note">
          <p>
            <strong>This server left the registry</strong> on <time dateTime={detail.leftRegistryAt}>{formatUtc(detail.leftRegistryAt)}</time>. It
            is no longer probed; the page keeps its last results and history.
          </p>
        </div>
      ) : null}
      {detail.optOut ? (
        <div className="notice" role="note">
          <p>
            The host <code>{detail.host}</code> asked not to be probed ({detail.optOut.source === "robots" ? "robots.txt" : "operator list"}, since{" "}
            {formatUtc(detail.optOut.since)}): {detail.optOut.reason}. No request is sent to it. <Link href="/faq/opting-out">About opting out</Link>.
          </p>
        </div>
      ) : null}
      {detail.needsConfig ? (
        <div className="notice" role="note">
          <p>The registry entry needs configuration before anyone can connect: {detail.needsConfig}</p>
        </div>
      ) : null}

      <dl className="facts">
        <dt>Overall</dt>
        <dd>
          <StateChip state={overall} />
        </dd>
        <dt>Remote URL</dt>
        <dd>{detail.remoteUrl ? <code>{detail.remoteUrl}</code> : "none listed"}</dd>
        <dt>Transport</dt>
        <dd>{detail.transport ?? "–"}</dd>
        <dt>Registry status</dt>
        <dd>
          {detail.leftRegistryAt ? `left the registry ${formatUtc(detail.leftRegistryAt)}` : detail.registryStatus}
          {detail.version ? ` · version ${detail.version}` : ""}
        </dd>
        <dt>Era · revision</dt>
        <dd>
          {detail.era ?? "–"}
          {detail.protocolVersion ? ` · ${detail.protocolVersion}` : ""}
        </dd>
        <dt>Last probed</dt>
        <dd>
          {detail.lastProbedAt ? (
            <>
              <time dateTime={detail.lastProbedAt}>{formatUtc(detail.lastProbedAt)}</time> ({formatRelative(detail.lastProbedAt, now)}
              {detail.latestRun ? `, ${detail.latestRun.requests} requests in ${formatDuration(detail.latestRun.durationMs)}` : ""})
            </>
          ) : (
            "not yet"
          )}
        </dd>
        <dt>Last complete read</dt>
        <dd>
          {detail.lastSuccessAt ? (
            <>
              <time dateTime={detail.lastSuccessAt}>{formatUtc(detail.lastSuccessAt)}</time> ({formatRelative(detail.lastSuccessAt, now)})
            </>
          ) : (
            "never: the tool list has not been read to its end yet"
          )}
        </dd>
        <dt>Next probe</dt>
        <dd>
          {detail.leftRegistryAt ? (
            "none (left the registry)"
          ) : detail.schedule.nextDueAt ? (
            <>
              <time dateTime={detail.schedule.nextDueAt}>{formatUtc(detail.schedule.nextDueAt)}</time> ({formatRelative(detail.schedule.nextDueAt, now)})
              {detail.schedule.scheduleReason ? `: ${detail.schedule.scheduleReason}` : ""}
            </>
          ) : (
            "with the next round"
          )}
          {detail.schedule.consecutiveFailures > 0 ? ` · ${detail.schedule.consecutiveFailures} failed probes in a row` : ""}
        </dd>
      </dl>

      <ServerHistory name={name} now={now} />
      <ReprobeSection name={name} leftRegistry={!!detail.leftRegistryAt} optedOut={!!detail.optOut} query={(await searchParams) ?? {}} />

      <section aria-labelledby="checks-h">
        <h2 id="checks-h">Checks</h2>
        <ul className="check-nav">
          {CHECK_IDS.map((id) => (
            <li key={id}>
              <a href={`#${checkAnchor(id)}`}>{CHECK_LABELS.en[id]}</a> <StateChip state={detail.states[id]} />
            </li>
          ))}
        </ul>
        <p className="sub">
          Each check links to itself (<code>#check-&lt;id&gt;</code>). States are observations of one anonymous probe, not a certification;{" "}
          <Link href="/faq/refusals">how refusals are recorded</Link>.
        </p>
        {CHECK_IDS.map((id) => (
          <CheckSection key={id} id={id} check={detail.checks.find((c) => c.check === id)} detail={detail} runs={runs} />
        ))}
      </section>

      <section aria-labelledby="tools-h">
        <h2 id="tools-h">Tools{detail.tools ? ` (${detail.tools.length})` : ""}</h2>
        {detail.tools === null ? (
          <p>The complete tool list has not been read.</p>
        ) : detail.tools.length === 0 ? (
          <p>The server lists no tools.</p>
        ) : (
          <ul className="tool-list">
            {detail.tools.map((t, i) => (
              <li key={i}>
                <code>{toolName(t)}</code>
                {toolDescription(t) ? <div className="sub">{toolDescription(t)}</div> : null}
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="changes-h">
        <h2 id="changes-h">Tool-definition changes</h2>
        <p>
          <a href={serverFeedPath(name)}>Atom feed of this server&apos;s changes</a>
        </p>
        {detail.toolChanges.length === 0 ? (
          <p className="sub">No change recorded since the first complete tool list.</p>
        ) : (
          <table className="stack">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Tool</th>
                <th scope="col">Change</th>
                <th scope="col">Field</th>
                <th scope="col">Before</th>
                <th scope="col">After</th>
              </tr>
            </thead>
            <tbody>
              {detail.toolChanges.map((c, i) => (
                <tr key={i}>
                  <td data-label="When">
                    <time dateTime={c.at}>{formatUtc(c.at)}</time>
                  </td>
                  <td data-label="Tool">
                    <code>{c.toolName}</code>
                  </td>
                  <td data-label="Change">{c.kind}</td>
                  <td data-label="Field">{c.path ? <code>{c.path}</code> : "whole tool"}</td>
                  <td data-label="Before">{c.before !== null ? <code>{c.before}</code> : "–"}</td>
                  <td data-label="After">{c.after !== null ? <code>{c.after}</code> : "–"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>

      <section aria-labelledby="links-h">
        <h2 id="links-h">Link to this report</h2>
        <p>
          Badges are SVG images: <code>/badge/&lt;registry name&gt;</code> for the overall state and{" "}
          <code>/badge/&lt;registry name&gt;?check=&lt;check id&gt;</code> for one check (ids: {CHECK_IDS.join(", ")}). The same paths under{" "}
          <code>/api/badge/</code> answer shields.io endpoint JSON. Badges are cached for five minutes.
        </p>
        <p>
          <img src={badgePath(name)} alt={`MCP status badge for ${name}`} height={20} />
        </p>
        <CopyField label="Badge (Markdown)" text={`[![MCP status](${badgeUrl})](${pageUrl})`} />
        <CopyField label="Badge (HTML)" text={`<a href="${pageUrl}"><img src="${badgeUrl}" alt="MCP status"></a>`} />
        <CopyField label="JSON" text={`${origin}${serverJsonPath(name)}`} />
        <CopyField label="shields.io endpoint" text={`https://img.shields.io/endpoint?url=${encodeURIComponent(`${origin}${shieldsEndpointPath(name)}`)}`} />
        <CopyField label="Link to one check (handshake)" text={`${pageUrl}#${checkAnchor("handshake")}`} />
      </section>
    </>
  );
}
