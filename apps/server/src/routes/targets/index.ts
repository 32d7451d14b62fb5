import { ErrorBodySchema } from '@forecourt/contract/common';
import { TargetPreviewRequestSchema, TargetPreviewSchema } from '@forecourt/contract/targets';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

/**
 * `POST /api/targets/preview/` (docs/targets.md): what a target reaches now — the count the console's target picker
 * shows, and the first terminals. Any signed-in user, for a target inside its scope (403 outside). A POST because a
 * target is a structured object: the body is checked by the same schema as every `target` field of the API.
 */
export async function targetRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.post(
    '/api/targets/preview/',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['targets'],
        security: [{ jwt: [] }],
        summary: 'How many live terminals a target reaches now, and the first of them',
        description:
          '`target` = `{scope: {kind: agent|company|site|terminal, id}, tags}`: the live terminals inside the scope ' +
          'that carry every tag. Writes nothing. 400 names `target` and its bad part; 403 when the scope is outside ' +
          "the caller's.",
        body: TargetPreviewRequestSchema,
        response: {
          200: TargetPreviewSchema,
          400: ErrorBodySchema,
          401: ErrorBodySchema,
          403: ErrorBodySchema,
        },
      },
    },
    async (request) => {
      const { target, limit_to } = request.body;
      await app.targets.authorize(request.principal!, target);
      return app.targets.preview(target, limit_to);
    },
  );
}
