import { ErrorBodySchema } from '@forecourt/contract/common';
import { NotificationPrefsSchema } from '@forecourt/contract/users';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { unauthorized } from '../../lib/errors.ts';

const auth = { security: [{ jwt: [] }], tags: ['user'] };

/** `GET|PUT /api/user/notifications/`: alert mail from a minimum severity, or none (docs/product.md#alert-mail). */
export async function notificationRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { notifications } = app.repos;

  const read = async (userId: number) => {
    const prefs = await notifications.prefs(userId);
    if (!prefs) throw unauthorized('User not found.');
    return prefs;
  };

  app.get(
    '/api/user/notifications/',
    {
      onRequest: app.authenticate,
      schema: {
        ...auth,
        summary: 'Alert mail preference of the current user',
        response: { 200: NotificationPrefsSchema, 401: ErrorBodySchema },
      },
    },
    (request) => read(request.principal!.userId),
  );

  app.put(
    '/api/user/notifications/',
    {
      onRequest: app.authenticate,
      schema: {
        ...auth,
        summary:
          'Set the alert mail preference: a mail for each new alert in scope at or above this severity (at most one per site per 15 minutes), or null for none',
        body: NotificationPrefsSchema,
        response: { 200: NotificationPrefsSchema, 400: ErrorBodySchema, 401: ErrorBodySchema },
      },
    },
    async (request) => {
      await app.notifications.setAlertMail(request.principal!, request.body.email_min_severity);
      return read(request.principal!.userId);
    },
  );
}
