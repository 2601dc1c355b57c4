import zlib from "node:zlib";
import { errors } from "undici";
import { describe, expect, test } from "vitest";
import { BodyCapError } from "@/lib/probe/transport/body";
import { AddressRefusedError } from "@/lib/probe/transport/dns";
import { describeFailure, type Failure } from "@/lib/probe/transport/failure";

const limits = { deadlineMs: 60_000, connectTimeoutMs: 10_000, headersTimeoutMs: 20_000, bodyTimeoutMs: 30_000 };

/** What Node and undici throw: an error with a code, and the wrapper fetch-style callers put around it. */
const coded = (code: string, message = `${code} from the system`) => Object.assign(new Error(message), { code });
const wrapped = (cause: unknown) => new TypeError("fetch failed", { cause });
const thrown = (f: () => unknown): unknown => {
  try {
    f();
  } catch (e) {
    return e;
  }
  throw new Error("did not throw");
};

describe("describeFailure: what a thrown error means for the exchange", () => {
  const cases: [string, unknown, Failure][] = [
    [
      "the address policy refused the host",
      new AddressRefusedError("127.0.0.1 is a loopback address"),
      { message: "address refused: 127.0.0.1 is a loopback address", kind: "policy" },
    ],
    [
      "a refusal found as the cause of a wrapper",
      wrapped(new AddressRefusedError("10.0.0.1 is a private address")),
      { message: "address refused: 10.0.0.1 is a private address", kind: "policy" },
    ],
    [
      "the compressed body passed its cap",
      new BodyCapError("compressed body exceeded 1024 bytes"),
      { message: "compressed body exceeded 1024 bytes", kind: "cap" },
    ],
    [
      "no connection within the connect timeout",
      new errors.ConnectTimeoutError(),
      { message: "no connection within 10000 ms", kind: "timeout", network: "connect_timeout", code: "UND_ERR_CONNECT_TIMEOUT" },
    ],
    [
      "no response headers in time",
      new errors.HeadersTimeoutError(),
      { message: "no response headers within 20000 ms", kind: "timeout", code: "UND_ERR_HEADERS_TIMEOUT" },
    ],
    [
      "the body stalled",
      new errors.BodyTimeoutError(),
      { message: "the body stalled for 30000 ms", kind: "timeout", code: "UND_ERR_BODY_TIMEOUT" },
    ],
    [
      "the name does not exist",
      coded("ENOTFOUND"),
      { message: "DNS lookup failed (ENOTFOUND)", kind: "network", network: "nxdomain", code: "ENOTFOUND" },
    ],
    ...(["EAI_AGAIN", "EAI_FAIL", "ESERVFAIL", "ETIMEOUT", "ECONNREFUSED_DNS"] as const).map((code): [string, unknown, Failure] => [
      `the resolver did not answer (${code})`,
      coded(code),
      { message: `DNS lookup failed (${code})`, kind: "network", network: "dns_unavailable", code },
    ]),
    [
      "the connection was refused",
      coded("ECONNREFUSED"),
      { message: "connection refused", kind: "network", network: "refused", code: "ECONNREFUSED" },
    ],
    [
      "a refusal under fetch's wrapper",
      wrapped(coded("ECONNREFUSED")),
      { message: "connection refused", kind: "network", network: "refused", code: "ECONNREFUSED" },
    ],
    ...(["ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH"] as const).map((code): [string, unknown, Failure] => [
      `no route or no answer to the connect (${code})`,
      coded(code),
      { message: `no connection (${code})`, kind: "network", network: "connect_timeout", code },
    ]),
    [
      "the peer reset the connection",
      coded("ECONNRESET"),
      { message: "the connection was closed mid-answer", kind: "network", network: "reset", code: "ECONNRESET" },
    ],
    [
      "undici's socket error alone",
      new errors.SocketError("other side closed"),
      { message: "the connection was closed mid-answer", kind: "network", network: "reset", code: "UND_ERR_SOCKET" },
    ],
    [
      "undici's socket error names the system's code under it",
      Object.assign(new errors.SocketError("other side closed"), { cause: coded("ECONNREFUSED") }),
      { message: "connection refused", kind: "network", network: "refused", code: "ECONNREFUSED" },
    ],
    [
      "a gzip body that is not gzip",
      thrown(() => zlib.gunzipSync(Buffer.from("not gzip at all"))),
      { message: "the compressed body could not be decoded (Z_DATA_ERROR)", kind: "decode", code: "Z_DATA_ERROR" },
    ],
    [
      "a gzip body cut short",
      thrown(() => zlib.gunzipSync(zlib.gzipSync("hello").subarray(0, 12))),
      { message: "the compressed body could not be decoded (Z_BUF_ERROR)", kind: "decode", code: "Z_BUF_ERROR" },
    ],
    [
      "a brotli failure under the code older Node versions give it",
      coded("ERR_BROTLI_DECOMPRESSION_FAILED"),
      {
        message: "the compressed body could not be decoded (ERR_BROTLI_DECOMPRESSION_FAILED)",
        kind: "decode",
        code: "ERR_BROTLI_DECOMPRESSION_FAILED",
      },
    ],
    [
      "an expired certificate",
      coded("CERT_HAS_EXPIRED", "certificate not accepted: CERT_HAS_EXPIRED"),
      { message: "TLS failed (CERT_HAS_EXPIRED)", kind: "network", network: "tls", code: "CERT_HAS_EXPIRED" },
    ],
    [
      "a verify result whose name says nothing of TLS",
      coded("UNABLE_TO_VERIFY_LEAF_SIGNATURE"),
      { message: "TLS failed (UNABLE_TO_VERIFY_LEAF_SIGNATURE)", kind: "network", network: "tls", code: "UNABLE_TO_VERIFY_LEAF_SIGNATURE" },
    ],
    [
      "an OpenSSL error outside the verify list",
      coded("ERR_SSL_WRONG_VERSION_NUMBER"),
      { message: "TLS failed (ERR_SSL_WRONG_VERSION_NUMBER)", kind: "network", network: "tls", code: "ERR_SSL_WRONG_VERSION_NUMBER" },
    ],
    [
      "any other code: the code and the message, with no network cause",
      coded("EPIPE", "write EPIPE"),
      { message: "EPIPE: write EPIPE", kind: "network", code: "EPIPE" },
    ],
    ["an error without a code: its message", new Error("invalid URL not a url"), { message: "invalid URL not a url", kind: "network" }],
    ["something thrown that is not an error", "a bare string", { message: "a bare string", kind: "network" }],
    [
      "a code more than five causes down is not looked for",
      wrapped(wrapped(wrapped(wrapped(wrapped(coded("ECONNREFUSED")))))),
      { message: "fetch failed", kind: "network" },
    ],
  ];
  test.each(cases)("%s", (_name, err, expected) => {
    expect(describeFailure(err, limits, false)).toEqual(expected);
  });

  test("the deadline running out wins over whatever error the abort caused", () => {
    for (const err of [coded("ECONNRESET"), new errors.HeadersTimeoutError(), new DOMException("aborted", "AbortError")]) {
      expect(describeFailure(err, limits, true)).toEqual({ message: "the probe's 60000 ms deadline ran out", kind: "deadline" });
    }
  });
});
