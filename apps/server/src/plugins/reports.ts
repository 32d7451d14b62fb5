import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createMailer } from '../services/mailer.ts';
import { createReportService, type ReportService } from '../services/reports.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Availability and alert reports, their files and their schedules (services/reports.ts). */
    reports: ReportService;
  }
}

/** Reports, mailed over the configured SMTP server (SMTP_URL), else written to the log like every mail. */
export const reportsPlugin = fp(
  async (app: FastifyInstance) => {
    const log = app.log.child({ service: 'reports' });
    const mailer = createMailer({ smtpUrl: app.config.SMTP_URL, from: app.config.MAIL_FROM, log });
    app.decorate('reports', createReportService({ repos: app.repos, mailer, log }));
    app.addHook('onClose', async () => mailer.close());
  },
  { name: 'reports' },
);
