import { CHECK_LABELS, STATE_LABELS } from "../labels";
import { LEGACY_REVISIONS, MODERN_REVISION, RESERVED_TOOL_NAME } from "../../probe/protocol";
import { faqPath } from "../paths";
import {
  CERTIFICATE_WARN_DAYS,
  FRESH_CLONE,
  GOOD_REFUSAL,
  INVALID_HOST_BODY,
  RATE_LIMITED_BODY,
  INVALID_CHALLENGES,
  LEGACY_DECLINE_BODY,
  LIMITS,
  MCP_CLIENT_CONFIG,
  METADATA_EXAMPLE,
  OPT_OUT_COMMANDS,
  RESERVED_CALL,
  ROBOTS_EXAMPLE,
  ROBOTS_PATH_EXAMPLE,
  ROBOTS_TOKEN,
  SELF_TEST_CLI,
  SELF_TEST_CURL,
  USER_AGENT_EXAMPLE,
  VALID_CHALLENGES,
  WEBHOOK_EXAMPLE,
} from "./facts";
import { explainedBlocks, overallBlocks } from "./headline";
import { OBSERVATIONS_PAGE_EN } from "./observations";
import { CLIENTS_PAGE_EN } from "./clients";
import type { FaqBook, FaqChrome, FaqSlug } from "./types";

const S = STATE_LABELS.en;
const C = CHECK_LABELS.en;
const at = (slug: FaqSlug, anchor?: string) => `${faqPath("en", slug)}${anchor ? `#${anchor}` : ""}`;
const TABLE_HEAD = ["What the probe sees", "State", "What to do"];

