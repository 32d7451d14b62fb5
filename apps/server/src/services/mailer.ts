import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Files sent with the mail (a scheduled report). */
  attachments?: Array<{ filename: string; content: Buffer; contentType: string }>;
}

export interface Mailer {
  /** Whether mail really leaves the server (SMTP_URL set) or is only logged. */
  readonly delivers: boolean;
  send(mail: Mail): Promise<void>;
  close(): void;
}

/**
 * Mail over SMTP when `smtpUrl` is set (smtp:// or smtps://, options as query parameters as nodemailer
 * reads them); otherwise each mail is written to the log so a reset link is still reachable.
 */
export function createMailer(opts: { smtpUrl?: string; from: string; log: FastifyBaseLogger }): Mailer {
  if (!opts.smtpUrl) {
    return {
      delivers: false,
      async send(mail) {
        opts.log.info(
          { to: mail.to, subject: mail.subject },
          `Mail not sent (SMTP_URL is not set): ${mail.text}`,
        );
      },
      close() {},
    };
  }
  const transport = nodemailer.createTransport(opts.smtpUrl, { from: opts.from });
  return {
    delivers: true,
    async send(mail) {
      await transport.sendMail({
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        attachments: mail.attachments,
      });
    },
    close() {
      transport.close();
    },
  };
}
