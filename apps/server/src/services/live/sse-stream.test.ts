import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { openTextStream } from '@forecourt/test-support/stream';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Change } from '../../repositories/change-repository.ts';
import type { Principal } from '../../repositories/principal-repository.ts';
import { FlushScheduler } from './flush-scheduler.ts';
import { ScopeIndex } from './scope-index.ts';
import { DEFAULT_LIVE_SETTINGS } from './settings.ts';
import {
  changeFrame,
  changeJson,
  type EndReason,
  PING_FRAME,
  resetFrame,
  SseStream,
  type StreamContext,
  startHeartbeat,
} from './sse-stream.ts';

const principal: Principal = {
  userId: 3,
  username: 'site',
  name: 'Site',
  agentId: null,
  companyIds: [],
  siteIds: [100],
  passwordChangedAt: new Date(0),
  tokensValidAfter: null,
  disabled: false,
};
const claims = (expInSeconds: number) => {
  const now = Math.floor(Date.now() / 1000);
  return { sub: '3', username: 'site', jti: 'j', iat: now, exp: now + expInSeconds };
};
const at = new Date('2026-11-24T10:00:00.000Z');
const change = (id: number, siteId = 100): Change => ({
  id,
  kind: 'alert',
  agentId: 1,
  companyId: 10,
  siteId,
  terminalId: 17,
  pumpId: null,
  userId: null,
  at,
});

/**
 * A real HTTP server whose one route opens an SseStream on the response; the feed is a list of changes held in
 * memory (the streams' own logic is tested here; the database-backed feed in test/live.test.ts).
 */
