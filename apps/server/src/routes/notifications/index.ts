import { ErrorBodySchema } from '@forecourt/contract/common';
import {
  ContactPointCreatedSchema,
  ContactPointCreateSchema,
  ContactPointPatchSchema,
  ContactPointSchema,
  DeliveryListQuerySchema,
  DeliverySchema,
  NotificationListQuerySchema,
  NotificationPolicyCreateSchema,
  NotificationPolicyPatchSchema,
  NotificationPolicySchema,
} from '@forecourt/contract/notifications';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../../lib/errors.ts';
import { sendPage } from '../../lib/paging.ts';
import { IdPathSchema } from '../../lib/route-schemas.ts';
import { parseId } from '../../plugins/scope.ts';
import { publicContactPoint, publicPolicy } from '../../repositories/notification-read-model.ts';

const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema };
const security = [{ jwt: [] }];

/**
 * Notifications (docs/integrations.md): contact points, notification policies and the delivery log. Agents and
 * company users manage them inside their scope; site users get 403.
 */
export async function notificationSettingsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  /** Authenticated, and an agent or a company user. */
  const manager = async (request: FastifyRequest) => {
    await app.authenticate(request);
    app.notifications.manager(request.principal!);
  };
  const idOf = (request: FastifyRequest) => {
    const id = parseId((request.params as { id?: unknown }).id);
    if (id === null) throw notFound();
    return id;
  };

  // ---------- contact points ----------
  const cpTags = ['notifications'];

  app.get(
    '/api/contact-points/',
    {
      onRequest: manager,
      schema: {
        tags: cpTags,
        security,
        summary: 'Contact points the caller manages, newest first',
        description:
          'Paged with `limit_to` and `before` (the id of the last row seen, also in `X-Next-Cursor`).',
        querystring: NotificationListQuerySchema,
        response: { 200: z.array(ContactPointSchema), ...errors },
      },
    },
    async (request, reply) => {
      const rows = await app.notifications.contactPoints.list(request.principal!, {
        limit: request.query.limit_to,
        before: request.query.before,
      });
      return sendPage(request, reply, rows.map(publicContactPoint), request.query.limit_to);
    },
  );

  app.post(
    '/api/contact-points/',
    {
      onRequest: manager,
      schema: {
        tags: cpTags,
        security,
        summary: 'Create a contact point; the answer carries its secret this once',
        description:
          'email takes `addresses`; webhook, slack and teams take `url` (http or https, not an internal address unless listed in WEBHOOK_ALLOWED_HOSTS). A webhook without `secret` gets one generated.',
        body: ContactPointCreateSchema,
        response: { 201: ContactPointCreatedSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { point, secret } = await app.notifications.contactPoints.create(
        request.principal!,
        request.body,
      );
      return reply.status(201).send({ ...publicContactPoint(point), secret });
    },
  );

  app.get(
    '/api/contact-points/:id/',
    {
      onRequest: manager,
      schema: {
        tags: cpTags,
        security,
        summary: 'One contact point',
        params: IdPathSchema,
        response: { 200: ContactPointSchema, ...errors },
      },
    },
    async (request) =>
      publicContactPoint(await app.notifications.contactPoints.get(request.principal!, idOf(request))),
  );

  app.patch(
    '/api/contact-points/:id/',
    {
      onRequest: manager,
      schema: {
        tags: cpTags,
        security,
        summary: 'Change a contact point (its kind stays)',
        params: IdPathSchema,
        body: ContactPointPatchSchema,
        response: { 200: ContactPointSchema, ...errors },
      },
    },
    async (request) =>
      publicContactPoint(
        await app.notifications.contactPoints.patch(request.principal!, idOf(request), request.body),
      ),
  );

  app.delete(
    '/api/contact-points/:id/',
    {
      onRequest: manager,
      schema: {
        tags: cpTags,
        security,
        summary: 'Delete a contact point: it leaves every policy; answers it as it was',
        params: IdPathSchema,
        response: { 200: ContactPointSchema, ...errors },
      },
    },
    async (request) =>
      publicContactPoint(await app.notifications.contactPoints.remove(request.principal!, idOf(request))),
  );

  app.post(
    '/api/contact-points/:id/test/',
    {
      onRequest: manager,
      schema: {
        tags: cpTags,
        security,
        summary: 'Send a test notification now; answers the delivery (delivered or failed, not retried)',
        params: IdPathSchema,
        response: { 200: DeliverySchema, ...errors },
      },
    },
    async (request) => {
      const point = await app.notifications.contactPoints.get(request.principal!, idOf(request));
      return app.deliveries.test(point.id);
    },
  );

  // ---------- policies ----------
  const policyTags = ['notifications'];

  app.get(
    '/api/notification-policies/',
    {
      onRequest: manager,
      schema: {
        tags: policyTags,
        security,
        summary: 'Notification policies the caller manages, newest first',
        querystring: NotificationListQuerySchema,
        response: { 200: z.array(NotificationPolicySchema), ...errors },
      },
    },
    async (request, reply) => {
      const rows = await app.notifications.policies.list(request.principal!, {
        limit: request.query.limit_to,
        before: request.query.before,
      });
      return sendPage(request, reply, rows.map(publicPolicy), request.query.limit_to);
    },
  );

  app.post(
    '/api/notification-policies/',
    {
      onRequest: manager,
      schema: {
        tags: policyTags,
        security,
        summary: 'Create a notification policy',
        description:
          'Each new alert not silenced, in `target`, at or above `min_severity`, of `event_types` and `rule_ids` when they are not empty, goes to `contact_point_ids` (alert.raised, then alert.cleared); still active and unacknowledged `escalate_after_s` after it started, to `escalate_to_ids` (alert.escalated, once).',
        body: NotificationPolicyCreateSchema,
        response: { 201: NotificationPolicySchema, ...errors },
      },
    },
    async (request, reply) => {
      const policy = await app.notifications.policies.create(request.principal!, request.body);
      return reply.status(201).send(publicPolicy(policy));
    },
  );

  app.get(
    '/api/notification-policies/:id/',
    {
      onRequest: manager,
      schema: {
        tags: policyTags,
        security,
        summary: 'One notification policy',
        params: IdPathSchema,
        response: { 200: NotificationPolicySchema, ...errors },
      },
    },
    async (request) => publicPolicy(await app.notifications.policies.get(request.principal!, idOf(request))),
  );

  app.patch(
    '/api/notification-policies/:id/',
    {
      onRequest: manager,
      schema: {
        tags: policyTags,
        security,
        summary: 'Change a notification policy',
        params: IdPathSchema,
        body: NotificationPolicyPatchSchema,
        response: { 200: NotificationPolicySchema, ...errors },
      },
    },
    async (request) =>
      publicPolicy(await app.notifications.policies.patch(request.principal!, idOf(request), request.body)),
  );

  app.delete(
    '/api/notification-policies/:id/',
    {
      onRequest: manager,
      schema: {
        tags: policyTags,
        security,
        summary: 'Delete a notification policy; answers it as it was',
        params: IdPathSchema,
        response: { 200: NotificationPolicySchema, ...errors },
      },
    },
    async (request) =>
      publicPolicy(await app.notifications.policies.remove(request.principal!, idOf(request))),
  );

  // ---------- deliveries ----------
  app.get(
    '/api/notification-deliveries/',
    {
      onRequest: manager,
      schema: {
        tags: ['notifications'],
        security,
        summary: 'Deliveries to the contact points the caller manages, newest first',
        description:
          'Filter with `alert_id`, `contact_point_id`, `status`; paged with `limit_to` and `before` (the id of the last row seen, also in `X-Next-Cursor` and `Link`).',
        querystring: DeliveryListQuerySchema,
        response: { 200: z.array(DeliverySchema), ...errors },
      },
    },
    async (request, reply) => {
      const q = request.query;
      const p = request.principal!;
      const rows = await app.repos.deliveries.list(
        { agentId: p.agentId, companyIds: p.companyIds, siteIds: p.siteIds },
        {
          limit: q.limit_to,
          before: q.before,
          alertId: q.alert_id,
          contactPointId: q.contact_point_id,
          status: q.status,
        },
      );
      return sendPage(request, reply, rows, q.limit_to);
    },
  );
}
