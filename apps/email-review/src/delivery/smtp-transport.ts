import nodemailer from 'nodemailer';
import type Mail from 'nodemailer/lib/mailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';
import type { OutgoingMessage } from './delivery.js';
import type { MailTransport } from './mail-transport.js';

interface SmtpSettings {
  /** smtps://, or smtp:// (STARTTLS when offered; required with credentials in the URL). */
  url: string;
  /** Each of connecting, the greeting and any silence on the socket. */
  timeoutMs: number;
  /** MAIL_ALLOW_PLAINTEXT_AUTH: smtp:// credentials may go unencrypted when there is no STARTTLS. */
  allowPlaintextAuth?: boolean;
}

/** The reply as nodemailer composes it: for SMTP, and for the copy filed in the Sent folder. */
export function mailOptionsOf(message: OutgoingMessage): Mail.Options {
  return {
    messageId: message.message_id,
    from: message.from ?? undefined,
    to: message.to ?? undefined,
    subject: message.subject,
    text: message.body,
    ...(message.in_reply_to ? { inReplyTo: message.in_reply_to } : {}),
    ...(message.references.length > 0 ? { references: message.references } : {}),
  };
}

/** Real delivery through nodemailer; a new connection per message (no pool to go stale). */
export function createSmtpTransport(settings: SmtpSettings): MailTransport {
  const url = new URL(settings.url);
  // nodemailer reads host, port, TLS mode and credentials from the URL; the timeouts are ours.
  const transporter = nodemailer.createTransport({
    url: settings.url,
    connectionTimeout: settings.timeoutMs,
    greetingTimeout: settings.timeoutMs,
    socketTimeout: settings.timeoutMs,
    disableFileAccess: true,
    disableUrlAccess: true,
    // smtp:// with a user: the password must not leave without STARTTLS unless allowed. nodemailer
    // refuses to go on (ETLS) when the server cannot upgrade, before any AUTH.
    requireTLS: url.protocol === 'smtp:' && url.username !== '' && !settings.allowPlaintextAuth,
  } as SMTPTransport.Options);
  return {
    kind: 'smtp',
    async send(message: OutgoingMessage) {
      const info = await transporter.sendMail(mailOptionsOf(message));
      return String(info.response);
    },
    close() {
      transporter.close();
    },
  };
}
