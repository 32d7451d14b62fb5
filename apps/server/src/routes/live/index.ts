import { isApiKeyToken } from '@forecourt/contract/api-keys';
import { ErrorBodySchema } from '@forecourt/contract/common';
import {
  LIVE_BATCH_MS,
  LIVE_HEARTBEAT_MS,
  LIVE_MAX_STREAMS_PER_ADDRESS,
  LIVE_MAX_STREAMS_PER_USER,
  LIVE_PATH,
  LiveQuerySchema,
} from '@forecourt/contract/live';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DatabaseUnavailableError } from '../../lib/db-unavailable.ts';
import { badRequest, tooManyRequests, unauthorized, unavailable } from '../../lib/errors.ts';
import { extractToken } from '../../plugins/auth.ts';
import { createLiveStreams, registerLiveStreams } from '../../services/live/hub.ts';

/** How long a stream waits for the change feed's first read (a node that just started) before answering 503. */
const FEED_READY_TIMEOUT_MS = 5_000;

/** `Last-Event-ID` (header, else `?last_event_id=`): a change id, or null when absent. */
function lastEventId(request: FastifyRequest, query: string | undefined): number | null {
  const header = request.headers['last-event-id'];
  const value = (Array.isArray(header) ? header.join(',') : header)?.trim();
  if (value) {
    if (!/^\d{1,15}$/.test(value)) {
      throw badRequest(
        `Last-Event-ID must be the id of a change received (a whole number), not "${value.slice(0, 40)}".`,
      );
    }
    return Number(value);
  }
  return query === undefined ? null : Number(query);
}

/**
 * `GET /api/live` (docs/product.md "Live updates"): the changes in the caller's scope as server-sent events, resumed
 * after `Last-Event-ID`. The streams of this node live in services/live/ (hub.ts); this route authenticates,
 * reads the resume point, enforces the per-user and per-address caps and hands the socket over.
 */
export async function liveRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const streams = createLiveStreams({
    feed: app.feed,
    checkToken: (token) => (isApiKeyToken(token) ? app.apiKeys.check(token) : app.accounts.checkToken(token)),
    forgetPrincipal: (userId) => app.repos.principals.forget(userId),
    log: app.log.child({ service: 'live' }),
    settings: { maxPerAddress: app.config.LIVE_MAX_STREAMS_PER_ADDRESS },
  });
  registerLiveStreams(app.feed, streams);
  // Open streams would hold the shutdown: they end before the server stops listening.
  app.addHook('preClose', async () => streams.close());

  const feedReady = async () => {
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        app.feed.ready,
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new DatabaseUnavailableError('the change feed has not started')),
            FEED_READY_TIMEOUT_MS,
          );
        }),
      ]);
    } finally {
      clearTimeout(timer);
    }
  };

  app.get(
    LIVE_PATH,
    {
      onRequest: app.authenticate,
      // A HEAD would hold a stream that can send nothing.
      exposeHeadRoute: false,
      schema: {
        tags: ['live'],
        security: [{ jwt: [] }],
        summary: 'Changes in your scope as they happen (server-sent events)',
        description: [
          '`text/event-stream`. Opens with `retry: 3000` and the comment `: live <cursor>`. Each message is',
          '`id: <id of its last change>`, `event: change`, `data: [<change>, ...]` with changes',
          '`{"id","kind","agent_id","company_id","site_id","terminal","pump","at"}` in order (ids not known are',
          `left out); changes within ${LIVE_BATCH_MS} ms travel in one message (at most 4 messages a second).`,
          '`kind`: telemetry, alert, connectivity, pump, reboot, transaction, shock, fleet. Only changes in the',
          "caller's scope are sent: an agent's by agent id, a company user's by its companies, a site user's by",
          `its sites. A comment \`: ping\` every ${LIVE_HEARTBEAT_MS / 1000} s. Reconnect with the`,
          '`Last-Event-ID` header (or `?last_event_id=`) to receive every change missed, in order, none twice;',
          "the `X-Live-Cursor` header of any read's answer is such an id too (the read holds every change up to it):",
          'open the stream after your first reads with the oldest of theirs and nothing between is missed;',
          'an id older than the feed keeps (at least 10 minutes) or unknown gets',
          '`event: reset` with `data: {"id":<cursor>}`: refetch everything, changes follow from there. The',
          'stream ends when its token is revoked or expires (an API key: deleted or expired), the user is disabled or',
          'changes password, or the',
          `client reads too slowly (it reconnects and resumes). At most ${LIVE_MAX_STREAMS_PER_USER} open streams`,
          `per user and ${LIVE_MAX_STREAMS_PER_ADDRESS} (by default) per client address on one node: one more is`,
          'answered 429.',
        ].join(' '),
        querystring: LiveQuerySchema,
        response: {
          200: {
            description: 'The stream: `change` and `reset` events, `: ping` comments',
            content: {
              'text/event-stream': {
                schema: z.string().describe('Server-sent events (see the description of the operation)'),
              },
            },
          },
          400: ErrorBodySchema,
          401: ErrorBodySchema,
          429: ErrorBodySchema,
          503: ErrorBodySchema,
        },
      },
    },
    async (request, reply) => {
      const after = lastEventId(request, request.query.last_event_id);
      await feedReady();
      const opened = streams.open({
        principal: request.principal!,
        claims: request.claims ?? { exp: (request.apiKey?.expiresAt?.getTime() ?? Infinity) / 1000 },
        token: extractToken(request, app.config.AUTH_HEADER)!,
        raw: reply.raw,
        after,
        // The socket's peer, or the client X-Forwarded-For names when the peer is a proxy TRUST_PROXY trusts.
        address: request.ip,
      });
      if (!opened.ok) {
        if (opened.reason === 'closing') throw unavailable('The server is shutting down; connect again.');
        throw tooManyRequests(
          opened.per === 'user'
            ? `Too many live streams: at most ${opened.max} open at once per user; close one first.`
            : `Too many live streams: at most ${opened.max} open at once from one address; close one first.`,
        );
      }
      const { stream } = opened;
      try {
        await stream.prepare();
      } catch (err) {
        stream.end('failed');
        throw err;
      }
      if (stream.closed) {
        // Ended while the backlog was read: the client went away, the token stopped working, or the node is closing.
        if (request.raw.destroyed) return reply.hijack();
        if (stream.endedBy === 'expired') throw unauthorized('Signature has expired.');
        if (stream.endedBy === 'revoked') throw unauthorized();
        throw unavailable('The server is shutting down; connect again.');
      }
      const headers = reply.getHeaders();
      reply.hijack();
      stream.start(headers);
      return reply;
    },
  );
}
