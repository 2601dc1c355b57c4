import Link from "next/link";
import { REFUSAL_STATES } from "@/lib/checks/refusal";
import type { CheckState, RefusalCode } from "@/lib/vocabulary/checks";
import { MODERN_REVISION } from "@/lib/probe/protocol";
import {
  CENSUS_WINDOWS,
  censusCharts,
  censusCompleteness,
  censusPath,
  REFUSAL_LABELS_ZH,
  windowDays,
  type CensusWindow,
} from "@/lib/site/census";
import { formatPercent } from "@/lib/site/format";
import type { Lang } from "@/lib/site/labels";
import { DATA_PATH } from "@/lib/site/paths";
import { REFUSAL_LABELS, tallyRefusals } from "@/lib/site/refusals";
import { listCensusDays } from "@/lib/store/census";
import { completeReadCensus, refusalCounts } from "@/lib/store/runs";
import { revisionCensus } from "@/lib/store/servers/counts";
import { observationCensus, serversRead, serversWithObservations } from "@/lib/store/observations";
import { observationAnchor } from "@/lib/site/tool-view";
import { faqPath } from "@/lib/site/paths";
import { StateChip } from "../StateChip";
import { siteDb } from "../../_lib/db";
import { CensusChart } from "./CensusChart";
import { StackTable } from "../StackTable";

// /census and /zh/census: the census over time (one chart and one table per count, for the window in the URL), then today's
// snapshot of the latest results. Server-rendered; nothing on it needs JavaScript.

const refusalLabel = (lang: Lang) => (code: string) =>
  code === "uncoded"
    ? lang === "zh"
      ? "记录拒绝方式之前存下的结果"
      : "Stored before refusal shapes were recorded"
    : (lang === "zh" ? REFUSAL_LABELS_ZH : REFUSAL_LABELS)[code as RefusalCode];

