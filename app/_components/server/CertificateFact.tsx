import Link from "next/link";
import { CERTIFICATE_WARN_DAYS, certificateView } from "@/lib/site/certificate";
import { formatUtc } from "@/lib/site/format";
import type { RunSummary } from "@/lib/store/runs";

function daysWords(days: number): string {
  if (days < 0) return `expired ${-days} day${days === -1 ? "" : "s"} ago`;
  return `${days} day${days === 1 ? "" : "s"} left`;
}

/** architecture.md §2.8: the certificate of an https server, as the latest probe saw it (a fact, not a check). */
export function CertificateFact({ run, now }: { run: RunSummary | null; now: Date }) {
  const c = certificateView(run?.certificate, now);
  if (!c) return null;
  return (
    <section aria-labelledby="certificate-h">
      <h2 id="certificate-h">TLS certificate</h2>
      {c.warn ? (
        <div className="notice warn" role="note">
          <p>
            <strong>{c.daysLeft !== null && c.daysLeft < 0 ? "The certificate has expired" : "The certificate expires soon"}</strong>
            {c.daysLeft !== null ? ` (${daysWords(c.daysLeft)})` : ""}: fewer than {CERTIFICATE_WARN_DAYS} days is where this page warns.
            This is a fact beside the checks, not a check of its own.
          </p>
        </div>
      ) : null}
      <dl className="facts">
        <dt>Issuer</dt>
        <dd>{c.issuer ?? "not named"}</dd>
        {c.subject ? (
          <>
            <dt>Subject</dt>
            <dd>{c.subject}</dd>
          </>
        ) : null}
        <dt>Expires</dt>
        <dd>
          {c.validTo ? (
            <>
              <time dateTime={c.validTo}>{formatUtc(c.validTo)}</time>
              {c.daysLeft !== null ? ` · ${daysWords(c.daysLeft)}` : ""}
            </>
          ) : (
            "unknown"
          )}
        </dd>
        {c.rejected ? (
          <>
            <dt>Accepted</dt>
            <dd>
              no: <code>{c.rejected}</code>, so no request was sent on that connection
            </dd>
          </>
        ) : null}
      </dl>
      <p className="sub">
        Recorded on every https probe: <Link href="/faq/hints#certificate">certificate facts</Link>.
      </p>
    </section>
  );
}
