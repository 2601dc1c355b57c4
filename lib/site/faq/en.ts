import { CHECK_LABELS, STATE_LABELS } from "../labels";
import { LEGACY_REVISIONS, MODERN_REVISION, RESERVED_TOOL_NAME } from "../../probe/protocol";
import {
  OPT_OUT_COMMAND,
  PROBE_COMMAND,
  ROBOTS_EXAMPLE,
  ROBOTS_TOKEN,
  SELF_TEST_CLI,
  SELF_TEST_CURL,
  USER_AGENT_EXAMPLE,
} from "./facts";
import type { FaqBook, FaqChrome } from "./types";

const S = STATE_LABELS.en;
const C = CHECK_LABELS.en;

export const FAQ_CHROME_EN: FaqChrome = {
  indexTitle: "Questions and answers",
  indexLede: "How the probe decides each state, what it will and will not do, and how to keep it away from your host.",
  otherLanguage: "中文",
  otherLanguageLabel: "Read this page in Chinese",
  changesSince: (d) => `Rule changes since this page first appeared (${d})`,
  noChangesSince: (d) => `No rule has changed since this page first appeared (${d}).`,
  unversioned: "no version bump",
  suite: (v) => `suite ${v}`,
  currentSuite: (v) => `The current check suite is ${v}.`,
  backToIndex: "All questions",
};

