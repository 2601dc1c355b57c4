// What a server's TLS certificate says, recorded for every https connection even when the probe refuses it
// (architecture.md §2.8: an expired certificate's date, a wrong name, an unknown issuer).
import { TLSSocket, type PeerCertificate } from "node:tls";
import { buildConnector } from "undici";
import type { CertificateFacts } from "../types";

/** Trust anchors for tests' own certificates: they replace the system's roots, so production never sets them. */
export type TrustAnchors = string | Buffer | (string | Buffer)[];

/** OpenSSL verify results and Node's name check that mean "this certificate is not accepted" (architecture.md §2.8). */
export const TLS_VERIFY_CODES = [
  "CERT_HAS_EXPIRED",
  "CERT_NOT_YET_VALID",
  "ERR_TLS_CERT_ALTNAME_INVALID",
  "HOSTNAME_MISMATCH",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "UNABLE_TO_GET_ISSUER_CERT",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "CERT_UNTRUSTED",
  "CERT_REVOKED",
  "CERT_SIGNATURE_FAILURE",
] as const;

/** The certificates presented per host:port, as connections were made (a reused connection keeps its own). */
export class CertificateBook {
  private readonly byHost = new Map<string, CertificateFacts>();
  record(facts: CertificateFacts): void {
    this.byHost.set(facts.host, facts);
  }
  get(hostPort: string): CertificateFacts | undefined {
    return this.byHost.get(hostPort);
  }
}

const iso = (d: string | undefined) => {
  const t = d ? Date.parse(d) : NaN;
  return Number.isNaN(t) ? undefined : new Date(t).toISOString();
};
const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

function certificateFacts(host: string, cert: PeerCertificate, rejected: string | undefined): CertificateFacts {
  const issuer = first(cert.issuer?.O) ?? first(cert.issuer?.CN);
  const subject = first(cert.subject?.CN);
  const altNames = cert.subjectaltname?.split(/,\s*/).filter(Boolean).slice(0, 20);
  return {
    host,
    ...(subject ? { subject: subject.slice(0, 200) } : {}),
    ...(issuer ? { issuer: issuer.slice(0, 200) } : {}),
    ...(iso(cert.valid_from) ? { validFrom: iso(cert.valid_from) } : {}),
    ...(iso(cert.valid_to) ? { validTo: iso(cert.valid_to) } : {}),
    ...(altNames?.length ? { altNames: altNames.map((n) => n.slice(0, 200)) } : {}),
    ...(rejected ? { rejected } : {}),
  };
}

/**
 * undici's connector, with the certificate's verdict taken after the handshake instead of inside it, so the
 * probe can record what was presented even when it refuses it (an expired certificate's date). Node computes
 * `authorized` exactly as it would before refusing; an unaccepted socket is destroyed before any byte of a
 * request is written.
 */
export function recordingConnector(
  opts: buildConnector.BuildOptions,
  book: CertificateBook,
  ca: TrustAnchors | undefined,
): buildConnector.connector {
  // No TLS session cache: a resumed session skips Node's name check, and a refused certificate's session
  // must never be resumed into an accepted connection.
  const base = buildConnector({
    ...opts,
    maxCachedSessions: 0,
    rejectUnauthorized: false,
    ...(ca ? { ca } : {}),
  } as buildConnector.BuildOptions);
  return (o, cb) =>
    base(o, (err, socket) => {
      if (err || !socket) return cb(err ?? new Error("no socket"), null);
      if (!(socket instanceof TLSSocket)) return cb(null, socket);
      const rejected = socket.authorized ? undefined : String(socket.authorizationError ?? "UNABLE_TO_VERIFY_LEAF_SIGNATURE");
      const cert = socket.getPeerCertificate();
      if (cert && Object.keys(cert).length) book.record(certificateFacts(`${o.hostname}:${o.port || 443}`, cert, rejected));
      if (rejected) {
        socket.destroy();
        return cb(Object.assign(new Error(`certificate not accepted: ${rejected}`), { code: rejected }), null);
      }
      cb(null, socket);
    });
}
