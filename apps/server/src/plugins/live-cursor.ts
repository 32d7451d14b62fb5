import { LIVE_CURSOR_HEADER } from '@forecourt/contract/live-cursor';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

/**
 * Every answer to a read under `/api/` says how far this node's change feed had got when it was made:
 * `X-Live-Cursor: <id>`, a change id such that the read holds the effects of every change up to it (each of them
 * had committed before the read began). A console that opens its stream of changes (GET /api/live) after its
 * first reads resumes after the oldest of their cursors (`Last-Event-ID`) and is sent what it may have missed,
 * instead of reading everything again. Snapshot reads (lib/read-routes.ts) set it themselves: the cursor of when
 * their snapshot was built. No header before the feed's first read (the cursor is not known yet) and on errors.
 */
export const liveCursorPlugin = fp(
  async (app: FastifyInstance) => {
    const atStart = new WeakMap<FastifyRequest, number>();
    app.addHook('onRequest', async (request) => {
      if (request.method !== 'GET' || !request.url.startsWith('/api/') || !app.feed.isReady) return;
      atStart.set(request, app.feed.cursor);
    });
    app.addHook('onSend', async (request, reply, payload) => {
      const cursor = atStart.get(request);
      if (cursor === undefined || reply.hasHeader(LIVE_CURSOR_HEADER)) return payload;
      if ((reply.statusCode >= 200 && reply.statusCode < 300) || reply.statusCode === 304) {
        reply.header(LIVE_CURSOR_HEADER, String(cursor));
      }
      return payload;
    });
  },
  { name: 'live-cursor' },
);