export const FAQ_EN: FaqBook = {
  refusals: {
    title: "Four ways a server says no, and which ones count against it",
    summary: "How the error taxonomy and auth metadata checks tell a good refusal from a broken one.",
    firstPublished: "2026-09-14",
    body: [
      {
        p: `When everything goes well, a server answers with its protocol revision and its tools, and there is little to say. The refusals are where clients get hurt: a server that declines in a shape clients understand is doing its job, while one that declines in a shape nobody can parse will eventually crash an agent in the middle of the night. The \`error_taxonomy\` and \`auth_metadata\` checks exist to tell those cases apart.`,
      },
      { h2: "1. A well-formed JSON-RPC error", id: "jsonrpc-error" },
      {
        p: `The probe calls a tool that cannot exist (see [the withheld call](/faq/withheld-call)). The right answer is a JSON-RPC error object: \`jsonrpc\`, the request \`id\`, and an \`error\` carrying an integer \`code\` and a string \`message\`, whether it arrives as plain JSON or inside an SSE stream, and whatever the HTTP status. ${C.error_taxonomy} records it as **${S.verified}**, and the reason names the code. \`-32602\` is the code the specification prescribes for an unknown tool; other codes still count as a proper refusal.`,
      },
      {
        p: `A result with \`isError: true\` is also **${S.verified}**: many SDKs report an unknown tool through the tool-error channel instead of \`-32602\`, and clients cope with that. The reason says which channel was used.`,
      },
      { h2: "2. A bare 401 or 403 before the protocol starts", id: "pre-dispatch" },
      {
        p: `Many endpoints sit behind an authentication layer. A request without credentials is stopped there, and the JSON-RPC handler never sees it, so the body is often not JSON-RPC at all. That is fine: the refusal happened before dispatch and tells us nothing about how the server shapes its errors. ${C.error_taxonomy} treats a bare 401 or 403 as a legitimate refusal and records **${S.verified}**.`,
      },
      {
        p: `During the handshake a 401 matters more, and the probe looks at it carefully. A 401 to the first \`server/discover\` request decides nothing by itself: like any 4xx without one of the modern rejection codes, it sends the probe to the legacy \`initialize\` handshake. What counts is the answer that ends the handshake:`,
      },
      {
        ul: [
          `A 401 with a structurally valid \`WWW-Authenticate\` challenge means "credentials required". We never send credentials, so ${C.handshake}, ${C.protocol_version} and ${C.tools_list} are **${S.not_checked}** with the reason "credential required". That is not a failure: we could not look past your gate, which says nothing about the gate being broken. If discovery is behind authentication on purpose, this is the expected result and nothing needs fixing.`,
          `A 401 without a valid challenge is not a credential gate, only a refusal with no instructions. The discovery checks are **${S.failed}**.`,
        ],
      },
      { h2: "3. A modern rejection of the handshake", id: "modern-rejection" },
      {
        p: `Revision ${MODERN_REVISION} defines three JSON-RPC codes for turning a handshake down on purpose: \`-32020\`, \`-32021\` and \`-32022\`. When \`server/discover\` gets one of them (any HTTP status, JSON or SSE body), the modern handshake reached the server and was declined. That is a real mismatch between client and server, not a hint that the server is a legacy one, so the probe does **not** fall back. The discovery checks are **${S.failed}**, with the code and message in the reason.`,
      },
      {
        p: `Every other 4xx to \`server/discover\` whose body is not one of those three codes is the legacy signal, and the probe retries with \`initialize\`, whatever the status, code or id in the body. Since suite 0.10.0 the same goes for a 2xx that is neither a discover result nor one of the three codes. A 429, or a 503 with \`Retry-After\`, is not a fallback signal: it means "slow down", and the probe sends nothing more to that server in that round. An earlier rule that only accepted an exact 400 once marked a fully compliant legacy server as failing three checks; [observed, unsigned](/faq/observed-unsigned) explains the fix and how to test your own server.`,
      },
      { h2: "4. The malformed no", id: "malformed" },
      {
        p: `Anything that is neither a well-formed JSON-RPC error nor a pre-dispatch 401 or 403: an HTML error page, a 500 with a stack trace, a 200 carrying \`{"error":"nope"}\` with no \`jsonrpc\` field, an empty body, or a success result for a tool that does not exist. The server did refuse, but a client cannot tell why or what to do next. ${C.error_taxonomy} records **${S.observed_risk}**: not ${S.failed}, because refusing is correct behaviour, but flagged, because that shape will cost some client an unhandled exception.`,
      },
      {
        p: `The one exception is "slow down" (429, or 503 with \`Retry-After\`): the probe stops for the round and ${C.error_taxonomy} is **${S.not_checked}** with that reason.`,
      },
      { h2: "What auth metadata records", id: "auth-metadata" },
      {
        p: `When a server presents a proper challenge, ${C.auth_metadata} follows it one step further, as a client would: the challenge should point at protected-resource metadata that a client can fetch. The challenge used is the credential gate's, or else the first 401 or 403 with a valid challenge seen during the probe.`,
      },
      {
        table: {
          head: ["What the probe sees", "Recorded as"],
          rows: [
            ["No challenge was presented at all", S.not_checked],
            ["A challenge without a `resource_metadata` URL", `${S.not_checked}, with the reason`],
            ["A metadata URL on another host that asked not to be probed (nothing is fetched; suite 0.11.0)", `${S.not_checked}, with the reason`],
            ["A metadata URL the address policy refuses (a private range)", `${S.not_checked}, with the reason`],
            ["The metadata URL answers an HTTP error or a redirect", S.observed_risk],
            ["The body is not valid JSON", S.observed_risk],
            ["Valid JSON, but a bare string, number, boolean, null or an array", S.observed_risk],
            ["The challenge's `scope` names a scope the metadata does not list", S.observed_risk],
            ["429, or 503 with `Retry-After`", `${S.not_checked} (slow down)`],
            ["A JSON object with consistent scopes", `${S.verified}; the reason names the resource and authorization servers`],
          ],
        },
      },
      {
        p: `None of these is a verdict on whether your authentication is sound. They say whether a client that follows the specification can find out how to authenticate, which is the only part of authentication visible from outside, and the only part we claim to see.`,
      },
      { h2: "Why four outcomes and not one", id: "why" },
      {
        p: `Rendering every refusal as ${S.failed} would be simpler and wrong both ways: it would punish servers that put discovery behind a gate on purpose, and it would hide a malformed refusal behind the same red mark as an honest 401. Four kinds of no get four different records, each with its reason and evidence, and readers decide which ones matter for the agent they are about to connect.`,
      },
    ],
  },

  "observed-unsigned": {
    title: "Observed, unsigned: what a verdict here is and is not",
    summary: "What a state on this site means, how the legacy fallback is decided, and how to test your server yourself.",
    firstPublished: "2026-09-14",
    body: [
      { h2: "What a verdict is", id: "is" },
      {
        p: `Each state on this site is a record of what one anonymous probe saw, from outside, at a stated time, with the suite version that judged it, a one-sentence reason and the HTTP exchanges it rests on. The probe behaves like a careful client: it sends no credentials and no \`Origin\`, follows no redirects, calls no real tool, and talks to a host one request at a time.`,
      },
      { h2: "What a verdict is not", id: "is-not" },
      {
        ul: [
          "Not a certification, endorsement or signature: nobody vouches for a server here, us included.",
          "Not a security audit: whatever sits behind authentication is out of our sight, and the auth checks only ask whether a client can discover how to authenticate.",
          "Not an uptime figure: one probe every 30 minutes to 24 hours sees a moment, not a service level.",
          "Not a review of the tools: we read their definitions and never run them.",
        ],
      },
      {
        p: `If a state looks wrong, open the check's evidence on the server page, copy the curl command beside each exchange and send the same request yourself.`,
      },
      { h2: "How the legacy fallback decides", id: "fallback" },
      {
        p: `Servers speak either revision ${MODERN_REVISION} (handshake \`server/discover\`) or an older one (${LEGACY_REVISIONS.join(", ")}; handshake \`initialize\`). The probe tries the modern handshake first and falls back at most once:`,
      },
      {
        ol: [
          `A discover result listing ${MODERN_REVISION} in \`supportedVersions\`: modern. A result without \`supportedVersions\`, or listing only older revisions, does not count as a discover result.`,
          "`-32020`, `-32021` or `-32022`, with any HTTP status, as JSON or SSE: the server declined on purpose. No fallback; the discovery checks fail with the code and message.",
          "429, or 503 with `Retry-After`: slow down. Nothing more is sent this round, undecided checks are Not checked, and the next probe waits at least as long as asked.",
          "Any other 4xx (400, 401, 403, 404, 405, 406, 415, 422 and so on): fall back to `initialize`. The body may be anything: an error under a different id such as `\"server-error\"` or `null`, an HTML page, nothing at all. No specific status, code or id is ever required.",
          "A 2xx that is neither a discover result nor one of the three codes (an empty result, a `-32601` error, HTML): fall back too (suite 0.10.0).",
          "A redirect (never followed), any other 5xx, a timeout or a network error: the discovery checks fail with the cause.",
          "After a fallback, the answer that ends the handshake decides: a valid initialize result means legacy; a 401 with a valid challenge is the credential gate (Not checked); a 401 without one, or anything else, fails with the cause.",
        ],
      },
      {
        p: `One more case came from the wild: a server that advertised ${MODERN_REVISION} and then refused it on the first \`tools/list\` page, before any tool was read. That legacy-style rejection may also trigger the single fallback.`,
      },
      { h2: "The too-narrow fallback we avoid", id: "too-narrow" },
      {
        p: `Another team's crawler, which records MCP tool definitions, once accepted the legacy signal only when the status was 400, 404 or 405, the JSON-RPC code was \`-32600\`, \`-32601\` or \`-32602\`, and the error's id matched the request. Real servers are messier. One answered \`-32600\` under the id \`"server-error"\` (the value an official SDK uses when it fails before reading the request id) while listing the older revisions it did support; others let anonymous \`initialize\` and \`tools/list\` through but answered 401 to an unfamiliar \`server/discover\`.`,
      },
      {
        p: `For three days about 2,195 servers went unread, while the dashboard showed a 98.8% request success rate, because failing servers were retried less and less often. Daily coverage fell from about 28,200 to about 23,000 servers with no alert attached. Their fix widened the fallback to other ids, to 401 and 403, to bodies that are not JSON-RPC and to version lists older than ${MODERN_REVISION}, and kept one fallback per probe. Our rule is broader still and was written that way from the start: any 4xx without a modern rejection code falls back, and we watch [coverage](/faq/coverage), not success rate.`,
      },
      { h2: "Test your own server", id: "self-test" },
      {
        p: `The command-line probe runs exactly the code behind this site. It exits 0 whenever the probe ran, whatever the verdicts, and 2 on bad usage. Private and loopback addresses are refused unless \`PROBE_ALLOW_PRIVATE_NETWORKS=1\` is set. Usage: \`${PROBE_COMMAND}\`.`,
      },
      { code: SELF_TEST_CLI, label: "Self-test with the CLI" },
      {
        p: `Or by hand with curl. Every exchange on a server page also has its own copyable curl command.`,
      },
      { code: SELF_TEST_CURL, label: "Self-test with curl" },
    ],
  },

  "withheld-call": {
    title: "The call the probe sometimes withholds",
    summary: "The reserved tool name, why the probe calls it, and every condition under which it does not.",
    firstPublished: "2026-09-23",
    body: [
      {
        p: `To see how a server refuses, the probe sends one \`tools/call\` for a tool that cannot exist: \`${RESERVED_TOOL_NAME}\`, with \`arguments: {}\`. It never calls any other tool, so nothing on your server runs on our behalf. The answer decides ${C.error_taxonomy}; [the four kinds of refusal](/faq/refusals) lists the outcomes.`,
      },
      { h2: "When the call is withheld", id: "conditions" },
      {
        p: `The call is only made when it is safe and meaningful. Otherwise it is withheld, ${C.error_taxonomy} is **${S.not_checked}**, and the reason says which condition applied:`,
      },
      {
        ul: [
          "the tool list could not be read;",
          "pages of the tool list remain unread (pagination was cut short or never ended);",
          `the list contains a tool actually named \`${RESERVED_TOOL_NAME}\`, so the call would not be a call to a missing tool;`,
          `the handshake or the tool list was stopped by a credential gate; ${C.auth_metadata} then reads the gate's own challenge instead;`,
          "the server asked the probe to slow down (429, or 503 with `Retry-After`);",
          "the handshake failed.",
        ],
      },
      {
        p: `A common case: the whole endpoint sits behind authentication. The discovery checks are then Not checked with "credential required", the call is withheld, and ${C.auth_metadata} follows the challenge the gate presented.`,
      },
      { h2: "If your server really has that tool", id: "collision" },
      {
        p: `Nothing breaks: the probe sees the name in your list and does not call it. ${C.error_taxonomy} stays Not checked for your server, and the reason says why.`,
      },
    ],
  },

  "opting-out": {
    title: "Opting out of probing",
    summary: "How to ask us not to probe your host, with robots.txt or by asking the operator, and how the probe identifies itself.",
    firstPublished: "2026-09-14",
    body: [
      {
        p: `A host that asked not to be probed gets no request at all from us: no handshake, no tool list, no metadata fetch. Its servers keep their page, with every check ${S.not_checked} and the opt-out as the reason.`,
      },
      { h2: "With robots.txt", id: "robots" },
      {
        p: `Address the user-agent token \`${ROBOTS_TOKEN}\` in \`/robots.txt\` on the host that serves your MCP endpoint. We read it at most once a day per host and respect a rule that disallows the endpoint's path.`,
      },
      { code: ROBOTS_EXAMPLE, label: "robots.txt" },
      { h2: "By asking the operator", id: "ask" },
      {
        p: `Write to the people who run this site and name the host. They record it with the operator command below; the opt-out is stored in the database and holds from the next round on.`,
      },
      { code: OPT_OUT_COMMAND, label: "Operator command" },
      { h2: "How the probe identifies itself", id: "user-agent" },
      {
        p: `Every request carries a \`User-Agent\` that names the probe and links this page, for example \`${USER_AGENT_EXAMPLE}\`. Its token is \`${ROBOTS_TOKEN}\`.`,
      },
      { h2: "What the probe does anyway, to be polite", id: "politeness" },
      {
        ul: [
          "It sends no credentials and no `Origin` header, and never follows redirects.",
          "It keeps one request at a time per host.",
          "It backs off: healthy servers every 30 minutes to 6 hours, after failures 6, 12, then 24 hours, after a credential gate at least 24 hours, after \"slow down\" at least the `Retry-After` you asked for.",
          "It never fetches an authorization metadata URL on another host that has opted out (suite 0.11.0).",
        ],
      },
    ],
  },

  coverage: {
    title: "Why we watch coverage and not success rate",
    summary: "Retry backoff makes request success rate look better exactly when servers go unread.",
    firstPublished: "2026-11-05",
    body: [
      {
        p: `A probe that backs off from failing servers changes its own sample. Servers that fail are retried after 6, 12, then 24 hours, and credential-gated ones after a day at least, so the requests actually made lean more and more towards servers that work. The request success rate then climbs exactly while servers drop out of sight.`,
      },
      {
        p: `This is not theoretical. Another team's MCP crawler showed 98.8% of 9,514 requests succeeding in the hour before a fix, while about 2,195 servers had gone unread for days. The number of different servers read per day had fallen from about 28,200 to about 23,000, and nothing alerted on it. See [observed, unsigned](/faq/observed-unsigned#too-narrow) for the fallback bug behind it.`,
      },
      { h2: "What we measure instead", id: "measure" },
      {
        ul: [
          "Coverage: distinct servers read successfully per UTC day, as the headline number.",
          "Request success rate beside it, labelled plainly as not coverage.",
          "Time since the last successful read, for every server, on its page and in the [failing-longest list](/coverage#failing-h).",
          "An alert when coverage falls clearly below its recent level.",
        ],
      },
      {
        p: `A server that fails for a week stays visible: it keeps its page, it heads the failing-longest list, and the days it goes unread show in the coverage chart. See the [coverage page](/coverage).`,
      },
    ],
  },

  changelog: {
    title: "Changelog of the check suite",
    summary: "Every rule change, dated, with the suite version that carries it.",
    firstPublished: "2026-09-14",
    body: [
      {
        p: `Every stored result carries the version of the suite that produced it, so a result decided under older rules can be told apart. Newest first:`,
      },
      { changelog: true },
    ],
  },
};