function harness() {
  const settings = { ...DEFAULT_LIVE_SETTINGS, batchMs: 20 };
  const backlog: Change[] = [];
  const feed = {
    cursor: 0,
    backlog: async (after: number, upto: number) => backlog.filter((c) => c.id > after && c.id <= upto),
    subscribe: () => () => {},
    poke: () => {},
  };
  const ended: EndReason[] = [];
  const streams: SseStream[] = [];
  const ctx: StreamContext = {
    settings,
    log: Fastify().log,
    feed,
    index: new ScopeIndex<SseStream>(),
    scheduler: new FlushScheduler<SseStream>(() => settings.batchMs),
    encode: (c) => ({ id: c.id, json: changeJson(c) }),
    ended: (_stream, reason) => ended.push(reason),
  };
  let exp = 3600;
  const server = http.createServer((req, res) => {
    const after = req.headers['last-event-id'];
    const stream = new SseStream(ctx, {
      principal,
      claims: claims(exp),
      token: 't',
      raw: res,
      after: after === undefined ? null : Number(after),
      address: req.socket.remoteAddress ?? '',
    });
    streams.push(stream);
    void stream.prepare().then(() => stream.start({ 'x-test': 'yes' }));
  });
  let base = '';
  return {
    settings,
    feed,
    backlog,
    ctx,
    ended,
    streams,
    setExp: (seconds: number) => {
      exp = seconds;
    },
    async listen() {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    port: () => (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    /** Opens a stream and collects its text. */
    open: (headers: Record<string, string> = {}) => openTextStream(base, headers),
  };
}

async function until(check: () => boolean) {
  while (!check()) await new Promise((r) => setTimeout(r, 5));
}

describe('SSE stream', () => {
  const h = harness();
  beforeAll(() => h.listen());
  afterAll(() => h.close());

  it('frames changes, resets and comments as server-sent events', () => {
    const item = (c: Change) => ({ id: c.id, json: changeJson(c) });
    expect(changeJson(change(7))).toBe(
      '{"id":7,"kind":"alert","agent_id":1,"company_id":10,"site_id":100,"terminal":17,"at":"2026-11-24T10:00:00.000Z"}',
    );
    expect(changeFrame([[item(change(7))], [item(change(8))]])).toBe(
      `id: 8\nevent: change\ndata: [${changeJson(change(7))},${changeJson(change(8))}]\n\n`,
    );
    expect(resetFrame(12)).toBe('id: 12\nevent: reset\ndata: {"id":12}\n\n');
    expect(PING_FRAME).toBe(': ping\n\n');
  });

  it('opens with the headers, retry and the live point, then sends what reaches it as change messages', async () => {
    h.feed.cursor = 5;
    const s = await h.open();
    expect(s.res.status).toBe(200);
    expect(s.res.headers.get('content-type')).toBe('text/event-stream');
    expect(s.res.headers.get('cache-control')).toBe('no-store');
    expect(s.res.headers.get('x-test')).toBe('yes');
    await s.until((t) => t.includes(': live 5\n\n'));
    expect(s.text()).toBe(`retry: ${h.settings.retryMs}\n\n: live 5\n\n`);
    const stream = h.streams.at(-1)!;
    stream.offer([{ id: 6, json: changeJson(change(6)) }]);
    await s.until((t) => t.includes('id: 6\n'));
    expect(s.text()).toContain(`id: 6\nevent: change\ndata: [${changeJson(change(6))}]\n\n`);
    await s.close();
    await until(() => stream.closed);
    expect(stream.endedBy).toBe('client');
  });

  it('sends the backlog after Last-Event-ID in one message, then live changes; an id ahead of the feed gets a reset', async () => {
    h.feed.cursor = 9;
    h.backlog.push(change(7), change(8, 999), change(9));
    const s = await h.open({ 'last-event-id': '6' });
    await s.until((t) => t.includes('id: 9\n'));
    expect(s.text()).toContain(
      `id: 9\nevent: change\ndata: [${changeJson(change(7))},${changeJson(change(9))}]\n\n`,
    );
    await s.close();
    h.settings.catchUpMs = 10;
    const r = await h.open({ 'last-event-id': '50' });
    await r.until((t) => t.includes('event: reset'));
    expect(r.text()).toContain(resetFrame(9));
    await r.close();
  });

  it('sends a heartbeat comment to live streams at the interval', async () => {
    const s = await h.open();
    await s.until((t) => t.includes(': live'));
    const stop = startHeartbeat(() => h.streams.filter((x) => !x.closed), 20);
    try {
      await s.until((t) => t.split(PING_FRAME).length > 3);
    } finally {
      stop();
    }
    await s.close();
  });

  it('ends the response when its session is revoked, and forgets it', async () => {
    const s = await h.open();
    await s.until((t) => t.includes(': live'));
    const stream = h.streams.at(-1)!;
    stream.end('revoked');
    await until(() => s.done());
    expect(stream.endedBy).toBe('revoked');
    expect(h.ended.at(-1)).toBe('revoked');
    // Nothing more goes out on it.
    stream.offer([{ id: 99, json: '{}' }]);
    expect(h.ctx.scheduler.waiting).toBe(0);
  });

  it('ends when its token expires', async () => {
    h.setExp(1);
    const s = await h.open();
    await s.until((t) => t.includes(': live'));
    const stream = h.streams.at(-1)!;
    await until(() => s.done());
    expect(stream.endedBy).toBe('expired');
    h.setExp(3600);
  });

  it('drops a client that does not read once its unsent bytes pass the limit', async () => {
    h.settings.maxBufferedBytes = 64 * 1024;
    h.settings.batchMs = 1;
    // A raw socket that sends the request and never reads.
    const opened = h.streams.length;
    const socket = net.connect(h.port(), '127.0.0.1');
    socket.pause();
    socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    await until(() => h.streams.length > opened);
    const stream = h.streams.at(-1)!;
    const big = { id: 1_000, json: JSON.stringify('x'.repeat(32 * 1024)) };
    for (let i = 0; i < 400 && !stream.closed; i++) {
      stream.offer([big]);
      await new Promise((r) => setTimeout(r, 2));
    }
    expect(stream.endedBy).toBe('slow');
    socket.destroy();
  });
});