const T = {
  en: {
    h1: "Census",
    lede: "How the servers in the registry speak MCP, day by day: which protocol revision we agreed with each, how many sit behind a credential gate, how each refuses a call to a tool that does not exist. Each day counts every server still listed by its latest result after the day's first round. This describes these servers, not every MCP deployment.",
    windowNav: "Time window",
    windows: { "90d": "90 days", "1y": "1 year", all: "All days" } as Record<CensusWindow, string>,
    over: "Over time",
    noRows: "No daily row yet: the first is written after the first round of a UTC day.",
    completeFrom: (d: string) => (
      <>
        The series is complete from <strong>{d}</strong>: from that day on each row was written after that day&apos;s first round.
      </>
    ),
    notComplete: "No row has been written by a round yet; the rows below were rebuilt from stored probes.",
    rebuilt: (from: string) =>
      ` Rows from ${from} until then were rebuilt from the probes still stored: they have revisions, eras, auth outcomes and overall states, but no transports or refusal shapes.`,
    gaps: " A day without a round has no row and shows as a gap.",
    data: " Download the daily rows as CSV or JSON, and every server's state per day: ",
    end: ".",
    dataLink: "open data",
    today: "Today, by each server's latest result",
    readH: "Tool lists read to the end",
    readP: (
      <>
        A server counts as read when its whole tool list was read, page after page, to the end, even if some definitions in it are
        malformed: that is what clients get, so it counts for <Link href="/coverage">coverage</Link>, the last complete read and tool
        history. A list whose pages never end does not count. By each server&apos;s latest probe:
      </>
    ),
    readRows: [
      "Read to the end, every definition well-formed",
      "Read to the end, some definitions malformed (duplicate names, no object inputSchema, no name)",
      "Not read to the end (pages that never end, failures, credential gates, slow-downs, the probe's deadline)",
    ],
    noneProbed: "No server probed yet.",
    revH: "Agreed protocol revisions",
    noRev: "No revision agreed yet.",
    modernLine: (modern: string, legacy: string) => (
      <>
        Modern ({MODERN_REVISION}, <code>server/discover</code>): <strong>{modern}</strong>. Legacy (<code>initialize</code>):{" "}
        <strong>{legacy}</strong>.
      </>
    ),
    revision: "Revision",
    era: "Era",
    modern: "modern",
    legacy: "legacy",
    servers: "Servers",
    share: "Share",
    shareBar: "Share as a bar",
    refH: "Refusal shapes",
    refP: (
      <>
        The <Link href="/faq/withheld-call">reserved-tool call</Link> asks each server for a tool that cannot exist. How it says no decides
        the error taxonomy check; <Link href="/faq/refusals">how refusals are recorded</Link> explains each outcome.
      </>
    ),
    noRef: "No error taxonomy result yet.",
    uncoded: (n: string) =>
      `${n} more results were stored before the probe recorded refusal shapes; they are counted here after their server's next probe.`,
    shape: "Shape of the answer",
    toolList: "Tool list",
    recordedAs: "Recorded as",
    obsH: "Observations on tool definitions",
    obsP: (read: string, withAny: string) => (
      <>
        Facts about what the tool lists say, never verdicts: hidden characters, a few narrow phrases and spec facts (
        <Link href={faqPath("en", "tool-observations")}>each code and its exact definition</Link>). Servers whose latest complete read
        carries each code, out of the {read} servers in the registry with a complete read; <strong>{withAny}</strong> carry at least one. No
        server&apos;s state depends on them.
      </>
    ),
    noRead: "No tool list read yet.",
    code: "Code",
    observations: "Observations",
  },
  zh: {
    h1: "全站统计",
    lede: "注册表里的服务端每天如何使用 MCP：与每个服务端商定了哪个协议版本，有多少挡在凭据拦截之后，调用一个不存在的工具时各自怎样拒绝。每天的数字按当天第一轮探测结束后各服务端最近一次结果统计，只计仍在注册表中的服务端。它描述的是这些服务端，而不是所有 MCP 部署。",
    windowNav: "时间范围",
    windows: { "90d": "90 天", "1y": "1 年", all: "全部" } as Record<CensusWindow, string>,
    over: "随时间的变化",
    noRows: "还没有逐日记录：每个 UTC 日的第一轮探测结束后写入第一行。",
    completeFrom: (d: string) => (
      <>
        从 <strong>{d}</strong> 起数据完整：此后每一行都在当天第一轮探测结束后写入。
      </>
    ),
    notComplete: "还没有哪一行是探测轮次写入的；下面的行都由仍保存的探测记录重建。",
    rebuilt: (from: string) =>
      `在那之前、自 ${from} 起的行由仍保存的探测记录重建：有协议版本、握手类型、鉴权情况和总体状态，但没有传输方式和拒绝方式。`,
    // Chinese runs on after full-width punctuation with no space, and ends with 。 (English keeps its spaces and period).
    gaps: "没有探测轮次的日子没有记录，图上留白。",
    data: "逐日数据可下载为 CSV 或 JSON，另有每天每个服务端的状态：",
    end: "。",
    dataLink: "开放数据",
    today: "今天：按各服务端最近一次结果",
    readH: "完整读到结尾的工具列表",
    readP: (
      <>
        一个服务端的工具列表被逐页读到最后一页，就算“读到”，即使其中有格式不对的定义：客户端拿到的就是这些，所以它计入
        <Link href="/coverage">覆盖数</Link>、最近一次完整读取和工具变更记录。分页永远不结束的列表不算。按各服务端最近一次探测：
      </>
    ),
    readRows: [
      "读到结尾，所有定义格式正确",
      "读到结尾，有些定义格式不对（名字重复、inputSchema 不是对象、没有名字）",
      "没有读到结尾（分页不结束、失败、凭据拦截、被要求放慢、探测器时限）",
    ],
    noneProbed: "还没有探测过任何服务端。",
    revH: "商定的协议版本",
    noRev: "还没有商定任何协议版本。",
    modernLine: (modern: string, legacy: string) => (
      <>
        新版（{MODERN_REVISION}，<code>server/discover</code>）：<strong>{modern}</strong>。旧版（<code>initialize</code>）：
        <strong>{legacy}</strong>。
      </>
    ),
    revision: "协议版本",
    era: "握手类型",
    modern: "新版",
    legacy: "旧版",
    servers: "服务端",
    share: "占比",
    shareBar: "占比条",
    refH: "拒绝调用的方式",
    refP: (
      <>
        探测器会调用一个不可能存在的保留工具名。服务端怎样拒绝，决定错误分类检查的结果；
        <Link href="/zh/faq/refusals">拒绝方式如何记录</Link>里有每种结果的说明。
      </>
    ),
    noRef: "还没有错误分类结果。",
    uncoded: (n: string) => `另有 ${n} 个结果存于探测器开始记录拒绝方式之前；这些服务端下次被探测后会计入这里。`,
    shape: "回应的样子",
    toolList: "工具列表",
    recordedAs: "记录为",
    obsH: "工具定义上的观察",
    obsP: (read: string, withAny: string) => (
      <>
        这些是关于工具列表内容的事实，不是评判：隐藏字符、几类措辞很窄的句子，以及规范层面的事实（
        <Link href={faqPath("zh", "tool-observations")}>每个代码及其确切定义</Link>
        ）。下表按代码统计最近一次完整读取带有该代码的服务端，分母是注册表中有完整读取的 {read} 个服务端；其中 <strong>{withAny}</strong>{" "}
        个至少带有一个。任何服务端的状态都不取决于它们。
      </>
    ),
    noRead: "还没有读到任何工具列表。",
    code: "代码",
    observations: "观察条数",
  },
};

