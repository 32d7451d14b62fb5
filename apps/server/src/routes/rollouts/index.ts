import { ErrorBodySchema } from '@forecourt/contract/common';
import {
  RolloutCreateSchema,
  RolloutListQuerySchema,
  RolloutSchema,
  RolloutTerminalSchema,
  RolloutTerminalsQuerySchema,
  SOFTWARE_TEXTS,
} from '@forecourt/contract/software';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { agentActor, answer } from '../../lib/domain-answer.ts';
import { notFound } from '../../lib/errors.ts';
import { sendPage } from '../../lib/paging.ts';
import { IdPathSchema } from '../../lib/route-schemas.ts';
import { parseId } from '../../plugins/scope.ts';

const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema };
const security = [{ jwt: [] }];
const tags = ['rollouts'];

const idOf = (request: FastifyRequest) => {
  const id = parseId((request.params as { id?: unknown }).id);
  if (id === null) throw notFound();
  return id;
};

/**
 * Software rollouts (docs/rollouts.md): `GET|POST /api/rollouts/`, `GET /api/rollouts/{id}/`, its terminals, and
 * `POST /api/rollouts/{id}/pause/|resume/|cancel/`. Agents only (403 for company and site users); a target outside
 * the caller's scope is 403.
 */
export async function rolloutRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const agentOnly = async (request: FastifyRequest) => {
    await app.authenticate(request);
    agentActor(request, SOFTWARE_TEXTS.agentsOnly);
  };
  const actor = (request: FastifyRequest) => agentActor(request, SOFTWARE_TEXTS.agentsOnly);

  app.get(
    '/api/rollouts/',
    {
      onRequest: agentOnly,
      schema: {
        tags,
        security,
        summary: 'Rollouts (agents), newest first',
        description: 'Paged with `limit_to` and `before` (the id of the last row seen); `state` filters.',
        querystring: RolloutListQuerySchema,
        response: { 200: z.array(RolloutSchema), ...errors },
      },
    },
    async (request, reply) => {
      const rows = await app.rollouts.list(actor(request), {
        limit: request.query.limit_to,
        before: request.query.before,
        state: request.query.state,
      });
      return sendPage(request, reply, rows, request.query.limit_to);
    },
  );

  app.post(
    '/api/rollouts/',
    {
      onRequest: agentOnly,
      schema: {
        tags,
        security,
        summary: 'Roll a package out to a target, in waves (agents)',
        description:
          'Waves are cumulative percentages of the target (default [1, 10, 100]); each starts once every terminal of ' +
          'the previous one has finished and `wave_wait_s` has passed since it began. Commands go out only inside ' +
          "each site's local `window`. The rollout pauses by itself when the failed share of a wave's finished " +
          'terminals exceeds `max_failure_pct`.',
        body: RolloutCreateSchema,
        response: { 201: RolloutSchema, ...errors },
      },
    },
    async (request, reply) => {
      const who = actor(request);
      const target = await app.targets.accept(request.principal!, request.body.target);
      const rollout = await answer(app.rollouts.create(who, { ...request.body, target }));
      return reply.status(201).send(rollout);
    },
  );

  app.get(
    '/api/rollouts/:id/',
    {
      onRequest: agentOnly,
      schema: {
        tags,
        security,
        summary: 'One rollout, with its counts',
        params: IdPathSchema,
        response: { 200: RolloutSchema, ...errors },
      },
    },
    async (request) => answer(app.rollouts.get(actor(request), idOf(request))),
  );

  app.get(
    '/api/rollouts/:id/terminals/',
    {
      onRequest: agentOnly,
      schema: {
        tags,
        security,
        summary: "A rollout's terminals and where each is",
        description:
          'Paged with `limit_to` and `before` (the `id` of the last row seen); `status` filters (repeatable).',
        params: IdPathSchema,
        querystring: RolloutTerminalsQuerySchema,
        response: { 200: z.array(RolloutTerminalSchema), ...errors },
      },
    },
    async (request, reply) => {
      const rows = await answer(
        app.rollouts.terminals(actor(request), idOf(request), {
          limit: request.query.limit_to,
          before: request.query.before,
          status: request.query.status,
        }),
      );
      return sendPage(request, reply, rows, request.query.limit_to);
    },
  );

  for (const action of ['pause', 'resume', 'cancel'] as const) {
    app.post(
      `/api/rollouts/:id/${action}/`,
      {
        onRequest: agentOnly,
        schema: {
          tags,
          security,
          summary:
            action === 'pause'
              ? 'Pause a rollout: nothing more is sent until it is resumed'
              : action === 'resume'
                ? 'Resume a paused rollout (409 for a cancelled or completed one)'
                : 'Cancel a rollout: install commands not yet fetched are withdrawn',
          params: IdPathSchema,
          response: { 200: RolloutSchema, 409: ErrorBodySchema, ...errors },
        },
      },
      async (request) => answer(app.rollouts[action](actor(request), idOf(request))),
    );
  }
}
