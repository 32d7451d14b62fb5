import { ErrorBodySchema } from '@forecourt/contract/common';
import { CommandListSchema, ListCommandsQuerySchema } from '@forecourt/contract/terminals';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { IdPathSchema, scopedErrors } from './route-schemas.ts';

/**
 * `GET /api/<pump|terminal>/:id/commands/`: the commands of a pump, or of a terminal (its reboots and the pump
 * commands it carries), newest first, each with its state history.
 */
export function commandListRoute(fastify: FastifyInstance, target: 'pump' | 'terminal', summary: string) {
  fastify.withTypeProvider<ZodTypeProvider>().get(
    `/api/${target}/:id/commands/`,
    {
      onRequest: fastify.scope(target),
      schema: {
        tags: [`${target}s`],
        security: [{ jwt: [] }],
        summary,
        params: IdPathSchema,
        querystring: ListCommandsQuerySchema,
        response: { 200: CommandListSchema, 400: ErrorBodySchema, ...scopedErrors },
      },
    },
    async (request) =>
      fastify.repos.commands.list(
        target === 'pump' ? { pumpId: request.target!.id } : { terminalId: request.target!.id },
        { limit: request.query.limit_to, before: request.query.before, kinds: request.query.kind },
      ),
  );
}