const count = (lang: Lang, n: number) => n.toLocaleString(lang === "zh" ? "zh-CN" : "en-US");

export function CensusView({ lang, window }: { lang: Lang; window: CensusWindow }) {
  const t = T[lang];
  const db = siteDb();
  const rows = listCensusDays(db);
  const today = new Date().toISOString().slice(0, 10);
  const days = windowDays(window, today, rows[0]?.day);
  const charts = censusCharts(rows, days, lang, refusalLabel(lang));
  const { completeFrom, rebuiltFrom } = censusCompleteness(rows);

  return (
    <>
      <h1>{t.h1}</h1>
      <p className="lede">{t.lede}</p>

      <section aria-labelledby="over-h">
        <h2 id="over-h">{t.over}</h2>
        <nav aria-label={t.windowNav} className="window-nav">
          <ul>
            {CENSUS_WINDOWS.map((w) => (
              <li key={w}>
                {w === window ? <span aria-current="page">{t.windows[w]}</span> : <Link href={censusPath(lang, w)}>{t.windows[w]}</Link>}
              </li>
            ))}
          </ul>
        </nav>
        <p id="census-complete">
          {rows.length === 0 ? (
            t.noRows
          ) : (
            <>
              {completeFrom ? t.completeFrom(completeFrom) : t.notComplete}
              {rebuiltFrom && (!completeFrom || rebuiltFrom < completeFrom) ? t.rebuilt(rebuiltFrom) : null}
              {t.gaps}
            </>
          )}
          {t.data}
          <Link href={DATA_PATH}>{t.dataLink}</Link>
          {t.end}
        </p>
        {charts.map((m) => (
          <CensusChart key={m.id} model={m} days={days} lang={lang} />
        ))}
      </section>

      <h2 id="today-h">{t.today}</h2>
      <Snapshot lang={lang} />
    </>
  );
}

