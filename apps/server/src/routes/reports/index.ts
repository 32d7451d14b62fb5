import { ErrorBodySchema } from '@forecourt/contract/common';
import {
  AlertsReportQuerySchema,
  AlertsReportRowSchema,
  AvailabilityQuerySchema,
  AvailabilityReportSchema,
  ReportScheduleCreateSchema,
  ReportScheduleListQuerySchema,
  ReportScheduleSchema,
} from '@forecourt/contract/reports';
import { SCOPE_KINDS, type ScopeKind } from '@forecourt/contract/scope';
import type { FastifyInstance, FastifyReply, FastifyRequest, preValidationHookHandler } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { HttpError, notFound } from '../../lib/errors.ts';
import { sendPage } from '../../lib/paging.ts';
import { IdPathSchema } from '../../lib/route-schemas.ts';
import { parseId } from '../../plugins/scope.ts';
import type { ReadScope } from '../../repositories/read-scope.ts';
import { DomainError, type DomainErrorKind } from '../../services/domain-errors.ts';
import type { ReportFile } from '../../services/report-files.ts';

const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema };
const security = [{ jwt: [] }];
const tags = ['reports'];
const an = (kind: string) => `a${kind === 'agent' ? 'n' : ''} ${kind}`;

const STATUS: Record<DomainErrorKind, number> = {
  invalid: 400,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
};

/** The service's answer, or its refusal as the status it stands for. */
async function answer<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    throw new HttpError(STATUS[err.kind], err.errors);
  }
}

function sendFile(reply: FastifyReply, f: ReportFile) {
  return reply
    .header('content-type', f.contentType)
    .header('content-disposition', `attachment; filename="${f.filename}"`)
    .send(f.body);
}

const scopeOf = (request: FastifyRequest): ReadScope => ({
  kind: request.target!.kind as ScopeKind,
  id: request.target!.id,
});

/**
 * Availability and service reports (docs/reports.md): `GET /api/reports/{agent|company|site}/{id}/availability/`
 * and `…/alerts/` (JSON, CSV or PDF; scope as every read), and `GET|POST /api/reports/schedules/`, `DELETE
 * …/{id}/`, `POST …/{id}/run/`: reports mailed every week or month by the leader.
 */
export async function reportRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  for (const kind of SCOPE_KINDS) {
    // Scope before validation: 401, 403 and 404 come first, then 400 for a bad query.
    const preValidation = app.scope(kind) as unknown as preValidationHookHandler;

    app.get(
      `/api/reports/${kind}/:id/availability/`,
      {
        preValidation,
        schema: {
          tags,
          security,
          summary: `Availability of the terminals of ${an(kind)} over a period, worst first`,
          description:
            'A terminal’s period is its life inside `from`…`to` (default the last 30 days, up to now). Downtime: the union of its offline alerts (event type 3) minus the time its maintenance windows cover (`excluded_s`). `availability = 1 − downtime_s / (period_s − excluded_s)`, 4 decimals, 1 when nothing is left to measure. Sites and the total sum their terminals. `format=csv` or `pdf` answers a file.',
          params: IdPathSchema,
          querystring: AvailabilityQuerySchema,
          response: { 200: AvailabilityReportSchema, ...errors },
        },
      },
      async (request, reply) => {
        const q = request.query;
        if (q.format !== 'json')
          return sendFile(
            reply,
            await app.reports.file('availability', scopeOf(request), q, q.format, new Date()),
          );
        return app.reports.availability(scopeOf(request), q, new Date());
      },
    );

    app.get(
      `/api/reports/${kind}/:id/alerts/`,
      {
        preValidation,
        schema: {
          tags,
          security,
          summary: `Alerts of ${an(kind)} started in a period, one row per event type`,
          description:
            '`count` includes the `silenced` ones (raised in a maintenance window); acknowledgements and clearings count whenever they happened up to now. Default the last 30 days. `format=csv` or `pdf` answers a file.',
          params: IdPathSchema,
          querystring: AlertsReportQuerySchema,
          response: { 200: z.array(AlertsReportRowSchema), ...errors },
        },
      },
      async (request, reply) => {
        const q = request.query;
        if (q.format !== 'json')
          return sendFile(reply, await app.reports.file('alerts', scopeOf(request), q, q.format, new Date()));
        return app.reports.alerts(scopeOf(request), q, new Date());
      },
    );
  }

  const idOf = (request: FastifyRequest) => {
    const id = parseId((request.params as { id?: unknown }).id);
    if (id === null) throw notFound();
    return id;
  };

  app.get(
    '/api/reports/schedules/',
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        security,
        summary: 'Report schedules: the caller’s own (an agent’s: every one of its fleet), newest first',
        description:
          'Paged with `limit_to` and `before` (the id of the last row seen, also in `X-Next-Cursor`).',
        querystring: ReportScheduleListQuerySchema,
        response: { 200: z.array(ReportScheduleSchema), ...errors },
      },
    },
    async (request, reply) => {
      const q = request.query;
      const rows = await app.reports.schedules.list(request.principal!, {
        limit: q.limit_to,
        before: q.before,
      });
      return sendPage(request, reply, rows, q.limit_to);
    },
  );

  app.post(
    '/api/reports/schedules/',
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        security,
        summary: 'Schedule a report (every role, of a scope it reads)',
        description:
          'Runs every week (Monday 00:00 UTC) or month (the 1st, 00:00 UTC) for the period just ended and mails the file to `recipients`.',
        body: ReportScheduleCreateSchema,
        response: { 201: ReportScheduleSchema, ...errors },
      },
    },
    async (request, reply) => {
      const created = await answer(
        app.reports.schedules.create(request.principal!, request.body, new Date()),
      );
      return reply.status(201).send(created);
    },
  );

  app.delete(
    '/api/reports/schedules/:id/',
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        security,
        summary: 'Delete a report schedule; answers it as it was',
        params: IdPathSchema,
        response: { 200: ReportScheduleSchema, ...errors },
      },
    },
    async (request) => answer(app.reports.schedules.remove(request.principal!, idOf(request))),
  );

  app.post(
    '/api/reports/schedules/:id/run/',
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        security,
        summary: 'Run a report schedule now, for the period just ended (202: the mail follows)',
        params: IdPathSchema,
        response: { 202: z.object({ id: z.number().int(), status: z.literal('queued') }), ...errors },
      },
    },
    async (request, reply) => {
      const id = idOf(request);
      await answer(app.reports.schedules.run(request.principal!, id));
      return reply.status(202).send({ id, status: 'queued' as const });
    },
  );
}
