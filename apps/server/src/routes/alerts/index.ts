import { AlertSchema, ListAlertsQuerySchema } from '@forecourt/contract/fleet';
import { SCOPE_KINDS } from '@forecourt/contract/scope';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { dataRoute } from '../../lib/read-routes.ts';

/** `GET /api/alerts/{agent|company|site}/{id}/`: newest first; `event_type` repeatable (hardware: 1, 2, 12–15). */
export async function alertRoutes(app: FastifyInstance) {
  for (const kind of SCOPE_KINDS) {
    dataRoute(app, {
      url: `/api/alerts/${kind}/:id/`,
      kind,
      tags: ['alerts'],
      summary: `Alerts of a${kind === 'agent' ? 'n' : ''} ${kind}, newest first`,
      description:
        '`limit_to` (default 100, max 1000), repeatable `event_type` (hardware issues: 1, 2, 12, 13, 14, 15), `before` (cursor), `q` (search).',
      query: ListAlertsQuerySchema,
      response: z.array(AlertSchema),
      load: ({ scope, query }) =>
        app.repos.alerts.list(scope, {
          limit: query.limit_to,
          eventTypes: query.event_type,
          before: query.before,
          q: query.q,
        }),
    });
  }
}
