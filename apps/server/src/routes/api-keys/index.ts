import {
  API_KEY_SCHEME,
  ApiKeyCreatedSchema,
  ApiKeyCreateSchema,
  ApiKeyListQuerySchema,
  ApiKeySchema,
} from '@forecourt/contract/api-keys';
import { ErrorBodySchema } from '@forecourt/contract/common';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { answer } from '../../lib/domain-answer.ts';
import { notFound } from '../../lib/errors.ts';
import { sendPage } from '../../lib/paging.ts';
import { IdPathSchema } from '../../lib/route-schemas.ts';
import { parseId } from '../../plugins/scope.ts';

const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema };
const security = [{ jwt: [] }];
const tags = ['api-keys'];

/**
 * API keys (docs/integrations.md "API keys"): `GET|POST /api/api-keys/`, `DELETE /api/api-keys/{id}/`. Every user
 * manages its own keys, signed in: a request made with a key is refused (403), so a key cannot make or keep keys.
 */
export async function apiKeyRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const signedIn = [app.authenticate, app.signedInOnly('manage API keys')];

  app.get(
    '/api/api-keys/',
    {
      onRequest: signedIn,
      schema: {
        tags,
        security,
        summary: 'Your API keys, newest first (their tokens are never shown again)',
        description:
          'Paged with `limit_to` and `before` (the id of the last key seen, also in `X-Next-Cursor` and `Link`).',
        querystring: ApiKeyListQuerySchema,
        response: { 200: z.array(ApiKeySchema), ...errors },
      },
    },
    async (request, reply) => {
      const rows = await app.apiKeys.list(request.principal!.userId, {
        limit: request.query.limit_to,
        before: request.query.before,
      });
      return sendPage(request, reply, rows, request.query.limit_to);
    },
  );

  app.post(
    '/api/api-keys/',
    {
      onRequest: signedIn,
      schema: {
        tags,
        security,
        summary: 'Make an API key; the answer carries its token, shown this once',
        description: [
          `Send the token as \`Authorization: ${API_KEY_SCHEME} <token>\` (or \`Bearer <token>\`): the key acts as you,`,
          'with your scope, on every API path (`/api/live` included). A `read_only` key is refused (403) on every',
          'method but GET. A key stops working (401) once deleted or expired, or when your account is disabled.',
          'A key cannot manage keys, nor change your password or profile (403). Only its sha-256 is stored.',
        ].join(' '),
        body: ApiKeyCreateSchema,
        response: { 201: ApiKeyCreatedSchema, ...errors },
      },
    },
    async (request, reply) => {
      const created = await app.apiKeys.create(request.principal!, request.body);
      return reply.status(201).send(created);
    },
  );

  app.delete(
    '/api/api-keys/:id/',
    {
      onRequest: signedIn,
      schema: {
        tags,
        security,
        summary: 'Delete one of your API keys: it stops working at once, on every node; answers it as it was',
        params: IdPathSchema,
        response: { 200: ApiKeySchema, ...errors },
      },
    },
    async (request) => {
      const id = parseId(request.params.id);
      if (id === null) throw notFound();
      return answer(app.apiKeys.remove(request.principal!, id));
    },
  );
}
