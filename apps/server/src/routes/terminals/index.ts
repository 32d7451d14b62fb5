import { BulkRebootAcceptedSchema, BulkRebootRequestSchema } from '@forecourt/contract/bulk-reboot';
import { ErrorBodySchema } from '@forecourt/contract/common';
import {
  HISTORY_DEFAULT_RANGE_MS,
  HISTORY_MAX_RANGE_MS,
  HISTORY_POINTS,
  TelemetryHistoryQuerySchema,
  TelemetryHistorySchema,
} from '@forecourt/contract/telemetry-history';
import {
  CommandSchema,
  DeviceTokenResponseSchema,
  RebootAcceptedSchema,
  RebootRequestSchema,
} from '@forecourt/contract/terminals';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { commandListRoute } from '../../lib/command-list-route.ts';
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors.ts';
import { dataRoute } from '../../lib/read-routes.ts';
import { requesterOf } from '../../lib/requester.ts';
import { IdPathSchema, scopedErrors } from '../../lib/route-schemas.ts';
import { IDEMPOTENCY_DESCRIPTION } from '../../plugins/idempotency.ts';

const RebootQuerySchema = z.object({
  reboot_type: z.string().optional().describe('Accepted here too (older clients); the body wins'),
});

/** Terminal actions (reboot, device token), the terminal's command timeline and single commands. */
export async function terminalRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.post(
    '/api/terminal/:id/reboot/',
    {
      onRequest: app.scope('terminal'),
      preHandler: app.idempotent,
      // The older client sends reboot_type as a query parameter; either place works, the body wins.
      preValidation: async (request: FastifyRequest) => {
        const body = request.body;
        const query = request.query as { reboot_type?: unknown };
        if (body === undefined || body === null || (typeof body === 'object' && !('reboot_type' in body))) {
          if (query.reboot_type !== undefined) {
            request.body = { ...((body as object) ?? {}), reboot_type: query.reboot_type };
          } else if (body === undefined || body === null) {
            request.body = {};
          }
        }
      },
      schema: {
        tags: ['terminals'],
        security: [{ jwt: [] }],
        summary: 'Reboot a terminal',
        description:
          'Queues a reboot command for the terminal and answers 202 with it; its state (queued, sent, confirmed = done, ' +
          'failed, timed_out, expired) shows in the reboot log and in GET /api/command/{id}/. While another reboot of ' +
          `the terminal is queued or sent, answers 409 with error:true and error_text, queueing nothing.${IDEMPOTENCY_DESCRIPTION}`,
        params: IdPathSchema,
        querystring: RebootQuerySchema,
        body: RebootRequestSchema,
        response: {
          202: RebootAcceptedSchema,
          400: ErrorBodySchema,
          409: ErrorBodySchema.describe('A reboot of this terminal is already queued or sent'),
          ...scopedErrors,
        },
      },
    },
    async (request, reply) => {
      const result = await app.commands.reboot(
        request.target!.id,
        request.body.reboot_type,
        requesterOf(request),
      );
      if (!result.ok) {
        if (result.reason === 'missing') throw notFound(`No terminal with id ${request.target!.id}.`);
        const text = `Terminal ${result.terminalNo} has a reboot pending`;
        throw conflict(text, { error: true, error_text: text });
      }
      const { command } = result;
      request.log.info({ command: command.id, terminal: command.terminal_number }, 'reboot queued');
      return reply.status(202).send({ error: false, error_text: '', command });
    },
  );

  app.post(
    '/api/terminals/reboot/',
    {
      onRequest: app.authenticate,
      preHandler: app.idempotent,
      schema: {
        tags: ['terminals'],
        security: [{ jwt: [] }],
        summary: 'Reboot every terminal of a target (agents and company users)',
        description:
          'One reboot per live terminal of `target` (docs/targets.md), each queued as by POST ' +
          '/api/terminal/{id}/reboot/; a terminal whose reboot is still queued or sent is left out and counted in ' +
          '`skipped`. Answers 202 `{count, skipped, command_ids}`. 403 for site users and for a target outside the ' +
          `caller's scope; audited.${IDEMPOTENCY_DESCRIPTION}`,
        body: BulkRebootRequestSchema,
        response: {
          202: BulkRebootAcceptedSchema,
          400: ErrorBodySchema,
          401: ErrorBodySchema,
          403: ErrorBodySchema,
        },
      },
    },
    async (request, reply) => {
      const p = request.principal!;
      if (p.agentId === null && p.companyIds.length === 0) {
        throw forbidden('Only agents and company users reboot a target.');
      }
      const { target, reboot_type } = request.body;
      const where = await app.targets.authorize(p, target);
      const result = await app.commands.rebootTarget(target, reboot_type, {
        ...requesterOf(request),
        username: p.username,
        agentId: where.agentId,
      });
      request.log.info({ count: result.commandIds.length, skipped: result.skipped }, 'bulk reboot queued');
      return reply
        .status(202)
        .send({ count: result.commandIds.length, skipped: result.skipped, command_ids: result.commandIds });
    },
  );

  app.post(
    '/api/terminal/:id/device-token/',
    {
      onRequest: [app.scope('terminal'), app.agentOnly('provision device tokens')],
      schema: {
        tags: ['terminals', 'device'],
        security: [{ jwt: [] }],
        summary: "Provision or rotate a terminal's device token (agents only)",
        description:
          'Answers a new secret for `Authorization: Device <token>`, shown only this once; the server keeps its ' +
          'sha-256 only. Any previous token of the terminal stops working. Company and site users get 403.',
        params: IdPathSchema,
        response: { 200: DeviceTokenResponseSchema, ...scopedErrors },
      },
    },
    async (request, reply) => {
      const principal = request.principal!;
      const token = await app.deviceTokens.issue(request.target!.id, {
        userId: principal.userId,
        username: principal.username,
        agentId: principal.agentId,
      });
      request.log.info({ terminal: request.target!.id }, 'device token issued');
      reply.header('cache-control', 'no-store');
      return { token };
    },
  );

  dataRoute(app, {
    url: '/api/terminal/:id/telemetry/',
    kind: 'terminal',
    tags: ['terminals'],
    summary: "A terminal's history of one reading, for a chart",
    description:
      'Oldest first, at most `points` buckets of `step_s` seconds (`at` = bucket start; empty buckets left out). ' +
      'When every reading of the range fits, each is listed as it is (`step_s` 0, `n` 1). Ranges older than the raw ' +
      'retention (RAW_RETENTION_DAYS) or of buckets of an hour or more come from hourly roll-ups: their buckets are ' +
      'whole UTC hours, the first starting at the hour `from` falls in.',
    query: TelemetryHistoryQuerySchema,
    response: TelemetryHistorySchema,
    load: async ({ target, query }) => {
      const now = Date.now();
      const to = query.to ? new Date(query.to) : new Date(now);
      const from = query.from ? new Date(query.from) : new Date(to.getTime() - HISTORY_DEFAULT_RANGE_MS);
      // Checked here too: a default `to` (now) meets a given `from` only now.
      if (to <= from) throw badRequest('to must be after from');
      if (to.getTime() - from.getTime() > HISTORY_MAX_RANGE_MS)
        throw badRequest('from must be at most 2 years before to');
      const answer = await app.repos.telemetryHistory.history({
        terminalId: target.id,
        signal: query.signal,
        from,
        to,
        points: query.points ?? HISTORY_POINTS.default,
        rawSince: new Date(now - app.config.RAW_RETENTION_DAYS * 86_400_000),
      });
      return { signal: query.signal, from: from.toISOString(), to: to.toISOString(), ...answer };
    },
  });

  commandListRoute(
    app,
    'terminal',
    "A terminal's commands (reboots, and pump commands it carries), newest first, with history",
  );

  app.get(
    '/api/command/:id/',
    {
      onRequest: app.scope('command'),
      schema: {
        tags: ['terminals'],
        security: [{ jwt: [] }],
        summary: 'One command with its state history',
        params: IdPathSchema,
        response: { 200: CommandSchema, ...scopedErrors },
      },
    },
    async (request) => {
      const command = await app.repos.commands.get(request.target!.id);
      if (!command) throw notFound();
      return command;
    },
  );
}
