import { ErrorBodySchema } from '@forecourt/contract/common';
import { TurnPumpResponseSchema } from '@forecourt/contract/pumps';
import { CommandListSchema, ListCommandsQuerySchema } from '@forecourt/contract/terminals';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { conflict, notFound } from '../../lib/errors.ts';
import { requesterOf } from '../../lib/requester.ts';
import { IdPathSchema, scopedErrors } from '../../lib/route-schemas.ts';
import { IDEMPOTENCY_DESCRIPTION } from '../../plugins/idempotency.ts';
import { toPump } from '../../repositories/pump-read-model.ts';

/** Pump on/off (the state machine of docs/product.md#pump-state-machine) and a pump's command timeline. */
export async function pumpRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  for (const [word, target] of [
    ['on', 1],
    ['off', 0],
  ] as const) {
    app.post(
      `/api/pump/:id/turn/${word}/`,
      {
        onRequest: app.scope('pump'),
        preHandler: app.idempotent,
        schema: {
          tags: ['pumps'],
          security: [{ jwt: [] }],
          summary: `Turn a pump ${word}`,
          description:
            `Sets the requested status to ${target} at once (pending until the pump's terminal confirms, which sets ` +
            'last_synapse_status) and queues a command for that terminal. A pump already ' +
            `${word} or with a command pending answers 409 with error:true and error_text.${IDEMPOTENCY_DESCRIPTION}`,
          params: IdPathSchema,
          response: {
            200: TurnPumpResponseSchema,
            409: ErrorBodySchema.describe('Already in that state, or pending'),
            ...scopedErrors,
          },
        },
      },
      async (request) => {
        const result = await app.commands.turnPump(request.target!.id, target, requesterOf(request));
        if (!result.ok) {
          if (result.reason === 'missing') throw notFound(`No pump with id ${request.target!.id}.`);
          const text =
            result.reason === 'pending'
              ? `Pump ${result.pump.pumpNo} has a command pending`
              : `Pump ${result.pump.pumpNo} is already ${word}`;
          throw conflict(text, { error: true, error_text: text });
        }
        return {
          error: false,
          error_text: '',
          pump: toPump(result.pump),
          command_id: result.command.id,
        };
      },
    );
  }

  app.get(
    '/api/pump/:id/commands/',
    {
      onRequest: app.scope('pump'),
      schema: {
        tags: ['pumps'],
        security: [{ jwt: [] }],
        summary: "A pump's commands, newest first, each with its state history",
        params: IdPathSchema,
        querystring: ListCommandsQuerySchema,
        response: { 200: CommandListSchema, 400: ErrorBodySchema, ...scopedErrors },
      },
    },
    async (request) =>
      app.repos.commands.list(
        { pumpId: request.target!.id },
        { limit: request.query.limit_to, before: request.query.before, kinds: request.query.kind },
      ),
  );
}
