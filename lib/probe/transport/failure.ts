// Why a request got no (complete) answer, in one sentence and a kind: the mapping from what undici, Node's
// resolver, TLS and zlib throw to what an exchange records (architecture.md §2.1.7, §2.7, §2.8). Pure, so a table
// of errors reaches every branch without a network.
import type { NetworkErrorKind } from "../../vocabulary/network";
import type { ProbeLimits } from "../types";
import { BodyCapError } from "./body";
import { TLS_VERIFY_CODES } from "./certificates";
import { AddressRefusedError } from "./dns";

export type FailureKind = "timeout" | "deadline" | "network" | "policy" | "cap" | "decode" | "sse_cap";

export interface Failure {
  message: string;
  kind: FailureKind;
  /** Set only when no HTTP answer arrived for a cause in the network (architecture.md §2.7). */
  network?: NetworkErrorKind;
  /** The error code the sentence was read from, when there was one. */
  code?: string;
}

/** The limits a failure sentence names. */
export type FailureLimits = Pick<ProbeLimits, "deadlineMs" | "connectTimeoutMs" | "headersTimeoutMs" | "bodyTimeoutMs">;

/** What a thrown error means for the exchange; `deadlineAborted` wins over any error, since aborting causes one. */
export function describeFailure(err: unknown, limits: FailureLimits, deadlineAborted: boolean): Failure {
  if (deadlineAborted) return { message: `the probe's ${limits.deadlineMs} ms deadline ran out`, kind: "deadline" };
  const chain: unknown[] = [];
  for (let e: unknown = err; e && chain.length < 5; e = (e as { cause?: unknown }).cause) chain.push(e);
  for (const e of chain) {
    if (e instanceof AddressRefusedError) return { message: `address refused: ${e.message}`, kind: "policy" };
    if (e instanceof BodyCapError) return { message: e.message, kind: "cap" };
  }
  const first = chain[0] as { code?: string; message?: string } | undefined;
  const code = chain.map((e) => (e as { code?: string }).code).find((c) => c && c !== "UND_ERR_SOCKET") ?? first?.code;
  switch (code) {
    case "UND_ERR_CONNECT_TIMEOUT":
      return { message: `no connection within ${limits.connectTimeoutMs} ms`, kind: "timeout", network: "connect_timeout", code };
    case "UND_ERR_HEADERS_TIMEOUT":
      return { message: `no response headers within ${limits.headersTimeoutMs} ms`, kind: "timeout", code };
    case "UND_ERR_BODY_TIMEOUT":
      return { message: `the body stalled for ${limits.bodyTimeoutMs} ms`, kind: "timeout", code };
    case "ENOTFOUND":
      return { message: `DNS lookup failed (${code})`, kind: "network", network: "nxdomain", code };
    case "EAI_AGAIN":
    case "EAI_FAIL":
    case "ESERVFAIL":
    case "ETIMEOUT":
    case "ECONNREFUSED_DNS":
      return { message: `DNS lookup failed (${code})`, kind: "network", network: "dns_unavailable", code };
    case "ECONNREFUSED":
      return { message: "connection refused", kind: "network", network: "refused", code };
    case "ETIMEDOUT":
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return { message: `no connection (${code})`, kind: "network", network: "connect_timeout", code };
    case "ECONNRESET":
    case "UND_ERR_SOCKET":
      return { message: "the connection was closed mid-answer", kind: "network", network: "reset", code: code ?? "ECONNRESET" };
    case "Z_DATA_ERROR":
    case "Z_BUF_ERROR":
    case "ERR_BROTLI_DECOMPRESSION_FAILED":
      return { message: `the compressed body could not be decoded (${code})`, kind: "decode", code };
    default:
      break;
  }
  if (code && ((TLS_VERIFY_CODES as readonly string[]).includes(code) || /CERT|SSL|TLS|ERR_TLS/.test(code)))
    return { message: `TLS failed (${code})`, kind: "network", network: "tls", code };
  const msg = first?.message ?? String(err);
  return { message: code ? `${code}: ${msg}` : msg, kind: "network", code };
}
