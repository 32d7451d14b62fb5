import { ErrorBodySchema, LimitSchema } from '@forecourt/contract/common';
import {
  AckAlertBodySchema,
  AcknowledgedFilterSchema,
  AlertCountSchema,
  AlertSchema,
  AlertSiteSchema,
  AlertStateFilterSchema,
  EventTypeListSchema,
  ListAlertsQuerySchema,
  RuleIdFilterSchema,
  SilencedFilterSchema,
} from '@forecourt/contract/fleet';
import { SCOPE_KINDS } from '@forecourt/contract/scope';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { answer } from '../../lib/domain-answer.ts';
import { dataRoute } from '../../lib/read-routes.ts';
import { createAlertService } from '../../services/alerts.ts';

const an = (kind: string) => `a${kind === 'agent' ? 'n' : ''} ${kind}`;

/**
 * Alerts (docs/product.md#alert-lifecycle): `GET /api/alerts/{agent|company|site}/{id}/` newest first (or worst
 * first with `sort=severity`), filtered by `event_type`, `state` and `acknowledged`; the same filters counted
 * (`.../count/`, the bell); active alerts by site (`.../sites/`); `POST /api/alerts/{id}/ack/`.
 */
export async function alertRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const alerts = createAlertService(app.repos);
  for (const kind of SCOPE_KINDS) {
    dataRoute(app, {
      url: `/api/alerts/${kind}/:id/`,
      kind,
      tags: ['alerts'],
      summary: `Alerts of ${an(kind)}, newest first`,
      description:
        '`limit_to` (default 100, max 1000), repeatable `event_type` (hardware issues: 1, 2, 12, 13, 14, 15; rules: 100), `state` (active|cleared), `acknowledged` (true|false), `silenced` (true|false: raised in a maintenance window), `rule_id` (raised by that rule), `sort` (newest|severity), `before` (cursor), `q` (search).',
      query: ListAlertsQuerySchema,
      response: z.array(AlertSchema),
      load: ({ scope, query }) =>
        app.repos.alerts.list(scope, {
          limit: query.limit_to,
          eventTypes: query.event_type,
          before: query.before,
          q: query.q,
          state: query.state,
          acknowledged: query.acknowledged,
          silenced: query.silenced,
          ruleId: query.rule_id,
          sort: query.sort,
        }),
    });

    dataRoute(app, {
      url: `/api/alerts/${kind}/:id/count/`,
      kind,
      tags: ['alerts'],
      summary: `How many alerts of ${an(kind)} match the filters (the notification bell)`,
      query: z.object({
        event_type: EventTypeListSchema.optional(),
        state: AlertStateFilterSchema,
        acknowledged: AcknowledgedFilterSchema,
        silenced: SilencedFilterSchema.describe(
          'Alerts raised in a maintenance window are left out unless silenced=true (then only they are counted)',
        ),
        rule_id: RuleIdFilterSchema,
      }),
      response: AlertCountSchema,
      load: async ({ scope, query }) => ({
        count: await app.repos.alerts.count(scope, {
          eventTypes: query.event_type,
          state: query.state,
          acknowledged: query.acknowledged,
          silenced: query.silenced,
          ruleId: query.rule_id,
        }),
      }),
    });

    if (kind === 'site') continue;
    dataRoute(app, {
      url: `/api/alerts/${kind}/:id/sites/`,
      kind,
      tags: ['alerts'],
      summary: `Sites of ${an(kind)} with active alerts, worst first`,
      description:
        'One row per site with active alerts: counts, worst severity and the newest start; ordered by worst severity, then unacknowledged, active and newest.',
      query: z.object({ limit_to: LimitSchema }),
      response: z.array(AlertSiteSchema),
      load: ({ scope, query }) => app.repos.alerts.bySite(scope, query.limit_to),
    });
  }

  app.post(
    '/api/alerts/:id/ack/',
    {
      onRequest: app.scope('alert', 'id'),
      schema: {
        tags: ['alerts'],
        summary: 'Acknowledge an alert (again: the first who, when and note stay)',
        security: [{ jwt: [] }],
        params: z.object({ id: z.string().describe('Numeric id') }),
        body: AckAlertBodySchema.nullish(),
        response: {
          200: AlertSchema,
          400: ErrorBodySchema,
          401: ErrorBodySchema,
          403: ErrorBodySchema,
          404: ErrorBodySchema,
        },
      },
    },
    async (request) => {
      const principal = request.principal!;
      const by = { userId: principal.userId, username: principal.username };
      return answer(alerts.acknowledge(request.target!.id, by, request.body?.note || null, new Date()));
    },
  );
}
