import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { type AlertMailService, createAlertMailService } from '../services/alert-mail.ts';
import { createMailer } from '../services/mailer.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The alert mail job (docs/product.md#alert-mail); started with the background work. */
    alertMail: AlertMailService;
  }
}

/** Alert mails over the configured SMTP server (SMTP_URL), else written to the log like every mail. */
export const alertMailPlugin = fp(async (app: FastifyInstance) => {
  const log = app.log.child({ service: 'alert-mail' });
  const mailer = createMailer({ smtpUrl: app.config.SMTP_URL, from: app.config.MAIL_FROM, log });
  app.decorate('alertMail', createAlertMailService({ repo: app.repos.notifications, mailer, log }));
  app.addHook('onClose', async () => mailer.close());
});