function Snapshot({ lang }: { lang: Lang }) {
  const t = T[lang];
  const db = siteDb();
  const revisions = revisionCensus(db);
  const refusals = tallyRefusals(refusalCounts(db));
  const totalRev = revisions.reduce((n, r) => n + r.count, 0);
  const modern = revisions.filter((r) => r.protocolVersion === MODERN_REVISION).reduce((n, r) => n + r.count, 0);
  const reads = completeReadCensus(db);
  const probed = reads.reduce((n, r) => n + r.count, 0);
  const readsOf = (complete: boolean, state?: CheckState) =>
    reads.filter((r) => r.complete === complete && (state === undefined || r.toolsList === state)).reduce((n, r) => n + r.count, 0);
  const readRows = [
    { key: "ok", label: t.readRows[0]!, state: "verified" as CheckState | null, count: readsOf(true, "verified") },
    { key: "malformed", label: t.readRows[1]!, state: "observed_risk" as CheckState | null, count: readsOf(true, "observed_risk") },
    { key: "unread", label: t.readRows[2]!, state: null, count: readsOf(false) },
  ];
  const share = (n: number, total: number) => `${count(lang, n)} (${formatPercent(n, total)})`;
  const observed = observationCensus(db);
  const withObservations = serversWithObservations(db);
  const everRead = serversRead(db);
  const label = refusalLabel(lang);

  return (
    <>
      <section aria-labelledby="read-h">
        <h3 id="read-h">{t.readH}</h3>
        <p>{t.readP}</p>
        {probed === 0 ? <p>{t.noneProbed}</p> : <StateShareTable lang={lang} what={t.toolList} rows={readRows} total={probed} />}
      </section>

      <section aria-labelledby="obs-h">
        <h3 id="obs-h">{t.obsH}</h3>
        <p>{t.obsP(count(lang, everRead), count(lang, withObservations))}</p>
        {everRead === 0 ? (
          <p>{t.noRead}</p>
        ) : (
          <StackTable
            id="observation-counts"
            columns={[
              {
                label: t.code,
                cell: (o) => (
                  <Link href={`${faqPath(lang, "tool-observations")}#${observationAnchor(o.code)}`}>
                    <code>{o.code}</code>
                  </Link>
                ),
              },
              { label: t.servers, className: "num", cell: (o) => count(lang, o.servers) },
              { label: t.share, className: "num", cell: (o) => formatPercent(o.servers, everRead) },
              { label: t.observations, className: "num", cell: (o) => count(lang, o.observations) },
            ]}
            rows={observed}
            rowKey={(o) => o.code}
            rowProps={(o) => ({ "data-code": o.code })}
          />
        )}
      </section>

      <section aria-labelledby="rev-h">
        <h3 id="rev-h">{t.revH}</h3>
        {totalRev === 0 ? (
          <p>{t.noRev}</p>
        ) : (
          <>
            <p>{t.modernLine(share(modern, totalRev), share(totalRev - modern, totalRev))}</p>
            <StackTable
              columns={[
                { label: t.revision, cell: (r) => <code>{r.protocolVersion}</code> },
                { label: t.era, cell: (r) => (r.protocolVersion === MODERN_REVISION ? t.modern : t.legacy) },
                { label: t.servers, className: "num", cell: (r) => count(lang, r.count) },
                { label: t.share, className: "num", cell: (r) => formatPercent(r.count, totalRev) },
                {
                  label: t.shareBar,
                  head: <span className="visually-hidden">{t.shareBar}</span>,
                  className: "bar-cell",
                  decorative: true,
                  cell: (r) => <span className="share-bar" style={{ width: `${(r.count / totalRev) * 100}%` }} />,
                },
              ]}
              rows={revisions}
              rowKey={(r) => `${r.protocolVersion}-${r.era}`}
            />
          </>
        )}
      </section>

      <section aria-labelledby="ref-h">
        <h3 id="ref-h">{t.refH}</h3>
        <p>{t.refP}</p>
        {refusals.total === 0 ? (
          <p>{t.noRef}</p>
        ) : (
          <StateShareTable
            lang={lang}
            what={t.shape}
            rows={refusals.byCode.map(([code, n]) => ({ key: code, label: label(code), state: REFUSAL_STATES[code], count: n }))}
            total={refusals.total}
          />
        )}
        {refusals.uncoded > 0 && <p>{t.uncoded(count(lang, refusals.uncoded))}</p>}
      </section>
    </>
  );
}

/** Servers per row with their share of `total`, and the state each row is recorded as ("–" when it varies). */
function StateShareTable({
  lang,
  what,
  rows,
  total,
}: {
  lang: Lang;
  what: string;
  rows: { key: string; label: string; state: CheckState | null; count: number }[];
  total: number;
}) {
  const t = T[lang];
  return (
    <StackTable
      columns={[
        { label: what, cell: (r) => r.label },
        { label: t.recordedAs, cell: (r) => (r.state ? <StateChip state={r.state} lang={lang} /> : "–") },
        { label: t.servers, className: "num", cell: (r) => count(lang, r.count) },
        { label: t.share, className: "num", cell: (r) => formatPercent(r.count, total) },
      ]}
      rows={rows}
      rowKey={(r) => r.key}
    />
  );
}
