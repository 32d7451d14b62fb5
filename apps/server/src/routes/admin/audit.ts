import { AuditEntrySchema, AuditQuerySchema } from '@forecourt/contract/admin';
import { ErrorBodySchema } from '@forecourt/contract/common';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';

/** `GET /api/admin/audit/`: who changed what, when, before and after (agents only, their own fleet). */
export async function auditRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/admin/audit/',
    {
      onRequest: [app.authenticate, app.agentOnly('read the audit')],
      schema: {
        tags: ['admin'],
        security: [{ jwt: [] }],
        summary: 'The audit trail (agents only)',
        description:
          'Every administrative change, device-token provisioning and alert acknowledgement in the caller’s fleet, ' +
          'newest first; filter with `entity`, `user` (a username) and `entity_id`; paged with `limit_to` and ' +
          '`before` (the `cursor` of the last entry seen, also in `X-Next-Cursor` and `Link`).',
        querystring: AuditQuerySchema,
        response: {
          200: z.array(AuditEntrySchema),
          400: ErrorBodySchema,
          401: ErrorBodySchema,
          403: ErrorBodySchema,
        },
      },
    },
    async (request, reply) => {
      const q = request.query;
      const rows = await app.repos.audit.list(request.principal!.agentId!, {
        limit: q.limit_to,
        before: q.before,
        entity: q.entity,
        user: q.user,
        entityId: q.entity_id,
      });
      const last = rows.at(-1);
      if (last && rows.length >= q.limit_to) {
        const [path, search = ''] = request.url.split('?');
        const params = new URLSearchParams(search);
        params.set('before', last.cursor);
        reply.header('x-next-cursor', last.cursor);
        reply.header('link', `<${path}?${params.toString()}>; rel="next"`);
      }
      return rows;
    },
  );
}
