// Mail through SMTP_URL with nodemailer. SMTP speaks its own status classes: a 4xx reply is temporary (try again), a 5xx one
// is permanent; a connection that fails is a network error and worth another try.
import nodemailer, { type Transporter } from "nodemailer";

export interface Mail {
  to: string;
  subject: string;
  text: string;
  messageId: string;
  /** List-Unsubscribe and friends (RFC 8058); absent on the confirmation email. */
  headers?: Record<string, string>;
}

export type MailOutcome = { ok: true } | { ok: false; retryable: boolean; error: string };

export interface Mailer {
  send(mail: Mail): Promise<MailOutcome>;
  close(): void;
}

/** A mailer over `smtpUrl` (`smtp://user:pass@host:port`, `smtps://…`), one pooled connection at a time per process. */
export function createMailer(smtpUrl: string, from: string, domain: string): Mailer {
  const transport: Transporter = nodemailer.createTransport({
    url: smtpUrl,
    pool: true,
    maxConnections: 2,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  });
  return {
    async send(mail) {
      try {
        await transport.sendMail({
          from,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          messageId: `<${mail.messageId}@${domain}>`,
          headers: mail.headers ?? {},
        });
        return { ok: true };
      } catch (e) {
        const err = e as { responseCode?: number; code?: string };
        if (typeof err.responseCode === "number")
          return { ok: false, retryable: err.responseCode < 500, error: `SMTP ${err.responseCode}` };
        return { ok: false, retryable: true, error: err.code ?? "network error" };
      }
    },
    close: () => transport.close(),
  };
}
