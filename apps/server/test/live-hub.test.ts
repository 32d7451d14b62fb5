import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { openTextStream } from '@forecourt/test-support/stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChangeInput } from '../src/repositories/change-repository.ts';
import type { Principal } from '../src/repositories/principal-repository.ts';
import { unitOfWork } from '../src/repositories/unit-of-work.ts';
import { createLiveStreams, type LiveStream, type LiveStreams } from '../src/services/live/hub.ts';
import { buildTestApp, postgresUnavailable, type TestApp, testDbKind } from './helper.ts';

async function until(check: () => boolean) {
  while (!check()) await new Promise((r) => setTimeout(r, 10));
}

const principalOf = (userId: number, siteIds: number[]): Principal => ({
  userId,
  username: `u${userId}`,
  name: `U${userId}`,
  agentId: null,
  companyIds: [],
  siteIds,
  passwordChangedAt: new Date(0),
  tokensValidAfter: null,
  disabled: false,
});

/**
 * The hub on a real app's change feed, its streams on a plain HTTP server: `?user=&site=&token=` says who opens
 * one (the route's authentication is tested in test/live-stream.test.ts).
 */
describe.skipIf(postgresUnavailable)(`live hub (${testDbKind})`, () => {
  let t: TestApp;
  let hub: LiveStreams;
  let server: http.Server;
  let base: string;
  const opened: LiveStream[] = [];

  beforeAll(async () => {
    t = await buildTestApp();
    await t.app.feed.ready;
    hub = createLiveStreams({
      feed: t.app.feed,
      checkToken: (token) => t.app.accounts.checkToken(token),
      forgetPrincipal: (userId) => t.app.repos.principals.forget(userId),
      log: t.app.log,
      settings: { maxPerUser: 2, maxPerAddress: 3, batchMs: 20 },
    });
    server = http.createServer((req, res) => {
      const q = new URL(req.url ?? '/', 'http://x').searchParams;
      const now = Math.floor(Date.now() / 1000);
      const result = hub.open({
        principal: principalOf(Number(q.get('user')), [Number(q.get('site'))]),
        claims: { exp: now + 3600 },
        token: q.get('token') ?? 'not.a.token',
        raw: res,
        after: null,
        address: q.get('from') ?? '127.0.0.1',
      });
      if (!result.ok) {
        res.writeHead(result.reason === 'limit' ? 429 : 503).end();
        return;
      }
      opened.push(result.stream);
      void result.stream.prepare().then(() => result.stream.start({}));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    hub?.close();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    await t?.close();
  });

  /** Opens a stream as `user` (scope: one site) from the client address `from`. */
  const open = async (user: number, site: number, from = '192.0.2.1') => {
    const stream = await openTextStream(
      `${base}/?user=${user}&site=${site}&from=${encodeURIComponent(from)}`,
    );
    return { ...stream, status: stream.res.status };
  };
  const record = async (...changes: ChangeInput[]) => {
    await unitOfWork(t.database, (q) => q.changed(changes));
    t.app.feed.poke();
  };

  it('hands each committed change to the open streams of its scope only', async () => {
    const a = await open(901, 71_001);
    const b = await open(902, 71_002);
    await until(() => a.text().includes(': live') && b.text().includes(': live'));
    await record(
      { kind: 'alert', siteId: 71_001, terminalId: 5 },
      { kind: 'alert', siteId: 71_002, terminalId: 6 },
    );
    await until(() => a.text().includes('"terminal":5') && b.text().includes('"terminal":6'));
    await record({ kind: 'shock', siteId: 71_001, terminalId: 7 });
    await until(() => a.text().includes('"terminal":7'));
    expect(b.text()).not.toContain('"terminal":5');
    expect(b.text()).not.toContain('"terminal":7');
    expect(a.text()).not.toContain('"terminal":6');
    await Promise.all([a.close(), b.close()]);
    await until(() => hub.size === 0);
  });

  it("caps one user's open streams, and counts a closed one out", async () => {
    const s1 = await open(903, 71_001, '192.0.2.2');
    const s2 = await open(903, 71_001, '192.0.2.3');
    expect((await open(903, 71_001, '192.0.2.4')).status).toBe(429);
    expect(hub.countOf(903)).toBe(2);
    const other = await open(904, 71_001, '192.0.2.4');
    expect(other.status).toBe(200);
    await s1.close();
    await until(() => hub.countOf(903) === 1);
    const s3 = await open(903, 71_001, '192.0.2.4');
    expect(s3.status).toBe(200);
    await Promise.all([s2.close(), s3.close(), other.close()]);
  });

  it('caps the streams of one client address whoever signed in (IPv6: one /64), and counts a closed one out', async () => {
    const from = ['198.51.100.7', '::ffff:198.51.100.7', '198.51.100.7'];
    const held = [];
    for (const [i, address] of from.entries()) held.push(await open(910 + i, 71_001, address));
    expect(held.map((s) => s.status)).toEqual([200, 200, 200]);
    expect(hub.countFrom('198.51.100.7')).toBe(3);
    expect((await open(913, 71_001, '198.51.100.7')).status).toBe(429);
    // Another address, and the same users from it, are not affected.
    const elsewhere = await open(910, 71_001, '198.51.100.8');
    expect(elsewhere.status).toBe(200);
    await held.shift()!.close();
    await until(() => hub.countFrom('198.51.100.7') === 2);
    held.push(await open(913, 71_001, '198.51.100.7'));
    expect(held.at(-1)!.status).toBe(200);
    // IPv6 addresses of one /64 count together.
    const v6 = [];
    for (const [i, address] of ['2001:db8:5:6::1', '2001:db8:5:6::2', '2001:db8:5:6:a::9'].entries()) {
      v6.push(await open(920 + i, 71_001, address));
    }
    expect((await open(923, 71_001, '2001:db8:5:6::ffff')).status).toBe(429);
    expect((await open(923, 71_001, '2001:db8:5:7::1')).status).toBe(200);
    await Promise.all([...held, ...v6, elsewhere].map((s) => s.close()));
  });

  it('re-checks the token of a user at a session change: a token that no longer holds ends the stream', async () => {
    const s = await open(905, 71_001);
    await until(() => s.text().includes(': live'));
    const stream = opened.at(-1)!;
    const revoked = hub.stats.ended.revoked;
    await record({ kind: 'session', userId: 905 });
    await until(() => s.done());
    expect(stream.endedBy).toBe('revoked');
    expect(hub.stats.ended.revoked).toBe(revoked + 1);
  });

  it('ends every stream on close and opens no more', async () => {
    const s = await open(906, 71_001);
    await until(() => s.text().includes(': live'));
    hub.close();
    await until(() => s.done());
    expect(hub.size).toBe(0);
    expect((await open(907, 71_001)).status).toBe(503);
  });
});
