import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createDeliveries, type Deliveries } from '../services/deliveries.ts';
import { createMailer } from '../services/mailer.ts';
import { createNotificationService, type NotificationService } from '../services/notifications.ts';
import { allowListOf } from '../services/outbound-http.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Contact points and notification policies: their rules (services/notifications.ts). */
    notifications: NotificationService;
    /** The notification outbox's worker, escalation sweep and test sends (services/deliveries.ts). */
    deliveries: Deliveries;
  }
}

/** Notifications (docs/integrations.md): the services behind /api/contact-points/ and friends, and the outbox. */
export const notificationsPlugin = fp(
  async (app: FastifyInstance) => {
    const allow = allowListOf(app.config.WEBHOOK_ALLOWED_HOSTS);
    const log = app.log.child({ service: 'notifications' });
    const mailer = createMailer({ smtpUrl: app.config.SMTP_URL, from: app.config.MAIL_FROM, log });
    app.decorate('notifications', createNotificationService(app.repos, app.targets, allow));
    app.decorate(
      'deliveries',
      createDeliveries({
        deliveries: app.repos.deliveries,
        contactPoints: app.repos.contactPoints,
        alerts: app.repos.alerts,
        mailer,
        allow,
        retryDelaysS: app.config.DELIVERY_RETRY_DELAYS,
        retentionDays: app.config.DELIVERY_RETENTION_DAYS,
        publicUrl: app.config.PUBLIC_URL ?? `http://localhost:${app.config.PORT}`,
        log,
      }),
    );
    app.addHook('onClose', async () => mailer.close());
  },
  { name: 'notifications' },
);