export const FAQ_CHROME_EN: FaqChrome = {
  indexTitle: "Questions and answers",
  indexLede:
    "How each state is decided, what the probe sends and never sends, when a fix shows, and how to keep the probe away from your host.",
  pagesHeading: "Pages",
  rulesHeading: "Every rule, and where it is explained",
  rulesLede: "Each line is one rule the probe and the site follow; the link opens the paragraph or table row that explains it.",
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
  "observed-unsigned": {
    title: "What a state on this site means, and what to do about it",
    summary: "Start here from a badge: the four states, what each asks of a server operator, and what a verdict is not.",
    firstPublished: "2026-09-14",
    body: [
      {
        p: `Every check on a server page carries one of four states, a single sentence saying why, the suite version that judged it, and the HTTP exchanges behind it. A state records what one anonymous probe observed from outside at a stated time. It is evidence, not a signature.`,
      },
      { h2: "The four states", id: "states" },
      {
        table: {
          caption: "States and what they ask of you",
          head: ["State", "What it means", "What to do if it is your server"],
          rows: [
            [`**${S.verified}**`, "The probe saw the rule satisfied on its latest visit.", "Nothing."],
            [
              `**${S.failed}**`,
              "The probe saw behaviour a careful client cannot work with: no handshake, no shared protocol revision, a tool list that cannot be read.",
              `Read the reason and open the evidence; repeat the request with the curl line shown beside it or with [the self-test](${at("self-test")}); fix; then see [when a fix shows](${at("schedule", "when-fix-shows")}).`,
            ],
            [
              `**${S.observed_risk}**`,
              "It works, but in a shape some clients will trip over: a malformed refusal, tool definitions with problems, metadata a client cannot use.",
              "Fix it when you can; the reason names the exact shape.",
            ],
            [
              `**${S.not_checked}**`,
              "The probe did not look, or was not allowed to: a credential gate, an opt-out, a server that needs configuration, a request to slow down, a call it withheld on purpose, its own time budget.",
              "Usually nothing. The reason says which case applies; none of them is a fault by itself.",
            ],
          ],
        },
      },
      ...overallBlocks("en"),
      { h2: "The five checks", id: "checks" },
      {
        table: {
          caption: "The checks, in display order",
          head: ["Check", "The question it answers", "Explained on"],
          rows: [
            [`${C.handshake} (\`handshake\`)`, "Could a client open a session at all?", `[${C.handshake}](${at("handshake")})`],
            [
              `${C.protocol_version} (\`protocol_version\`)`,
              "Did both sides agree on a revision?",
              `[${C.protocol_version}](${at("protocol-version")})`,
            ],
            [`${C.tools_list} (\`tools_list\`)`, "Could the whole tool list be read?", `[${C.tools_list}](${at("tools-list")})`],
            [
              `${C.error_taxonomy} (\`error_taxonomy\`)`,
              "When asked for a tool that does not exist, does the server refuse in a shape a client can handle?",
              `[${C.error_taxonomy}](${at("refusals")})`,
            ],
            [
              `${C.auth_metadata} (\`auth_metadata\`)`,
              "Can a client learn how to authenticate from what the server told it?",
              `[${C.auth_metadata}](${at("auth-metadata")})`,
            ],
          ],
        },
      },
      {
        p: `The first three are the discovery checks: if a session cannot be opened, the other two have nothing to stand on.`,
      },
      { h2: "What a state is not", id: "is-not" },
      {
        ul: [
          "A certification or an endorsement. Nobody vouches for a server here, the site included.",
          "A security review. Whatever sits behind authentication is out of sight, and the authentication check only asks whether a client can find out how to log in.",
          `An uptime figure. A state describes the latest probe, one moment; the [uptime](${at("uptime")}) beside the history strip counts many probes over days.`,
          "A review of the tools. The probe reads their definitions and never runs one.",
        ],
      },
      { h2: "If a state looks wrong", id: "evidence" },
      {
        p: `Open the check's evidence on the server page: every exchange shows the method, status, headers that mattered, a body excerpt and a copyable curl command. Run [the self-test](${at("self-test")}) from your own machine to see the same verdicts. If the site decided against a rule, the [changelog](${at("changelog")}) lists every dated correction.`,
      },
    ],
  },

  handshake: {
    title: "The handshake check: modern first, one step back to initialize",
    summary:
      "What server/discover answers lead to, when the probe falls back to initialize, the late fallback, and a bug of ours that is fixed.",
    firstPublished: "2026-11-30",
    body: [
      {
        p: `Revision ${MODERN_REVISION} opens a session with \`server/discover\`; the older revisions (${LEGACY_REVISIONS.join(", ")}) with \`initialize\`. A client that wants to reach both kinds has to try one and read the answer. ${C.handshake} is ${S.verified} when one of the two handshakes completed, and the reason says which.`,
      },
      { h2: "What the probe sends first", id: "modern-first" },
      {
        p: `A POST of \`server/discover\` in the ${MODERN_REVISION} shape: the full \`_meta\` block (protocol version, client info, capabilities) and the headers \`MCP-Protocol-Version: ${MODERN_REVISION}\`, \`Mcp-Method: server/discover\` and \`Accept: application/json, text/event-stream\`. It sends no credentials, no \`Origin\`, and does not follow redirects.`,
      },
      { h2: "How the answer to server/discover is read", id: "answers" },
      {
        table: {
          caption: "The first answer, and what follows from it",
          head: TABLE_HEAD,
          rows: [
            {
              id: "discover-result",
              cells: [
                `A discover result whose \`supportedVersions\` includes ${MODERN_REVISION}`,
                `${S.verified}, modern session`,
                "Nothing.",
              ],
            },
            {
              id: "declined",
              cells: [
                "A JSON-RPC error `-32020`, `-32021` or `-32022`, under any HTTP status, as JSON or inside an SSE stream",
                `${S.failed} for the three discovery checks, with the code and message; no fallback`,
                "Your server understood the modern handshake and turned it down on purpose. If it should accept this client, fix the reason named in the message.",
              ],
            },
            {
              id: "slow-down",
              cells: [
                "429, or 503 with `Retry-After`",
                `${S.not_checked} for everything not yet decided ("asked to slow down")`,
                `Nothing. No further request goes to that server this round, and the probe [waits at least as long as asked](${at("schedule", "table")}).`,
              ],
            },
            {
              id: "fallback-4xx",
              cells: [
                'Any other 4xx (400, 401, 403, 404, 405, 406, 415, 422, …) whose body is not one of those three codes: a JSON-RPC error under another id such as `"server-error"` or `null`, an HTML page, no body',
                "Falls back to `initialize`; the answer that ends the handshake decides",
                "Nothing; this is how most legacy servers answer an unknown method.",
              ],
            },
            {
              id: "unreadable-4xx",
              cells: [
                "A 4xx whose body cannot be read or decoded: cut short, a broken `Content-Encoding`, the connection reset halfway",
                "Still a 4xx without those three codes: falls back to `initialize`",
                "Nothing for the handshake; a body that breaks off is worth fixing anyway.",
              ],
            },
            {
              id: "fallback-2xx",
              cells: [
                'A 2xx that is neither a discover result nor one of the three codes: `{"result":{}}`, a `-32601` error, an HTML page, a result without `supportedVersions` or listing only older revisions',
                "Falls back to `initialize` (suite 0.10.0)",
                "Nothing.",
              ],
            },
            {
              id: "transfer-failures",
              cells: [
                "A redirect (never followed), any other 5xx, a timeout, a refused or reset connection, or a 2xx/3xx/5xx whose body cannot be read",
                `${S.failed} for the three discovery checks, with the cause`,
                "Serve the endpoint at the URL listed in the registry, without a redirect, and answer within the time limits.",
              ],
            },
          ],
        },
      },
      {
        p: `A discover result that lists only revisions newer than ${MODERN_REVISION} is a discover result, not a legacy signal; [the protocol version page](${at("protocol-version", "newer-only")}) explains that case.`,
      },
      { h2: "After the fallback: the answer that ends the handshake decides", id: "deciding-answer" },
      {
        p: `The first 401 or 404 is only a signpost. What \`initialize\` gets back settles the three discovery checks:`,
      },
      {
        table: {
          caption: "The answer to initialize",
          head: TABLE_HEAD,
          rows: [
            [
              "A valid `InitializeResult`",
              `${S.verified}, legacy session; the probe then sends \`notifications/initialized\`, repeats any \`Mcp-Session-Id\`, and sends \`MCP-Protocol-Version\` on later requests`,
              "Nothing.",
            ],
            [
              `401 with a [structurally valid](${at("credential-gate", "valid")}) \`WWW-Authenticate\` challenge`,
              `${S.not_checked}, "credential required": the [credential gate](${at("credential-gate")})`,
              "Nothing, if discovery is meant to need a login.",
            ],
            [
              "401 with no challenge, or one that does not parse",
              `${S.failed}: refused with no instructions`,
              `Send a challenge a client can parse, or let anonymous clients discover the server.`,
            ],
            [
              "Anything else: another status, a malformed result, a timeout",
              `${S.failed}, with the cause`,
              "Read the evidence; the reason names what arrived.",
            ],
          ],
        },
      },
      { h2: "The late fallback", id: "late-fallback" },
      {
        p: `One server in the wild answered \`server/discover\` with a proper ${MODERN_REVISION} result and then rejected the first \`tools/list\` page the way a legacy server rejects an unknown method. For that shape the probe may fall back to \`initialize\` once more, provided no tool has been read yet. Fallback still happens at most once per probe.`,
      },
      {
        ul: [
          `If \`initialize\` then completes, the session is legacy and the checks are judged as for any legacy server.`,
          `If it does not, nothing already seen is thrown away: ${C.handshake} and ${C.protocol_version} stay ${S.verified} with ${MODERN_REVISION}, the era stays modern, and ${C.tools_list} is ${S.failed} with the \`tools/list\` answer as its cause; the reason also says the retry with \`initialize\` failed.`,
        ],
      },
      { h2: "Servers on the HTTP+SSE transport", id: "sse" },
      {
        p: `A registry remote of type \`sse\` speaks the 2024-11-05 HTTP+SSE transport. The probe opens it the way that transport expects: a GET, then the \`endpoint\` event that names where to POST, then the answers read from the stream. The same checks and states apply.`,
      },
      { h2: "A bug of ours, since fixed: the exact-400 fallback", id: "our-bug" },
      {
        p: `An early version of this probe treated only an exact HTTP 400 as the sign of a legacy server. A legacy server that followed the specification but answered \`server/discover\` with another 4xx was therefore marked ${S.failed} on all three discovery checks. That was our mistake, and it was fixed before the first of these pages was published on 2026-09-14: since then every 4xx without one of the three modern codes leads to \`initialize\`, and no particular status, error code or id is required. Later widenings are dated in the [changelog](${at("changelog")}).`,
      },
      { h2: "Why the rule is this broad", id: "why-broad" },
      {
        p: `Legacy servers answer an unknown method in whatever shape their framework picks. The official Python SDK of the 1.x line, for instance, uses the id \`"server-error"\` when it fails before reading the request's id, and lists the revisions it does support in the message. This is a real answer to \`server/discover\`, quoted as it came over the wire:`,
      },
      { wire: LEGACY_DECLINE_BODY, label: "A legacy server declining server/discover (HTTP 400)" },
      {
        p: `Other servers let anonymous \`initialize\` and \`tools/list\` through and ask for a token on every other method, so an unfamiliar \`server/discover\` gets a 401. Requiring one status, one code and a matching id would shut all of these out. Another team learned this at scale; [the coverage page](${at("coverage", "lesson")}) tells what it cost them and what we measure because of it.`,
      },
    ],
  },

  "protocol-version": {
    title: "The protocol version check: a revision both sides speak",
    summary: "When a revision counts as agreed, what happens when there is none, and discover results that list only newer revisions.",
    firstPublished: "2026-11-30",
    body: [
      {
        p: `The probe speaks ${MODERN_REVISION} and the legacy revisions ${LEGACY_REVISIONS.join(", ")}. ${C.protocol_version} asks whether the handshake ended on one of them.`,
      },
      { h2: "Outcomes", id: "outcomes" },
      {
        table: {
          caption: "Protocol version outcomes",
          head: TABLE_HEAD,
          rows: [
            {
              id: "agreed",
              cells: [
                `A discover result listing ${MODERN_REVISION}, or an \`InitializeResult\` naming a legacy revision the probe speaks`,
                `${S.verified}, with the agreed revision in the reason`,
                "Nothing.",
              ],
            },
            {
              id: "no-common",
              cells: [
                `The handshake completed, but on a revision the probe cannot agree there: an \`InitializeResult\` naming an unknown date, or naming ${MODERN_REVISION}, which is agreed only through \`server/discover\``,
                `${S.failed}; the reason lists what the server offered`,
                "Offer at least one revision listed above as well; clients built on current SDKs speak those.",
              ],
            },
            {
              id: "newer-only",
              cells: [
                `A discover result whose \`supportedVersions\` lists only revisions newer than ${MODERN_REVISION}, for example \`["2027-01-15"]\``,
                `${C.handshake} ${S.verified}, ${C.protocol_version} ${S.failed} naming what was offered; no \`initialize\` is sent`,
                `Keep ${MODERN_REVISION} in the list while clients still speak it.`,
              ],
            },
            {
              id: "not-discover",
              cells: [
                "A result without `supportedVersions`, or listing only older revisions",
                `Not a discover result: the probe [falls back](${at("handshake", "fallback-2xx")}) to \`initialize\``,
                "Nothing.",
              ],
            },
            [
              `The discovery checks were stopped earlier (a failed handshake, a credential gate, an opt-out)`,
              `Same state as ${C.handshake}`,
              `See [the handshake page](${at("handshake")}).`,
            ],
          ],
        },
      },
      {
        p: `A server that lists only newer revisions answered in the modern shape, so it is no legacy server, and sending \`initialize\` to it would only add a request that cannot help. The handshake reached it; the two sides simply have no revision in common.`,
      },
    ],
  },

  "tools-list": {
    title: "The tool list check: reading the whole list",
    summary: "Pagination, the page cap and cursor loops, malformed definitions, what a complete read is, and the probe's own deadline.",
    firstPublished: "2026-11-30",
    body: [
      { h2: "How the list is read", id: "pagination" },
      {
        p: `The probe sends \`tools/list\` and follows \`nextCursor\` until a page comes without one. In ${MODERN_REVISION} an empty string is a cursor like any other and is followed; in the legacy revisions it ends the list. The probe stops after ${LIMITS.pageCap} pages, and it stops when a cursor comes back that it has already sent.`,
      },
      { h2: "Outcomes", id: "outcomes" },
      {
        table: {
          caption: "Tool list outcomes",
          head: TABLE_HEAD,
          rows: [
            {
              id: "verified",
              cells: ["Every page read, every definition well formed", `${S.verified}, with the number of tools and pages`, "Nothing."],
            },
            {
              id: "endless",
              cells: [
                `Pages that never end: ${LIMITS.pageCap} pages read and still a \`nextCursor\`, or a cursor seen before`,
                `${S.observed_risk}; the reserved-tool call is [withheld](${at("withheld-call", "withheld")})`,
                "Return no `nextCursor` on the last page, and never hand out the same cursor twice in one listing.",
              ],
            },
            {
              id: "malformed",
              cells: [
                "Definitions with problems: a tool without a `name`, an `inputSchema` that is not an object, two tools with the same name",
                `${S.observed_risk}; the reason names the tools. The read still counts as complete`,
                "Fix the definitions; clients may drop such tools or refuse the whole list.",
              ],
            },
            {
              id: "gate",
              cells: [
                `A 401 with a [valid challenge](${at("credential-gate", "valid")}) on \`tools/list\``,
                `${S.not_checked}, "credential required": [the gate on the tool list](${at("credential-gate", "tool-list-gate")})`,
                "Nothing, if tools are meant to need a login.",
              ],
            },
            {
              id: "deadline",
              cells: [
                `Pages still arriving, each in time, when the probe's own ${LIMITS.deadlineSeconds}-second budget for the server runs out`,
                `${S.not_checked}, with the number of pages read so far`,
                "Nothing is wrong with the server; fewer, larger pages would let the list finish.",
              ],
            },
            {
              id: "request-timeout",
              cells: [
                "A single `tools/list` request that gets no answer in time",
                `${S.failed}, with the timeout`,
                "Answer each page promptly.",
              ],
            },
            {
              id: "error",
              cells: [
                "An HTTP error, a JSON-RPC error, a body that is not a page of tools, a `nextCursor` that is not a string",
                `${S.failed}, with the cause (a modern session may first try the [late fallback](${at("handshake", "late-fallback")}))`,
                "Read the evidence; the reason names the page and what it held.",
              ],
            },
            ["429, or 503 with `Retry-After`", `${S.not_checked}, asked to slow down`, "Nothing."],
          ],
        },
      },
      { h2: "The probe's deadline is not a request timeout", id: "time-limits" },
      {
        p: `Two limits apply, and they mean different things. Each request must start answering within ${LIMITS.requestSeconds} seconds; a request that does not is the server's answer, and it is ${S.failed}. The whole visit to one server must fit in ${LIMITS.deadlineSeconds} seconds; that budget is ours, chosen so one server cannot hold up a round. When it runs out while the server keeps delivering pages in time, the list is not finished and nothing went wrong on the server's side, so the state is ${S.not_checked}.`,
      },
      { h2: "What a complete read is", id: "complete-read" },
      {
        p: `A complete read is a tool list read to its last page: ${S.verified}, or ${S.observed_risk} because of malformed definitions. It is the one meaning of "read successfully" on this site. The last successful read on a server page, the daily coverage figure, the stored tool snapshots and the tool history all count complete reads and nothing else. A list whose pages never end, or that the deadline cut short, is not complete.`,
      },
      { h2: "Tool history", id: "history" },
      {
        p: `Each complete list is hashed. When the hash changes, the difference is stored: tools added and removed, and for a changed tool each field path that changed, such as \`inputSchema.properties.limit\`, and shown on the server page and on the [changes page](/changes).`,
      },
    ],
  },

  refusals: {
    title: "The error taxonomy check: how a server says no",
    summary: "What the answer to a call for a tool that does not exist can look like, and which shapes a client can handle.",
    firstPublished: "2026-09-14",
    body: [
      {
        p: `Clients break on refusals more often than on answers. To see how a server refuses, the probe asks it to run a tool that cannot exist (see [the reserved call](${at("withheld-call")})) and sorts the answer into a state. The HTTP status is never the point; the shape of the body is.`,
      },
      { wire: RESERVED_CALL, label: "The call the probe sends" },
      { h2: "Answers and states", id: "answers" },
      {
        table: {
          caption: "Answers to the reserved call",
          head: ["What comes back", "State", "What to do"],
          rows: [
            {
              id: "jsonrpc-error",
              cells: [
                "A well-formed JSON-RPC error: `jsonrpc`, the request's `id`, and `error` with an integer `code` and a string `message`; as JSON or in an SSE stream; any HTTP status",
                `${S.verified}; the reason names the code`,
                "Nothing. `-32602` is the code the specification gives for an unknown tool; any other code is still a proper refusal.",
              ],
            },
            {
              id: "pre-dispatch",
              cells: [
                "A bare 401 or 403, whatever the body",
                `${S.verified}`,
                "Nothing. An authentication layer stopped the request before the MCP handler saw it, which says nothing about how the handler shapes errors.",
              ],
            },
            {
              id: "is-error",
              cells: [
                "A JSON-RPC result with `isError: true`",
                `${S.verified}; the reason says the tool-error channel was used instead of \`-32602\``,
                "Nothing required. Many SDKs answer this way and clients handle it.",
              ],
            },
            {
              id: "slow-down",
              cells: [
                "429, or 503 with `Retry-After`",
                `${S.not_checked}, asked to slow down`,
                "Nothing; the probe stops sending to this server for the round.",
              ],
            },
            {
              id: "malformed",
              cells: [
                'Any other refusal: a 500 carrying a stack trace, an HTML page, `{"error":"nope"}` without `jsonrpc`, an empty body',
                `${S.observed_risk}; the reason describes the shape`,
                "Answer with a JSON-RPC error object. A client cannot tell what went wrong from these shapes and may throw.",
              ],
            },
            {
              id: "success",
              cells: [
                "A success result, as if the tool existed",
                `${S.observed_risk}`,
                "This is not a refusal at all: the server claims to have run a tool it does not list. Reject unknown tool names.",
              ],
            },
          ],
        },
      },
      { wire: GOOD_REFUSAL, label: "A well-formed refusal" },
      { h2: "Why not simply pass or fail", id: "why" },
      {
        p: `A server that refuses correctly is doing its job, so a refusal is never ${S.failed} by itself. Lumping the shapes together would either punish servers whose authentication layer answers first, or hide a stack trace behind the same mark as a clean \`-32602\`. Separate states let a reader judge what matters for the client they are about to connect.`,
      },
    ],
  },

  "withheld-call": {
    title: "The reserved-tool call, and when the probe withholds it",
    summary: "The one tool name the probe ever calls, and every condition under which it does not call it.",
    firstPublished: "2026-09-23",
    body: [
      { h2: "The reserved call", id: "reserved-call" },
      {
        p: `The probe sends exactly one \`tools/call\`, for \`${RESERVED_TOOL_NAME}\` with \`arguments: {}\`. It never calls any other tool, so nothing on your server runs on the probe's behalf. The answer decides ${C.error_taxonomy} ([outcomes](${at("refusals", "answers")})).`,
      },
      { h2: "When it is withheld", id: "withheld" },
      {
        p: `The call is made only when it is safe and means something. Otherwise ${C.error_taxonomy} is ${S.not_checked} and the reason names the condition:`,
      },
      {
        table: {
          caption: "Conditions that withhold the call",
          head: ["Condition", "Why the call is not made"],
          rows: [
            ["The tool list could not be read", "There is no list to check the name against."],
            [
              "Pages of the list remain unread (cut short, endless, or out of time)",
              "The reserved name might be on a page the probe did not see.",
            ],
            [`The list contains a tool named \`${RESERVED_TOOL_NAME}\``, "The call would run a real tool."],
            [
              `The handshake or the tool list was stopped by a [credential gate](${at("credential-gate")})`,
              `The call cannot get past the gate; ${C.auth_metadata} reads the gate's own challenge instead.`,
            ],
            ["The server asked to slow down", "Nothing more is sent to it this round."],
            ["The handshake failed", "There is no session to call in."],
          ],
        },
      },
      { h2: "If your server really has that tool", id: "collision" },
      {
        p: `Nothing breaks: the probe sees the name in the list and leaves it alone. ${C.error_taxonomy} stays ${S.not_checked} for your server, with that reason.`,
      },
    ],
  },

  "credential-gate": {
    title: "Servers behind a login: the credential gate",
    summary:
      "A 401 with a valid challenge on the handshake or on the tool list, what a structurally valid challenge is, and examples of headers that are not.",
    firstPublished: "2026-11-30",
    body: [
      {
        p: `The probe never sends credentials. When a server answers the step that matters with 401 and a \`WWW-Authenticate\` challenge a client can parse, the probe has met a credential gate: the server is telling clients how to log in, and the probe stops there. The checks it could not reach are ${S.not_checked} with the reason "credential required". That is the expected result for a server that keeps discovery behind a login, and nothing to fix.`,
      },
      { h2: "A gate on the handshake", id: "handshake-gate" },
      {
        p: `When the answer that [ends the handshake](${at("handshake", "deciding-answer")}) is such a 401, ${C.handshake}, ${C.protocol_version} and ${C.tools_list} are ${S.not_checked}, the reserved call is withheld, and ${C.auth_metadata} follows the gate's challenge. A 401 to \`server/discover\` alone does not make a gate; it only sends the probe to \`initialize\`.`,
      },
      { h2: "A gate on the tool list", id: "tool-list-gate" },
      {
        p: `Some servers let anyone complete the handshake and ask for a token from \`tools/list\` on. Then ${C.handshake} and ${C.protocol_version} are ${S.verified} with the agreed revision, ${C.tools_list} is ${S.not_checked} (credential required), the reserved call is withheld, and ${C.auth_metadata} reads the challenge that came with the tool list.`,
      },
      {
        p: `In both cases the server is visited again [after at least 24 hours](${at("schedule", "table")}).`,
      },
      { h2: "A 401 without a usable challenge", id: "no-challenge" },
      {
        p: `A 401 with no \`WWW-Authenticate\`, or with one that does not parse, tells a client neither that a login would help nor how to get one. On the handshake that is ${S.failed} ("refused with no instructions"). If the header is there but broken, ${C.auth_metadata} is ${S.observed_risk} (suite 0.12.0) and the reason names the parse problem; the reason never claims that no challenge was sent.`,
      },
      { h2: "What a structurally valid challenge is", id: "valid" },
      {
        p: `The probe parses \`WWW-Authenticate\` with the grammar of RFC 9110 (section 11.6.1), as a careful client would:`,
      },
      {
        ul: [
          "A challenge is an auth scheme (a token such as `Bearer`, compared without regard to case), optionally followed by one space and either a token68 or a comma-separated list of `name=value` parameters.",
          'A value is a token or a quoted string. A quoted string may hold commas, spaces and backslash escapes such as `\\"`.',
          "One header may carry several challenges separated by commas, and the header may be repeated; empty list elements are ignored.",
          "A parameter name may not repeat within one challenge.",
        ],
      },
      { wire: VALID_CHALLENGES.join("\n"), label: "Headers that parse" },
      {
        table: {
          caption: "Headers that do not parse",
          head: ["Header as sent", "What is wrong"],
          rows: INVALID_CHALLENGES.map(([h, why]) => [`\`${h}\``, why]),
        },
      },
      {
        p: `For MCP, the useful parameter is \`resource_metadata\`: the URL of the protected-resource metadata that [${C.auth_metadata}](${at("auth-metadata")}) fetches next.`,
      },
    ],
  },

  "auth-metadata": {
    title: "The auth metadata check: can a client find out how to log in?",
    summary:
      "Which challenge is followed, every outcome of fetching the metadata, and the 0.12.0 rows for usable protected-resource metadata.",
    firstPublished: "2026-09-14",
    body: [
      { h2: "Which challenge is followed", id: "source" },
      {
        p: `The challenge of the [credential gate](${at("credential-gate")}) if there was one, otherwise the first 401 or 403 with a valid challenge seen during the probe. If no challenge was seen at all, ${C.auth_metadata} is ${S.not_checked} ("no credential challenge was presented"). The probe then fetches the \`resource_metadata\` URL once, with the same politeness as every other request.`,
      },
      { h2: "Outcomes", id: "outcomes" },
      {
        table: {
          caption: "Auth metadata outcomes",
          head: TABLE_HEAD,
          rows: [
            {
              id: "no-metadata-url",
              cells: [
                "A challenge without a `resource_metadata` URL",
                `${S.not_checked}, with the reason`,
                "Add `resource_metadata` so clients can discover the authorization server.",
              ],
            },
            {
              id: "opted-out-host",
              cells: [
                `The metadata URL is on a host that asked not to be probed, by the operator list or by \`robots.txt\` (suite 0.11.0)`,
                `${S.not_checked}; nothing is fetched there`,
                "Nothing.",
              ],
            },
            {
              id: "private-address",
              cells: [
                "The metadata URL resolves to a private or loopback address",
                `${S.not_checked}, with the reason`,
                "Publish the metadata at a public address.",
              ],
            },
            {
              id: "http-error",
              cells: ["An HTTP error status, or a redirect", S.observed_risk, "Serve the document with 200 at the URL you name."],
            },
            { id: "not-json", cells: ["A body that is not valid JSON", S.observed_risk, "Serve JSON."] },
            { id: "not-object", cells: ["JSON, but a string, number, boolean, null or an array", S.observed_risk, "Serve a JSON object."] },
            {
              id: "scope-mismatch",
              cells: [
                "The challenge's `scope` names a scope that `scopes_supported` does not list (no `scopes_supported`: nothing to compare)",
                S.observed_risk,
                "Make the two lists agree.",
              ],
            },
            {
              id: "no-resource",
              cells: [
                '(0.12.0) An object without a string `resource`, such as `{"detail":"Not Found"}`',
                S.observed_risk,
                "This is not protected-resource metadata; serve the real document.",
              ],
            },
            {
              id: "resource-mismatch",
              cells: [
                `(0.12.0) A \`resource\` that does not [cover the server's URL](${at("auth-metadata", "covers")})`,
                S.observed_risk,
                "Set `resource` to the server's URL or to a prefix of it on the same origin.",
              ],
            },
            {
              id: "no-authorization-servers",
              cells: [
                "(0.12.0) No `authorization_servers`, or an empty array",
                S.observed_risk,
                "List at least one authorization server; the MCP authorization specification requires one.",
              ],
            },
            {
              id: "unparseable-challenge",
              cells: [
                `(0.12.0) A 401 or 403 whose \`WWW-Authenticate\` is present but [does not parse](${at("credential-gate", "valid")}), and no valid challenge anywhere in the probe`,
                `${S.observed_risk}; the reason names the parse problem`,
                "Fix the header; a client cannot act on what it cannot parse.",
              ],
            },
            {
              id: "slow-down",
              cells: [
                "429, or 503 with `Retry-After`, from the metadata host",
                `${S.not_checked}, asked to slow down`,
                "Nothing; the MCP server's own schedule is not changed by it.",
              ],
            },
            {
              id: "verified",
              cells: [
                "A JSON object whose `resource` covers the server, with `authorization_servers` and consistent scopes",
                `${S.verified}; the reason names the resource and the authorization servers`,
                "Nothing.",
              ],
            },
          ],
        },
      },
      { wire: METADATA_EXAMPLE, label: "Metadata a client can use" },
      { h2: "When a resource covers the server", id: "covers" },
      {
        p: `This is the test the official MCP SDK client makes before it will authenticate: same origin (scheme, host and port), and the server's path begins with the resource's path. For a server at \`https://mcp.example.com/mcp\`:`,
      },
      {
        table: {
          caption: "Resource values for a server at https://mcp.example.com/mcp",
          head: ["`resource`", "Covers the server?"],
          rows: [
            ["`https://mcp.example.com/`", "Yes: the origin"],
            ["`https://mcp.example.com/mcp`", "Yes: the same URL"],
            ["`https://mcp.example.com/other`", "No: another path"],
            ["`https://mcp.example.com/mcp/v2`", "No: longer than the server's path"],
            ["`https://api.example.com/mcp`", "No: another host"],
            ["`http://mcp.example.com/mcp`", "No: another scheme, so another origin"],
          ],
        },
      },
      { h2: "Metadata hosts that opted out", id: "opted-out-hosts" },
      {
        p: `A metadata URL often points at a different host from the server. That host's wishes count too: if it is on the operator list, or its \`robots.txt\` disallows \`${ROBOTS_TOKEN}\`, the probe fetches nothing there (it may read \`robots.txt\` itself) and the state is ${S.not_checked}.`,
      },
      { h2: "What this check does not judge", id: "not-a-verdict" },
      {
        p: `Whether your authentication is secure is not visible from outside and is not judged here. The check only follows what a client following the specification would follow, and records whether that path leads somewhere usable.`,
      },
    ],
  },

  "which-servers": {
    title: "Which servers are probed, and servers that need configuration",
    summary:
      "How the registry is read, which remote is probed, every remote's standing, remotes that need a value from the user, and servers that leave the registry.",
    firstPublished: "2026-11-30",
    body: [
      { h2: "From the registry", id: "registry" },
      {
        p: `The site reads the official MCP registry page by page (\`/v0.1/servers?version=latest&limit=100\`, cursor to the end), keeps only entries whose status is \`active\`, and stores one row per server name. A remote is probed with the transport it is listed under: \`streamable-http\`, or \`sse\` for the [older HTTP+SSE transport](${at("handshake", "sse")}).`,
      },
      {
        p: `Once a day the site reads every page (\`/v0.1/servers?version=latest&limit=100&include_deleted=true\`); in the hours between, as the registry itself asks of its readers, it reads only the entries updated since its last read (\`updated_since\`). A server missing from the daily read has left the registry. An owner can also mark a server \`deprecated\` or \`deleted\` in the registry, with a message: the site then stops probing it, keeps its history like any server that left, and shows the owner's message on its page as the owner wrote it. A registry page larger than 8 MB stops the read, and the previous list is kept.`,
      },
      { h2: "Which remote is probed", id: "which-remote" },
      {
        p: `A registry entry may list several remotes; one lists eighteen. The probe talks to one of them per round: the first one, in the order the registry lists them, that needs no configuration, taking a \`streamable-http\` remote before an \`sse\` one. A URL variable that comes with a default (\`https://{region}.example.com/mcp\` with \`region\` defaulting to \`eu\`) is filled in with it, and the filled-in URL is what gets probed.`,
      },
      { h2: "Every remote and its standing", id: "remotes" },
      {
        p: `The server page and its JSON (\`remotes\` in \`/api/servers/<name>\`) list every remote the entry names, with its transport and one of three standings: **probed**, **needs configuration** (with the reason), or **passed over**, meaning it needs nothing but another remote of the same server was the one probed. A remote under a transport the probe does not speak is left out of the list.`,
      },
      { h2: "When a remote needs configuration", id: "what-needs-configuration" },
      {
        ul: [
          `Its URL has a \`{variable}\` for which the entry gives no default.`,
          `One of its headers is marked \`isRequired\`. The probe never sends the headers a registry entry describes, so a required one cannot be honoured.`,
          `One of its header values holds a \`{placeholder}\`, such as \`Bearer {api_key}\`, even when the header is not marked required: a value with a hole in it is one the user has to supply.`,
        ],
      },
      {
        p: `A header that is optional, secret or not, does not make a remote need configuration: an anonymous client would simply connect without it, and so does the probe.`,
      },
      { h2: "Servers that need configuration", id: "needs-configuration" },
      {
        p: `A server needs configuration only when every one of its remotes does. The probe has none of the missing values and never makes them up. Since suite 0.15.0 that stops every request only when no remote has an address, that is, each URL has a \`{variable}\` without a default: then nothing is sent, every check is ${S.not_checked}, the reason names what is missing, and the server is not counted as down. It is looked at again once a day, in case the registry entry changes. A server that needs only headers is reached anyway, as the next section says.`,
      },
      {
        p: `If anonymous discovery is what you want, list a remote whose URL works as is; otherwise nothing needs doing.`,
      },
      { h2: "Reaching a server without its key (0.15.0)", id: "reach" },
      {
        p: `More than half of the servers in the real registry list a key: a header such as \`X-Api-Key\` marked required, or an \`Authorization\` value with a hole in it. Leaving them all alone meant saying nothing at all about whether they were even there. So the probe now sends them what an MCP client sends before its user has entered a key: the ordinary handshake, without those headers. The headers and their values are never sent, not even a made-up one, and the remote is the one the rule above would pick if the headers were not there. What comes back decides:`,
      },
      {
        ul: [
          `**Answered anyway.** The handshake and the tool list complete without the key: the server is judged as any other, and the handshake's reason says it answered without the header the registry marks required.`,
          `**Gated.** A 401 with a valid \`WWW-Authenticate\` challenge: the [credential gate](${at("observed-unsigned", "states")}), as for any server, and the challenge's metadata is followed.`,
          `**Refused.** Any other answer that ends the handshake or the tool list: a 4xx, a 5xx, a JSON-RPC error, an HTML page. The discovery checks are ${S.not_checked} with the kind *needs configuration*; the reason names the header and the answer. The refusal's status and shape are kept: a JSON-RPC error or a bare 401 or 403 is something a client can explain to its user, while anything else (an HTML page, a 5xx, JSON that is not JSON-RPC) carries a hint to answer a missing key with a 401 and a challenge, or with a JSON-RPC error.`,
          `**Unreachable.** No HTTP answer at all (the name does not resolve, the connection is refused or reset, TLS fails, time runs out): ${S.failed}, exactly as for any server, with the second probe and the regions' quorum. A missing key explains a refusal; it does not explain silence.`,
          `**No address.** A URL \`{variable}\` without a default: nothing is sent.`,
        ],
      },
      {
        p: `Why a missing key never makes a server ${S.failed}: the registry's own entry says the key is needed, and a server that turns away a client without one is doing what its listing announced. Counting that as a fault would mark half the registry down for working as described. What the site can still say, and now does, is whether the server was there, whether it answered in a way a client can act on, and whether it answered without the key at all.`,
      },
      {
        p: `A server that was refused or gated counts as reached and up in its uptime, and is probed again after a day; one that answered fully follows the healthy schedule; one that gave no answer backs off like any failing server. The server JSON carries \`configuration\` (\`needed\`, \`headers\`, \`reach\`, \`refusal\`), the list filters on \`?reach=\`, and the census counts these servers by reach every day.`,
      },
      {
        p: `Registry entries that cannot be read (a name that is not a string, remotes that are not a list) are skipped and named in the site's log; a malformed part of an entry (variables that are not an object, a header name that is not a valid HTTP token, more than fifty remotes) is logged with the entry's name, and the rest of the entry and of the registry are still read.`,
      },
      { h2: "Servers that leave the registry", id: "left" },
      {
        p: `A server that disappears from the registry is no longer probed, but its page, its results and its tool history stay, marked as no longer listed.`,
      },
    ],
  },

  hints: {
    title: "Hints: what to change when a check fails",
    summary:
      "The misconfigurations a Failed check can name exactly, the one sentence each adds, certificate facts, and newer error shapes read today.",
    firstPublished: "2026-12-01",
    body: [
      { h2: "When a check carries a hint", id: "hints" },
      {
        p: `A check that is ${S.failed} or ${S.observed_risk} gets a hint when the exchange that decided it matches one of the patterns below exactly. The hint is a single sentence saying what to change, shown under the reason on the server page and in JSON as \`checks.<id>.hint\` (with \`hintCode\` naming the pattern). It is stored with the result, so it always belongs to the evidence it was drawn from. A hint never changes a state; it only turns "this failed" into "change this".`,
      },
      {
        p: `Only exact matches count. When the evidence fits no pattern, the check has no hint rather than a guess. The three discovery checks share the handshake's evidence, so a handshake that fails this way shows the same hint on all three.`,
      },
      { h2: "The hints", id: "list" },
      {
        table: {
          caption: "Patterns the probe recognises, and what each hint asks",
          head: ["What the evidence shows", "What the hint says", "Why"],
          rows: [
            {
              id: "hint-invalid-host",
              cells: [
                "403 whose body or JSON-RPC message begins with \`Invalid Host\`",
                "Allow the server's public host name in its Host allowlist",
                "The app helpers of the TypeScript SDK v2 turn on a localhost-only allowlist by default, so a server deployed with defaults refuses every client that reaches it by its real name",
              ],
            },
            {
              id: "hint-redirect",
              cells: [
                "A 3xx with a \`Location\` (for example http to https, or \`/sse\` to \`/mcp\`)",
                "List the URL it points to as the remote's URL; for a metadata URL, point \`resource_metadata\` at it",
                "The probe does not follow redirects, and MCP clients do not follow them for their POSTs either",
              ],
            },
            {
              id: "hint-transport",
              cells: [
                "Listed as \`sse\`, its GET fails, and the same URL answers a Streamable HTTP handshake; or listed as \`streamable-http\`, its POSTs get 404 or 405, and a GET opens a 2024-11-05 stream that names its endpoint",
                "List the remote under the transport it speaks",
                "A client picks its transport from the listing; the wrong one fails however healthy the server is",
              ],
            },
            {
              id: "hint-tls",
              cells: [
                "The TLS certificate is expired, names other hosts, or comes from an issuer that cannot be verified",
                "Renew it (with the date it expired), serve one that covers the host (naming what the presented one covers), or serve the full chain from a publicly trusted CA",
                "Clients refuse such a connection before any MCP message is exchanged; a missing intermediate certificate is the usual cause of the last",
              ],
            },
            {
              id: "hint-refused",
              cells: [
                "The connection is refused",
                "Check that the server runs on that host and port, or correct them in the registry",
                "Nothing accepts connections where the listing points",
              ],
            },
            {
              id: "hint-nxdomain",
              cells: [
                "The host name does not exist (the resolver answers, and says so)",
                "Publish the DNS record, or correct the host name in the registry",
                "A resolver that does not answer at all gets no hint: that may be the probe's own network",
              ],
            },
            {
              id: "hint-406-415",
              cells: [
                "406 or 415 to a POST that sent \`Accept: application/json, text/event-stream\` and \`Content-Type: application/json\`",
                "Accept the header the spec asks clients to send",
                "Those are exactly the headers a conforming client sends; a server that refuses them refuses every client",
              ],
            },
          ],
        },
      },
      { h2: "An example", id: "example" },
      { wire: INVALID_HOST_BODY, label: "A server with a localhost-only Host allowlist, reached from outside" },
      {
        p: `The handshake is ${S.failed}, its reason quotes the 403 and the message, and the hint asks for the public host name to be allowed. Nothing about the server's code needs to change beyond that setting.`,
      },
      { h2: "When there is no hint", id: "no-hint" },
      {
        ul: [
          `A 403 with another message, or a redirect without a \`Location\`: a refusal, but not one with a known fix.`,
          `A connection reset, a TLS failure with no certificate to blame (plain HTTP on an https URL), or a resolver that does not answer.`,
          `A 406 or 415 that a later request got past: the check did not fail, and only ${S.failed} and ${S.observed_risk} checks carry hints.`,
        ],
      },
      { h2: "Certificate facts", id: "certificate" },
      {
        p: `Every probe of an https URL records the certificate the server presented: its issuer, its subject and the names it covers, and when it expires. The server page shows the days left and warns when fewer than ${CERTIFICATE_WARN_DAYS} remain; the JSON carries the same as \`certificate\` (\`issuer\`, \`validTo\`, \`daysLeft\`, \`warn\`). This is a fact beside the five checks, not a sixth check: a certificate two days from expiry leaves every state as it was.`,
      },
      {
        p: `A certificate the probe refuses is recorded too, with the reason it was refused, which is how an expired certificate's hint can name the day it expired. No request is ever sent over a connection whose certificate was refused.`,
      },
      { h2: "Rate limiting with -32023", id: "rate-limited" },
      {
        p: `A draft proposal gives rate limiting its own JSON-RPC error, -32023, with the wait in \`data.retryAfterMs\`. The probe reads it today: an answer carrying -32023, whatever its HTTP status, is a request to slow down, exactly like a 429. Nothing more is sent to the server that round, and \`data.retryAfterMs\` counts like a \`Retry-After\` header; when both are present, the longer wait is kept.`,
      },
      { wire: RATE_LIMITED_BODY, label: "A rate-limited answer in the draft's shape" },
      { h2: "-32022 with supportedVersions", id: "supported-versions" },
      {
        p: `A -32022 (unsupported protocol version) lists the revisions the server speaks in \`data.supported\`. Some servers send the list as \`data.supportedVersions\` instead; the probe reads either, and the reason names the revisions either way.`,
      },
    ],
  },

  "tool-observations": OBSERVATIONS_PAGE_EN,
  clients: CLIENTS_PAGE_EN,

  schedule: {
    title: "When the probe comes back, and when a fix shows",
    summary: "The schedule after each outcome, the next due time, the Probe again now button, and how rounds run.",
    firstPublished: "2026-11-30",
    body: [
      { h2: "The schedule", id: "table" },
      {
        table: {
          caption: "Next probe after each outcome",
          head: ["Latest outcome", "Next probe"],
          rows: [
            { id: "healthy", cells: ["Healthy", "After 30 minutes; the gap doubles while nothing changes, up to 6 hours and never later"] },
            {
              id: "backoff",
              cells: ["The handshake or the tool list failed", "After 6 hours, then 12, then 24 for as long as it keeps failing"],
            },
            { id: "credential", cells: ["A credential gate, on the handshake or on the tool list", "After at least 24 hours"] },
            {
              id: "slow-down",
              cells: ["Asked to slow down (429, or 503 with `Retry-After`)", "After at least the `Retry-After` the server gave"],
            },
            ["A slow-down from the metadata host only", "The MCP server's own schedule is unchanged"],
            [`Needs configuration, or opted out by \`robots.txt\``, "Looked at again once a day"],
            [
              `${S.not_checked} because [the probe's own network](${at("own-network", "pause")}) was failing`,
              "At the next round, with no back-off and the failure count untouched",
            ],
          ],
        },
      },
      { h2: "When a fix shows", id: "when-fix-shows" },
      {
        p: `Results are not reset when you fix something: the page changes at the server's next probe. The server page shows the next due time, the time of the last probe and of the last complete read; the JSON at \`/api/servers/<name>\` carries the same as \`nextDueAt\`, \`lastProbedAt\` and \`lastSuccessAt\`. After a run of failures the next probe can be up to 24 hours away, which is why there is a button.`,
      },
      { h2: "Probe again now", id: "probe-again" },
      {
        p: `Each server page has a **Probe again now** button. It queues one probe of that registry server (never of an arbitrary URL), at most once per server every 15 minutes and within an hourly limit for the whole site (60 by default; the operator sets both with \`REPROBE_MIN_MINUTES\` and \`REPROBE_HOURLY_CAP\`). The page then says it is queued, and later when it was probed; when a limit refuses the request, it says which. The queued probe is an ordinary one: same code, same politeness, same opt-outs, written to the same history.`,
      },
      { h2: "How rounds run", id: "rounds" },
      {
        ul: [
          "A round probes the servers that are due, with a bounded number in flight overall and [per host](" +
            at("opting-out", "per-host") +
            ").",
          "Rounds start from the built-in scheduler (`PROBE_SCHEDULE`) or from an outside cron calling `POST /api/rounds` with the secret; two rounds never run at once.",
          "Each server's results are written in one transaction (a transaction may hold a batch of servers). A crash loses at most the batch not yet written, and those servers stay due for the next round.",
        ],
      },
    ],
  },

  uptime: {
    title: "Uptime: which probes count, over which days",
    summary:
      "How the uptime figures beside the history strip and on the uptime badge are counted, which probes are left out, and how to read them.",
    firstPublished: "2026-12-01",
    body: [
      { h2: "What the figure counts", id: "definition" },
      {
        p: `Uptime is the share of a server's probes that found it up, among the probes that reached it. A probe finds the server up when the handshake completed, or when it stopped at a [credential gate](${at("credential-gate")}): a server that asks for a login is answering the way it means to. It finds the server down when the handshake failed: a refused connection or a timeout, a redirect or a 5xx, an answer that is not MCP, a 401 without a challenge, a modern handshake declined with -32020, -32021 or -32022.`,
      },
      { h2: "Probes that are left out", id: "left-out" },
      {
        ul: [
          "The server asked to slow down (429, or 503 with `Retry-After`) before the handshake ended: it did answer, but nothing about its health was learned.",
          `The host asked not to be probed ([opt-out](${at("opting-out")}) by the operator list or robots.txt): no request was sent.`,
          `The registry entry [needs configuration](${at("which-servers", "needs-configuration")}): no request was sent either.`,
          "The probe's own network was failing: that outage is ours, not the server's.",
        ],
      },
      {
        p: `These count neither as up nor as down, so a server that is probed rarely is never pushed towards 0 % or 100 % by probes that told us nothing.`,
      },
      { h2: "Only the handshake decides", id: "handshake-only" },
      {
        p: `A server whose handshake completes but whose tool list then fails, or that shares no protocol revision with the probe, counts as up: it answered. Those problems are ${S.failed} checks on its page and open an [incident](${at("incidents")}), which follows all three discovery checks.`,
      },
      { h2: "The four windows", id: "windows" },
      {
        table: {
          caption: "Uptime windows",
          head: ["Window", "Which probes"],
          rows: [
            ["24 hours", "Those that started in the 24 hours before the figure was computed (probes are kept 30 days)."],
            [
              "7, 30 and 90 days",
              "Those of the last 7, 30 or 90 whole UTC days, today included, read from per-day counters that stay after the probes themselves are deleted. The 90 days are the days of the history strip.",
            ],
          ],
        },
      },
      { h2: "Reading the number", id: "reading" },
      {
        ul: [
          "A share is never rounded up: one probe missed in ten thousand shows as 99.99 %, not 100 %.",
          `Each figure shows how many probes it rests on. Probes come every 30 minutes to 24 hours ([schedule](${at("schedule")})), so a 24-hour figure may rest on a few.`,
          "When no probe reached the server in a window, the figure says so instead of showing 0 % or 100 %.",
          "Days recorded before uptime was counted carry no counters, so early 90-day figures rest on fewer days.",
        ],
      },
      { h2: "Badge and JSON", id: "badge" },
      {
        p: `\`/badge/<registry name>?metric=uptime\` is an SVG badge of the 30-day figure; add \`&window=24h\`, \`7d\` or \`90d\` for another window. The same path under \`/api/badge/\` answers shields.io endpoint JSON. \`/api/servers/<registry name>\` carries \`uptime\` with \`last24h\`, \`last7d\`, \`last30d\` and \`last90d\`, each \`{ratio, up, reached, from}\`: \`ratio\` runs from 0 to 1 and is null when no probe reached the server.`,
      },
    ],
  },

  incidents: {
    title: "Incidents: what opens one, what closes it",
    summary: "When an incident opens on a server page, when it closes, how long it is said to have lasted, and where incidents are listed.",
    firstPublished: "2026-12-01",
    body: [
      { h2: "When an incident opens", id: "opens" },
      {
        p: `An incident opens at the probe that finds a discovery check (${C.handshake}, ${C.protocol_version}, ${C.tools_list}) ${S.failed} while the server has none open. It keeps that check and its reason as recorded at that probe; when more than one of them failed, the first in that order is named.`,
      },
      { h2: "When it closes", id: "closes" },
      {
        p: `It closes at the first later probe that reaches the server with none of the three ${S.failed}: the handshake completed, or met a credential gate. Probes that tell nothing about the server's health (a slow-down, an opt-out, a registry entry that needs configuration, the probe's own network failing) neither open nor close one, so an incident stays open through them.`,
      },
      { h2: "How long it lasted", id: "duration" },
      {
        p: `The duration runs from the probe that opened the incident to the probe that closed it. The outage itself began somewhere after the last good probe and ended somewhere before the first good one again; after failures the probe comes back after 6, 12 and then 24 hours ([schedule](${at("schedule", "backoff")})), so a fix can take that long to show. **Probe again now** on the server page closes an incident as soon as the server is back.`,
      },
      { h2: "Where incidents are listed", id: "where" },
      {
        ul: [
          "On each server page, most recent first, with the duration and the reason that opened each (an ongoing one says so).",
          "On `/incidents`, across all servers and paged; `?server=<registry name>` narrows it to one.",
          "As Atom at `/incidents/feed.xml` (an entry when one opens and another when it closes; `?server=` too).",
          "In `/api/servers/<registry name>` as `incidents`: `startedAt`, `endedAt` (null while open), `durationMs`, `check`, `reason`, `openedRunId`, `closedRunId`.",
        ],
      },
      { h2: "Incidents and uptime", id: "uptime" },
      {
        p: `They answer different questions. [Uptime](${at("uptime")}) counts probes whose handshake worked; an incident follows all three discovery checks. A server whose tool list fails has an open incident while its uptime stays high, and a server that only asks to slow down has neither.`,
      },
    ],
  },

  "self-test": {
    title: "Testing your own server with the command-line probe",
    summary: "From a fresh clone: the same code the site runs, against your URL, as text or JSON.",
    firstPublished: "2026-11-30",
    body: [
      { h2: "From a fresh clone", id: "clone" },
      {
        p: `You need Node.js 24 (the LTS, which we recommend) or Node.js 20, the two versions our CI tests. Nothing is stored and no database is needed.`,
      },
      { code: FRESH_CLONE, label: "Fresh clone" },
      { h2: "Options", id: "options" },
      { code: SELF_TEST_CLI, label: "Self-test commands" },
      {
        ul: [
          "`--transport sse` probes an endpoint of the 2024-11-05 HTTP+SSE transport; the default is `streamable-http`.",
          "`--json` prints `{url, suite, era, protocolVersion, checks: {<id>: {state, reason}}, exchanges: […]}`.",
          "`--opt-out <host>` (repeatable) treats a host as opted out, to see what the site would show for it.",
          "`--legacy` starts with `initialize` and never sends `server/discover`, as a client of 2025 does: the way to see the legacy path of a server that speaks both eras, which the site's own probe never takes once discover succeeds.",
          "The exit code is 0 whenever the probe ran, whatever the verdicts, and 2 with a message on bad usage.",
        ],
      },
      { h2: "Servers on your own machine", id: "local" },
      {
        p: `Private and loopback addresses are refused, as on the site. Set \`PROBE_ALLOW_PRIVATE_NETWORKS=1\` for a local test; the name is loud on purpose, and the site never sets it.`,
      },
      { h2: "By hand, with curl", id: "curl" },
      {
        p: `The first two requests of a probe, to compare with what your server logs. Every exchange on a server page also has its own curl line.`,
      },
      { code: SELF_TEST_CURL, label: "Self-test with curl" },
    ],
  },

  "ask-over-mcp": {
    title: "Asking this site from an MCP client",
    summary:
      "The site is a remote MCP server itself: three read-only tools, how to add it to a client, what bad input gets, and the rate limit.",
    firstPublished: "2026-12-01",
    body: [
      { h2: "Adding the endpoint", id: "connect" },
      {
        p: `An agent about to connect a server can ask this site first, over MCP. The endpoint is \`/mcp\` on the site's own address (Streamable HTTP). It speaks both eras: a ${MODERN_REVISION} client opens with \`server/discover\`, an older one with \`initialize\` (${LEGACY_REVISIONS[0]} and earlier). It keeps no sessions, asks for no sign-in and sets no cookie, so any copy of the site behind a load balancer can answer any request.`,
      },
      { code: MCP_CLIENT_CONFIG, label: "MCP client configuration" },
      {
        p: "Replace the address with the site's own. Some clients call the top-level key `servers` instead of `mcpServers`, or write the type as `streamable-http`.",
      },
      { h2: "The three tools", id: "tools" },
      {
        table: {
          caption: "Tools on /mcp",
          head: ["Tool", "Arguments", "What comes back"],
          rows: [
            [
              "`get_server_status`",
              "`name`: a registry name such as `io.github.owner/server`",
              "The overall state, the five checks with state, reason and hint, the agreed revision, when the server was last probed and last read completely, its uptime, and links to its page and JSON.",
            ],
            [
              "`search_servers`",
              '`query` (part of a name or title), a state per check (e.g. `tools_list: "failed"`), `includeLeft`, `page`, `pageSize`',
              "One page of servers with the overall state and the five states of each, and how many match in all. The same list and filters as [the index](/).",
            ],
            [
              "`recent_changes`",
              "`since` (a date or date-time, 24 hours ago by default), `name` for one server, `limit`",
              "Checks that changed state and tool definitions that changed (added, removed, or a field changed), newest first.",
            ],
          ],
        },
      },
      {
        p: `Every tool only reads what the pages read; none starts a probe or writes anything, and each says so in its annotations (\`readOnlyHint\`). Each answer comes twice: as structured content that matches the tool's published output schema, and as a short text for a model to read, with the states in words, every reason and hint, the times, and the page to cite.`,
      },
      { h2: "Reading the answers", id: "reading" },
      {
        p: `States mean exactly what they mean on the pages. ${S.not_checked} says the probe could not look (a credential required, an opt-out, a request to slow down), which is not a fault of the server. The overall state is ${S.failed} if any check failed, else ${S.observed_risk} if any showed a risk, and ${S.verified} only when the ${C.handshake.toLowerCase()} completed and the tool list was read; a server behind a credential gate is therefore ${S.not_checked} overall, never ${S.verified}. Links are built from \`PUBLIC_BASE_URL\` when the site has one.`,
      },
      { h2: "Bad input", id: "bad-input" },
      {
        ul: [
          "A wrong type, a missing `name`, a property the tool does not have, or a `query` over 200 characters: a tool error (`isError: true`) that names the field and says what was expected. Nothing is guessed.",
          "A registry name the site does not know: a tool error that names it and points to `search_servers`.",
          "`pageSize` over 50 or `limit` over 100 is lowered to the cap; the answer carries a note saying so, in `notes` and in its text.",
        ],
      },
      { h2: "The rate limit", id: "rate-limit" },
      {
        p: `Each client address may send 60 requests at once, and regains 120 a minute after that (an IPv6 address counts with its whole /64). Past it the answer is HTTP 429 with \`Retry-After\` in seconds; a ${MODERN_REVISION} client also gets the JSON-RPC error \`-32023\` (rate limited, from a draft proposal) with \`data.retryAfterMs\`, and an older client \`-32000\`. The address is the one that opened the connection to the site; an \`X-Forwarded-For\` a client writes itself is not believed. No answer of \`/mcp\` is ever stored by a cache.`,
      },
      { h2: "Held to its own standard", id: "self-checked" },
      {
        p: `The site's test suite runs [the probe](${at("self-test")}) against its own \`/mcp\` in both eras (with \`--legacy\` for the older one) and requires ${C.handshake}, ${C.protocol_version}, ${C.tools_list} and ${C.error_taxonomy} to be ${S.verified}, and ${C.auth_metadata} ${S.not_checked} because nothing asks for a credential. It also runs the official MCP conformance suite's protocol scenarios against it.`,
      },
    ],
  },

  "json-and-badges": {
    title: "Badges, JSON, the API description and metrics",
    summary:
      "Link a server's status, read it as JSON, check a client against the OpenAPI document, scrape a copy of the site with Prometheus.",
    firstPublished: "2026-12-01",
    body: [
      { h2: "Badges", id: "badges" },
      {
        p: `\`/badge/<registry name>\` is an SVG of a server's overall state. Add \`?check=<id>\` for one check, or \`?metric=latency\` for the handshake p95 of the last 24 hours. The same paths under \`/api/badge/\` answer shields.io endpoint JSON, for a badge drawn in shields.io's style. A name the site does not know gets a grey badge with status 404, so a mistyped link shows as such.`,
      },
      { h2: "JSON", id: "json" },
      {
        ul: [
          "`/api/servers`: the index as pages of rows, with its search and check filters (`?tools_list=failed`).",
          "`/api/servers/<registry name>`: the five checks with state and reason, the evidence, the history and the tools.",
          "`/api/status`: for uptime monitors; 503 while an alert is open.",
          "`/api/cross-reads`: the latest day of the second reader.",
        ],
      },
      { p: `Registry names contain slashes; they go into these paths as they are.` },
      { h2: "The API description", id: "openapi" },
      {
        p: `\`/api/openapi.json\` describes every JSON route in OpenAPI 3.1: its parameters, its answer for each status, and every field with its type. The site generates it from the same schemas its routes use, and the test suite checks the live answer of every route against it, so the description cannot fall behind the code. Objects are closed: no answer carries a field the document does not name. Generate a client from it, or validate what you receive in your own tests.`,
      },
      { h2: "Metrics for Prometheus", id: "metrics" },
      {
        p: `Whoever runs a copy of the site can set \`METRICS_TOKEN\` and scrape \`/metrics\` with it as a bearer token. It holds rounds started and finished, round durations, servers probed and probe requests by outcome, coverage and its 7-day median, open alerts, how many servers each check found in each state, the latest cross-read outcomes and the usual process figures. A request without the token gets 401, and while no token is configured the path does not exist. The README has a scrape configuration and alert rules to start from.`,
      },
    ],
  },

  owners: {
    title: "Owners: a claimed listing, and the view behind the key",
    summary:
      "What a claim proves and what it does not, what the site does with a key, where it goes, how to revoke it, and why the public state stays put.",
    firstPublished: "2026-12-05",
    body: [
      { h2: "Why there is an owner's view", id: "why" },
      {
        p: `More than half of the servers in the registry refuse an anonymous client until it brings a key. For those, the public page can only say that the server asked for one. Whoever runs the server can let the site look further: the site then probes it a second time, carrying the owner's key, and shows what a client with that key would meet.`,
      },
      { h2: "What a claim proves, and what it does not", id: "claim" },
      {
        p: `A claim starts from the server page ("Is this your server?") or \`POST /api/servers/<name>/claims\`. You get a secret claim token and one line of text. Put that line in a plain-text file at \`/.well-known/mcp-status-claim\` on the origin the site probes, then ask the site to verify. It fetches that one URL once, under the same address rules, opt-outs and per-host pacing as its probes, and never follows a redirect: a redirect is refused and named. When the line is there, you get a manage link.`,
      },
      {
        ul: [
          "A verified claim shows that whoever holds it could put a file on the server's origin. It says nothing about the quality, safety or ownership of the code behind it.",
          "Several people may hold verified claims on one server; the owner's view uses the configuration of the one verified most recently.",
          "The file is fetched again every 7 days. If it is gone at two checks in a row, the claim lapses and its stored values are deleted.",
        ],
      },
      { h2: "What the site does with a key", id: "key" },
      {
        p: `On the manage page you may set only the header values the registry lists for the probed remote, or an \`Authorization\` value when the server answered with a credential gate. A value with a line break or over 8 KB is refused. When every remote's URL has a \`{variable}\` with no default (such as \`https://example.com/{tenant}/mcp\`), the public listing has no address and gets no request; you may fill those variables in, for the owner's view only. A variable's value is one path segment (sent percent-encoded; whitespace and \`/ ? # @\` are refused), and the filled URL must stay on the origin you proved. A listing whose host itself is a variable (\`https://{tenant}.example.com/mcp\`) cannot be claimed: there is no one origin to publish a proof on. Each value is encrypted before it is written (AES-256-GCM, with a key the operator keeps outside the database) and is never shown again: not on the manage page, not in JSON, evidence, curl lines, feeds, open data, metrics or logs. Pages list only the header and variable names and when they were set.`,
      },
      { h2: "Where the key is sent", id: "where" },
      {
        p: `Only when the anonymous probe of a round ends at the key or at the gate, the same round probes the server once more with your values. They go only to the exact origin (scheme, host and port) of the probed remote: never to another host the server points at (such as an authorization metadata host), and never across a redirect, since the probe follows none. Anything the server sends back is stored with every value replaced by \`‹redacted›\`; a filled URL is stored as the registry's template with \`‹redacted›\` in each variable's place, so even a two-letter value is never kept.`,
      },
      { h2: "What you are told", id: "told" },
      {
        ul: [
          "If the server answers 401 or 403 to your values on the handshake or the tool list, the owner's view turns Not checked with that reason, and your own subscriptions get `owner_configuration_refused`. It is your key's trouble, so it never counts against the server.",
          "If a value is a JWT (or `Bearer ` and a JWT) whose expiry is less than 72 hours away, your subscriptions get `owner_token_expiring`, once per value. The site reads the expiry without checking the token's signature: checking it is not the site's business.",
        ],
      },
      { h2: "How to revoke it", id: "revoke" },
      {
        p: `On the manage page, remove the configuration or give up the claim; both delete the stored values at once. Removing the proof file also ends the claim within two weekly checks. Rotating the key on your own side works too: the next round's probe is refused and you are told so.`,
      },
      { h2: "Why the public state does not change", id: "public" },
      {
        p: `The public state, badge, census and uptime describe what an anonymous client meets, which is what anyone reading a listing can check for themselves. The owner's view is shown beside it ("With the owner's key: ${S.verified}, 14 tools"), with its own five checks and uptime, and as \`ownerView\` in the JSON and \`/badge/<name>?view=owner\`. A server whose owner set a key is not ranked above one whose owner did not.`,
      },
    ],
  },
  "opting-out": {
    title: "Opting out, undoing it, and how the probe paces its requests",
    summary: "robots.txt and the operator list, how to come back, the user agent, and the per-host limits the probe keeps.",
    firstPublished: "2026-09-14",
    body: [
      { h2: "What an opt-out does", id: "no-request" },
      {
        p: `A host that asked not to be probed gets no request at all: no handshake, no tool list, no metadata fetch. Its servers keep their pages, with every check ${S.not_checked} and the opt-out as the reason.`,
      },
      { h2: "With robots.txt", id: "robots" },
      {
        p: `Name the user-agent token \`${ROBOTS_TOKEN}\` in \`/robots.txt\` on the host that serves the endpoint. A rule that disallows the endpoint's path is an opt-out for the servers under that path. The file is read at most once a day per host.`,
      },
      { code: ROBOTS_EXAMPLE, label: "robots.txt: the whole host" },
      { code: ROBOTS_PATH_EXAMPLE, label: "robots.txt: one path, and a gap between requests" },
      { h2: "Through the operator list", id: "operator" },
      {
        p: `Write to the people who run this site and name the host. They record it in the site's database with the \`opt-out\` command, which can also list and remove entries; it holds from the next round.`,
      },
      { code: OPT_OUT_COMMANDS, label: "Operator commands" },
      { h2: "Undoing an opt-out", id: "undo" },
      {
        ul: [
          "robots.txt: remove or narrow the rule. The probe sees the change at its next daily read of the file, and the servers are probed from then on.",
          "Operator list: ask for the host to be removed. `npm run opt-out -- remove <host>` makes its servers due at once, so the next round probes them.",
        ],
      },
      { h2: "How the probe identifies itself", id: "identity" },
      {
        p: `Every request carries the \`User-Agent\` \`${USER_AGENT_EXAMPLE}\`, which names the site and links this page. The probe sends no credentials, no cookies and no \`Origin\`, and never follows a redirect.`,
      },
      { h2: "How requests are paced", id: "pacing" },
      {
        p: `The probe keeps these limits on every host, whether or not it opted out of anything:`,
      },
      {
        table: {
          caption: "Per-host limits",
          head: ["Limit", "What it means in practice"],
          rows: [
            {
              id: "one-request",
              cells: ["Within one server's probe, one request at a time", "The next request leaves only after the previous answer is in."],
            },
            {
              id: "per-host",
              cells: [
                "One probe at a time per host",
                "Two servers on the same host are probed one after the other. A host that serves 50 or more registry servers (a hosting platform) may have up to `PROBE_HOST_CONCURRENCY` probes in flight, 4 by default, so that all its tenants are still covered every round.",
              ],
            },
            {
              id: "crawl-delay",
              cells: [
                `\`Crawl-delay\` for \`${ROBOTS_TOKEN}\` in \`robots.txt\``,
                "Taken as the shortest gap, in seconds, between any two requests to that host, across all its servers: requests then go one at a time, each starting that long after the previous one ended.",
              ],
            },
            {
              id: "host-pause",
              cells: [
                "429, or 503 with `Retry-After`, from any server on the host",
                "No new probe starts on that host until the `Retry-After` has passed; the server that answered so gets nothing more this round.",
              ],
            },
            {
              id: "metadata-hosts",
              cells: [
                "Metadata on another host",
                "The same opt-outs apply there: a host on the list, or disallowing the token, is not fetched from (suite 0.11.0).",
              ],
            },
            {
              id: "one-gate",
              cells: [
                "All of the site's traffic to a host together",
                "These limits hold for the rounds, the daily cross-reader and **Probe again now** at once, even for a round started from the command line beside the running site: they share one gate per host through the database, and a `Crawl-delay` counts from the last request any of them sent.",
              ],
            },
          ],
        },
      },
      {
        p: `Beyond these, the [schedule](${at("schedule", "table")}) keeps visits rare: at most every 30 minutes for a healthy server, and far less often after failures.`,
      },
    ],
  },

  coverage: {
    title: "Coverage, not success rate",
    summary: "Why the headline figure is how many servers were read, and how a success rate can look fine while servers go unread.",
    firstPublished: "2026-11-05",
    body: [
      { h2: "Coverage is the headline", id: "coverage" },
      {
        p: `Coverage is the number of distinct servers with a [complete read](${at("tools-list", "complete-read")}) in a UTC day. It is the figure the [coverage page](/coverage) leads with and the one the alert watches.`,
      },
      { h2: "Success rate sits beside it", id: "success-rate" },
      {
        p: `The share of requests that succeeded is shown too, labelled as what it is. It flatters a prober that backs off: a failing server is asked every 6 to 24 hours instead of every 30 minutes, so as servers fail, they make fewer requests, and the rate rises while fewer servers are read.`,
      },
      { h2: "Failing servers stay visible", id: "failing" },
      {
        p: `Every server shows the time since its last complete read, and the coverage page lists the servers that have gone longest without one. A server that fails for a week keeps its page and stays on that list; it does not fade out of the numbers.`,
      },
      { h2: "The alert", id: "alert" },
      {
        p: `When a complete day's coverage falls clearly below its recent level, a \`coverage_drop\` alert opens and reaches a person; it resolves when a later day is back. [Operating the site](${at("operating", "alerts")}) describes all alerts.`,
      },
      { h2: "Where this comes from", id: "lesson" },
      {
        p: `Another team that records MCP tool definitions moved its reader to ${MODERN_REVISION} in late October 2026 and made its fallback strict: it asked for particular statuses, particular error codes and a matching id. In the hour before their fix, 9,400 of 9,514 requests succeeded (98.8%), yet a set of 2,195 servers that had been read on 28 October had not been read once since the 30th.`,
      },
      {
        p: `Over the same days their count of distinct servers read per day went from about 28,200 (29 October) to about 23,000 (31 October), and no alert was attached to it. The 2,195 are only the servers their write-up traced to the strict fallback; it does not claim the whole drop came from it. An independent reader run by another team, comparing tool lists field by field, is what exposed the gap. The lesson we take is about measurement: watch how many servers were read, alert on it, and keep [a second reader](${at("operating", "cross-reader")}) that does not share the main reader's assumptions.`,
      },
    ],
  },

  regions: {
    title: "Probing from several regions: how regions vote",
    summary:
      "Why one region's failure is not the server's, how a failure is confirmed from elsewhere, and how a region whose own network fails is set aside.",
    firstPublished: "2026-12-01",
    body: [
      { h2: "Why more than one place", id: "why" },
      {
        p: `From one machine, a dead server and a broken path to it look the same. A routing fault between one data centre and one provider, a resolver that misbehaves in one country, one edge of a CDN that drops connections: each would turn into ${S.failed} for everybody, with days of back-off on top. When the site runs with several regions, it asks somewhere else before it believes a failure.`,
      },
      { h2: "One region reads each server", id: "primary" },
      {
        p: `The site still plans every round and writes every result. Small agents in other regions run the very probe code of the site and of \`npm run probe\`, and send back what they saw; they keep no database. Each due server is probed once per round by one region, its primary. The primary moves from round to round across the regions that are up, so every region builds up its own response times for every server.`,
      },
      { h2: "A failure is asked again from two other regions", id: "confirmation" },
      {
        p: `When the primary's handshake or tool list fails, whether no connection could be made or the server answered with an HTTP error, the same round asks two other regions that are up to probe the server at once (every other region, when fewer are up). Each of those probes is a run of its own, kept with its region and its evidence. A server that answers normally from the primary gets no second probe.`,
      },
      { h2: "The vote", id: "quorum" },
      {
        p: `${S.failed} needs a majority of the regions that probed the server in that round: two of three, or two of two. Only that verdict moves the schedule: the back-off after failures starts when the majority failed, and never because of one region.`,
      },
      { h2: "The regional note", id: "regional-note" },
      {
        p: `When only a minority fails, the state comes from the regions that read the server, and the page and the JSON carry a note beside it, such as: failed from b at 14:05 UTC (HTTP 502) while a and c read it. The note is a fact about a path to the server, not about the server: a provider that blocks one region, or a route that is broken for a while. It shows where each region's view came from, so the operator can look at the right place.`,
      },
      { h2: "A region whose own network fails", id: "region-down" },
      {
        p: `Each region has the check that [the probe's own network](${at("own-network", "host-share")}) describes, computed by the site from that region's answers: the share of the distinct hosts it tried lately whose probe failed with no HTTP answer at all. When that share is above half, and far above what the other regions see for their hosts, the fault is the region's. A region that answers no probe for five minutes counts the same way. Such a region is down: it gets no primaries, its failures count for nothing, and the alert \`region_down\` opens for it (see [operating the site](${at("operating", "alerts")})).`,
      },
      {
        p: `A down region is not forgotten. It still gets a few copies of probes that another region just read, a handful a minute; they count for nothing but the region's own health. After two of those read the server in a row, the region is up again and its alert resolves by itself. With fewer than two regions up, the rules for [one vantage point](${at("own-network", "second-probe")}) apply as they always did.`,
      },
      { h2: "Politeness across regions", id: "politeness" },
      {
        p: `The limits on [requests per host](${at("opting-out", "per-host")}) are the site's, not each region's. A probe sent to any region takes the host's slot at the site and gives it back when the answer arrives or the request times out; a \`Crawl-delay\` counts from that answer. A host therefore sees one bound for all regions together. Each agent's User-Agent names its region, so a server operator reading logs sees where a probe came from.`,
      },
      { h2: "Without regions", id: "default" },
      {
        p: `A site started without \`NATS_URL\` has one region, \`local\`, and probes in-process exactly as it did before regions existed: the same verdicts, the same schedule. Every run still records its region, so the history reads the same way in both set-ups.`,
      },
    ],
  },

  "own-network": {
    title: "When the fault is ours: the probe's own network",
    summary: "How a failure at the network level is checked twice, and how the site tells its own outage from a server's.",
    firstPublished: "2026-12-01",
    body: [
      { h2: "Why the probe doubts itself", id: "why" },
      {
        p: `The site probes from one place. If that place loses its resolver or its way out to the internet, every server it tries looks unreachable at once. Writing that down as ${S.failed} would mark healthy servers down and push each one's next probe 6 to 24 hours away, so our outage would go on hiding them long after it ended: [coverage](${at("coverage", "lesson")}) tells how a back-off can hide servers in exactly this way. So a failure at the network level is never taken at its word.`,
      },
      { h2: "A failure at the network level", id: "network-level" },
      {
        p: `The request that decided the handshake got no HTTP answer at all: the name could not be resolved, the connection was refused or timed out, the TLS handshake failed, or the connection was reset before any answer came. Any HTTP answer, even a 404 or a 500, shows that the path to the server works, and it is judged as usual.`,
      },
      { h2: "A second probe before Failed", id: "second-probe" },
      {
        p: `When a server whose last verdict says its handshake completed fails that way, nothing is written yet. The round probes it once more, at least 60 seconds later. If the second probe gets an answer, that is what the page shows, and the first failure leaves no mark. If it fails at the network level again, ${C.handshake} is ${S.failed}, the reason says it failed twice, and both requests are kept as evidence. A ${S.not_checked} handshake counts as completed here: a credential gate, a slow-down or our own outage says nothing against the server. A server that was already failing, or has never answered, gets no second probe.`,
      },
      { h2: "Hosts, not servers", id: "host-share" },
      {
        p: `While a round runs, the probe keeps the latest result of the last 50 distinct hosts it tried (a host is a name with its port). Once it has tried at least 20, it looks at the share whose latest probe failed at the network level. When more than half did, and that share is also more than three times its usual level over the past 7 days, it presumes that its own network is down. Counting hosts keeps one platform from looking like the whole internet: a hosting platform with thousands of servers that goes down is one host among many, and its servers are ${S.failed}, each after its second probe. Servers that were already failing are left out of the count, so a batch of long-dead servers that come due together does not set it off.`,
      },
      { h2: "What the round does then", id: "pause" },
      {
        ul: [
          "It starts no new probe.",
          "Every 30 seconds it asks a few of the hosts that just failed for their `robots.txt`; any HTTP answer counts. When more than half of them answer, probing goes on.",
          "If they have not answered after 10 minutes, the round ends, and the servers it had not started stay due.",
          `The servers it failed on while its network was down are recorded ${S.not_checked}, with the reason "the probe's own network was failing", and without any back-off: they are due for the very next round. Their failed requests are kept as evidence. Such a probe is not counted as an attempt in [coverage](${at("coverage", "coverage")}).`,
          `The alert \`probe_network\` opens (see [operating the site](${at("operating", "probe-network")})). It resolves when probes succeed again: at a recheck during the pause, or in the next round that reaches its hosts.`,
        ],
      },
      { h2: "A name that does not exist", id: "nxdomain" },
      {
        p: `When DNS says a name does not exist while the same resolver answers for other names, the fault is the server's: its name is gone. ${C.handshake} is ${S.failed} at once, without a second probe, and the name does not count toward the share. Only when the resolver answers for no name at all may the fault be ours.`,
      },
      { h2: "What this cannot do", id: "limits" },
      {
        p: `One vantage point stays one vantage point. A fault between us and one provider or one region, which leaves most hosts reachable, is still recorded against the servers behind it, each after its second probe. The two checks only keep a failure of our own from being written down as everyone else's.`,
      },
    ],
  },

  operating: {
    title: "Operating the site: alerts, the status endpoint and the cross-reader",
    summary: "The alert kinds, /api/status for monitors, the webhook, and the second reader that looks for the probe's blind spots.",
    firstPublished: "2026-11-30",
    body: [
      { h2: "Liveness", id: "health" },
      {
        p: `\`GET /api/health\` answers 200 while the process serves. It says nothing about data, so a process manager never restarts the site because rounds are late.`,
      },
      { h2: "Alerts", id: "alerts" },
      {
        p: `Alerts open and resolve by themselves and are evaluated at least once a minute on a clock of their own, not only when a round ends, so a stopped scheduler is noticed too. Open and past alerts are listed on [the coverage page](/coverage) and in an Atom feed beside it (\`/coverage/feed.xml\`).`,
      },
      {
        table: {
          caption: "Alert kinds",
          head: ["Kind", "Opens when", "Resolves when", "What to do"],
          rows: [
            {
              id: "coverage-drop",
              cells: [
                "`coverage_drop`",
                "A complete UTC day's coverage is clearly below its recent level",
                "A later complete day is back",
                "Look at the servers that went unread: a shared cause (a host, an error shape) usually shows.",
              ],
            },
            {
              id: "rounds-stale",
              cells: [
                "`rounds_stale`",
                "No round has finished for `ALERT_STALE_MINUTES` (120 by default), whoever was meant to start them",
                "A round finishes",
                "Check the scheduler or the outside cron, and the logs of the last round.",
              ],
            },
            {
              id: "cross-read-alert",
              cells: [
                "`cross_read`",
                "The day's rate of [unexplained](/faq/operating#explained) cross-read differences is above its threshold",
                "A later day is below it",
                "Read the day's unexplained `only_cross_reader` and `disagreed` servers first.",
              ],
            },
            {
              id: "probe-network",
              cells: [
                "`probe_network`",
                `More than half of the hosts a round tried last failed at the network level, far above the usual level: [the probe's own network](${at("own-network", "pause")}) is presumed down`,
                "Probes succeed again, at a recheck or in a later round",
                `Check the probe machine's resolver, its route out and its firewall. Nothing needs resetting: the servers it failed on are ${S.not_checked} and due for the next round.`,
              ],
            },
            {
              id: "region-down",
              cells: [
                "`region_down`",
                `A probing region's own share of hosts failing at the network level trips, or it answered no probe for 5 minutes: [its failures count for nothing](${at("regions", "region-down")}); one alert per region`,
                "The region answers and reads again (a few copies of probes keep asking it)",
                "Look at that region's agents: are they running, connected to NATS, and can their machine reach the internet? Verdicts meanwhile come from the other regions.",
              ],
            },
            {
              id: "database-unwritable",
              cells: [
                "`database_unwritable`",
                "A write to the database failed for want of space, with an I/O error or on a read-only file (SQLite's FULL, IOERR and READONLY codes), or less than 8 MiB are left on its volume (measured every 30 seconds and before a round starts, since a full volume can go on taking small writes for a while). It is kept in the site's memory, since it cannot be stored, and shows on `/api/status` at once",
                "A test write succeeds again: the write-ahead log is folded into the database, 8 MiB fit beside it and a row is written (tried every 30 seconds)",
                "Free space on the database's volume, or check the volume. Pages keep answering from what is stored; a round that met it stops starting probes and leaves the servers it could not record due; `POST /api/rounds` answers 503 until writes work.",
              ],
            },
          ],
        },
      },
      { h2: "/api/status for an outside monitor", id: "status" },
      {
        p: `\`GET /api/status\` returns JSON with \`lastRoundFinishedAt\`, \`coverage\` (today and the 7-day median), \`crossRead\` (the latest day's counts) and \`alerts\` (the open ones, each with its kind and since when). The status is 503 while any alert is open and 200 otherwise, so any uptime monitor that checks for a 200 works unchanged. It needs no secret and holds nothing private.`,
      },
      { h2: "The webhook", id: "webhook" },
      {
        p: `With \`ALERT_WEBHOOK_URL\` set, every opening and every resolution is POSTed there as JSON: \`text\` is one sentence naming the kind and whether it opened or resolved (what chat webhooks display), \`alert\` carries the details. Failed deliveries are retried a few times with back-off and then logged; they never hold up a round.`,
      },
      { wire: WEBHOOK_EXAMPLE, label: "Webhook body (shape)" },
      { h2: "The cross-reader", id: "cross-reader" },
      {
        p: `Once per UTC day, after the first round that finishes that day, a second reader reads a fixed random sample of registry servers with a usable remote (\`CROSS_READ_SAMPLE\`, 200 by default). The sample is drawn from all of them, including servers the probe could not read. The second reader is built on the official MCP SDK client, not on the probe's code, and always starts with \`initialize\`, so it does not share the probe's assumptions about the handshake. Its tool list is compared with the probe's latest complete read, path by path.`,
      },
      { h2: "Outcomes", id: "outcomes" },
      {
        table: {
          caption: "Cross-read outcomes",
          head: ["Outcome", "Meaning"],
          rows: [
            ["`agreed`", "Both read the list, and it is the same."],
            ["`disagreed`", "Both read it, and it differs; the differing field paths are stored."],
            ["`only_probe`", "Only the probe has a complete read."],
            {
              id: "only-cross-reader",
              cells: [
                "`only_cross_reader`",
                "The second reader read a list the probe could not. This is the figure to watch: a possible blind spot of the probe.",
              ],
            },
            ["`neither`", "Neither could read it."],
          ],
        },
      },
      {
        p: `\`only_cross_reader\` leads because it is the failure that hides best. A server the probe cannot read looks, on the probe's own figures, like a server that is down; only a reader that does not share the probe's code can tell the two apart. The day's outcomes are on [the coverage page](/coverage) and at \`GET /api/cross-reads\` as \`{day, servers: [{name, outcome, explained, paths}]}\`.`,
      },
      ...explainedBlocks("en"),
      { h2: "The cross-reader's manners", id: "cross-reader-politeness" },
      {
        p: `It keeps the probe's rules: the same opt-outs, address policy, user agent and deadline, one request at a time per host, and it never calls a tool.`,
      },
    ],
  },

  changelog: {
    title: "Changelog of the check suite",
    summary: "Every rule change and correction, dated, with the suite version that carries it.",
    firstPublished: "2026-09-14",
    body: [
      { h2: "Versions", id: "versions" },
      {
        p: `Every stored result carries the version of the suite that produced it, so a result judged under older rules can be told apart; the server page says when a result predates the current suite.`,
      },
      { h2: "Corrections", id: "corrections" },
      {
        p: `A correction makes the code do what a rule already said. It ships without a new version, and it is listed here with its date all the same.`,
      },
      { h2: "All changes, newest first", id: "entries" },
      { changelog: true },
    ],
  },
};
