import { ErrorBodySchema } from '@forecourt/contract/common';
import {
  MAINTENANCE_TEXTS,
  MaintenanceCreateSchema,
  MaintenanceListQuerySchema,
  MaintenancePatchSchema,
  MaintenanceWindowSchema,
  RETROACTIVE_GRACE_MS,
} from '@forecourt/contract/maintenance';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors.ts';
import { sendPage } from '../../lib/paging.ts';
import { IdPathSchema } from '../../lib/route-schemas.ts';
import { actorOf, checkWritable, placeOf, visibilityOf } from '../../lib/targets-of.ts';
import { parseId } from '../../plugins/scope.ts';
import type { WindowRecord } from '../../repositories/maintenance-repository.ts';
import { publicWindow } from '../../repositories/rule-read-model.ts';
import { createMaintenanceService } from '../../services/maintenance-windows.ts';

const errors = {
  400: ErrorBodySchema,
  401: ErrorBodySchema,
  403: ErrorBodySchema,
  404: ErrorBodySchema,
  409: ErrorBodySchema,
};
const security = [{ jwt: [] }];
const tags = ['maintenance'];

/**
 * Maintenance windows (docs/rules-and-maintenance.md): `GET|POST /api/maintenance/`, `GET|PATCH|DELETE
 * /api/maintenance/{id}/`. Every role declares windows inside its scope, never retroactively; DELETE ends one early.
 */
export async function maintenanceRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const windows = createMaintenanceService(app.repos);

  const load = async (request: FastifyRequest, now: Date): Promise<WindowRecord> => {
    const id = parseId((request.params as { id?: unknown }).id);
    if (id === null) throw notFound();
    const found = await app.repos.maintenance.byId(id, visibilityOf(request), now);
    if (!found) throw notFound(`No maintenance window with id ${id}.`);
    if (!found.visible) throw forbidden();
    return found.window;
  };

  app.get(
    '/api/maintenance/',
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        security,
        summary: 'Maintenance windows the caller reads, newest first',
        description:
          '`active=true`: only those covering a terminal now (a weekly window between its occurrences is not active). Paged with `limit_to` and `before`.',
        querystring: MaintenanceListQuerySchema,
        response: { 200: z.array(MaintenanceWindowSchema), ...errors },
      },
    },
    async (request, reply) => {
      const q = request.query;
      const rows = await app.repos.maintenance.list(
        visibilityOf(request),
        { limit: q.limit_to, before: q.before, active: q.active },
        new Date(),
      );
      return sendPage(request, reply, rows.map(publicWindow), q.limit_to);
    },
  );

  app.post(
    '/api/maintenance/',
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        security,
        summary: 'Declare a maintenance window (every role, inside its scope)',
        description:
          'One-off (`recurrence: null`) from `starts_at` to `ends_at`, or weekly on `recurrence.weekdays` from the local `recurrence.start` for `duration_min`, in each site’s own time zone, between `starts_at` and `ends_at`. `starts_at` may not be more than a minute in the past.',
        body: MaintenanceCreateSchema,
        response: { 201: MaintenanceWindowSchema, ...errors },
      },
    },
    async (request, reply) => {
      const b = request.body;
      const now = new Date();
      if (Date.parse(b.starts_at) < now.getTime() - RETROACTIVE_GRACE_MS)
        throw badRequest(MAINTENANCE_TEXTS.retroactive);
      const place = await placeOf(app, request, b.target);
      const created = await windows.create(
        actorOf(request),
        {
          scopeKind: b.target.scope.kind,
          scopeId: b.target.scope.id,
          tags: b.target.tags,
          place,
          startsAt: new Date(b.starts_at),
          endsAt: new Date(b.ends_at),
          recurrence: b.recurrence,
          reason: b.reason,
        },
        now,
      );
      const found = await app.repos.maintenance.byId(created.id, visibilityOf(request), now);
      return reply.status(201).send(publicWindow(found?.window ?? created));
    },
  );

  app.get(
    '/api/maintenance/:id/',
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        security,
        summary: 'One maintenance window',
        params: IdPathSchema,
        response: { 200: MaintenanceWindowSchema, ...errors },
      },
    },
    async (request) => publicWindow(await load(request, new Date())),
  );

  app.patch(
    '/api/maintenance/:id/',
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        security,
        summary: 'Change a maintenance window that has not ended',
        description:
          'A window that has ended answers 409. A new `starts_at` may not be more than a minute in the past, nor may `ends_at`: what was covered stays covered.',
        params: IdPathSchema,
        body: MaintenancePatchSchema,
        response: { 200: MaintenanceWindowSchema, ...errors },
      },
    },
    async (request) => {
      const now = new Date();
      const before = await load(request, now);
      await checkWritable(app, request, before.target, before.place);
      if (Date.parse(before.ends_at) <= now.getTime()) throw conflict(MAINTENANCE_TEXTS.ended);
      const b = request.body;
      const startsAt = b.starts_at ?? before.starts_at;
      const endsAt = b.ends_at ?? before.ends_at;
      const problems: string[] = [];
      const past = now.getTime() - RETROACTIVE_GRACE_MS;
      if (b.starts_at !== undefined && Date.parse(b.starts_at) !== Date.parse(before.starts_at)) {
        if (Date.parse(b.starts_at) < past || Date.parse(before.starts_at) < past)
          problems.push(MAINTENANCE_TEXTS.retroactive);
      }
      if (Date.parse(endsAt) <= Date.parse(startsAt)) problems.push(MAINTENANCE_TEXTS.endsAfter);
      else if (b.ends_at !== undefined && Date.parse(b.ends_at) < past)
        problems.push('ends_at may not be in the past: end a window now with DELETE');
      if (problems.length) throw badRequest(problems);
      const target = b.target ?? before.target;
      const place = b.target ? await placeOf(app, request, b.target) : before.place;
      const recurrence = b.recurrence === undefined ? before.recurrence : b.recurrence;
      const updated = await windows.update(
        actorOf(request),
        before,
        {
          scopeKind: target.scope.kind,
          scopeId: target.scope.id,
          tags: target.tags,
          place,
          startsAt: new Date(startsAt),
          endsAt: new Date(endsAt),
          recurrence,
          reason: b.reason ?? before.reason,
        },
        now,
      );
      return publicWindow(await load(request, now).catch(() => updated));
    },
  );

  app.delete(
    '/api/maintenance/:id/',
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        security,
        summary: 'End a maintenance window now; it stays listed with its real end',
        description:
          'Alerts it silenced that are still active are notified now. A window not yet begun ends before it starts; one already ended is answered as it is.',
        params: IdPathSchema,
        response: { 200: MaintenanceWindowSchema, ...errors },
      },
    },
    async (request) => {
      const now = new Date();
      const before = await load(request, now);
      await checkWritable(app, request, before.target, before.place);
      if (Date.parse(before.ends_at) > now.getTime()) await windows.end(actorOf(request), before, now);
      return publicWindow(await load(request, now));
    },
  );
}
