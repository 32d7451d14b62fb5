import { ErrorBodySchema } from '@forecourt/contract/common';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { loadEnv } from '../src/config/env.ts';
import { type Database, fromPool } from '../src/db/client.ts';
import { unitOfWork } from '../src/repositories/unit-of-work.ts';
import { startBackground } from '../src/services/background.ts';
import { buildTestApp, postgresUnavailable, TEST_JWT_SECRET, type TestApp, testDbKind } from './helper.ts';
import { startTcpProxy } from './tcp-proxy.ts';

const DOWN = 'The database is unavailable; please try again shortly.';

/** The app on a PostgreSQL pool at `url` (the test's own database, or nothing at all). */
async function appOn(url: string): Promise<{ app: FastifyInstance; database: Database }> {
  const pool = new pg.Pool({ connectionString: url, max: 4, connectionTimeoutMillis: 5_000 });
  pool.on('error', () => {});
  const database = fromPool(pool);
  const app = await buildApp({
    config: loadEnv({ DATA_DIR: '/nonexistent', SIMULATOR: 'off', LOG_LEVEL: 'silent' }),
    database,
    jwtSecret: TEST_JWT_SECRET,
    webRoot: null,
  });
  await app.ready();
  return { app, database };
}

/** What every request that needs the database answers while it is gone. */
function expectDown(res: { statusCode: number; headers: Record<string, unknown>; json(): unknown }) {
  expect(res.statusCode).toBe(503);
  expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  expect(ErrorBodySchema.parse(res.json()).data.errors).toEqual([DOWN]);
}

describe.skipIf(postgresUnavailable)('database gone', () => {
  let t: TestApp;
  let down: { app: FastifyInstance; database: Database };
  let token: string;
  beforeAll(async () => {
    t = await buildTestApp();
    token = await t.login('agent');
    // Nothing listens there: every connection is refused.
    down = await appOn('postgres://postgres@127.0.0.1:18499/forecourt');
  });
  afterAll(async () => {
    await down?.app.close();
    await down?.database.close();
    await t?.close();
  });

  it('keeps /api/health (liveness) at 200 and answers /api/health/ready with 503', async () => {
    const live = await down.app.inject({ method: 'GET', url: '/api/health' });
    expect(live.statusCode).toBe(200);
    expectDown(await down.app.inject({ method: 'GET', url: '/api/health/ready' }));
    const ready = await t.app.inject({ method: 'GET', url: '/api/health/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready', database: testDbKind });
  });

  it('answers sign-in, reads, actions and device writes with 503 and Retry-After, never 500', async () => {
    const auth = { authorization: `JWT ${token}` };
    expectDown(
      await down.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username: 'agent', password: 'demo1234' },
      }),
    );
    expectDown(await down.app.inject({ method: 'GET', url: '/api/user/', headers: auth }));
    expectDown(await down.app.inject({ method: 'GET', url: '/api/alerts/agent/1/', headers: auth }));
    expectDown(
      await down.app.inject({
        method: 'POST',
        url: '/api/terminal/1/reboot/',
        headers: auth,
        payload: { reboot_type: 'software' },
      }),
    );
    expectDown(
      await down.app.inject({
        method: 'POST',
        url: '/api/device/v1/telemetry',
        headers: { authorization: 'Device fcd_some-device-token-0000000000' },
        payload: { battery_life: 50 },
      }),
    );
  });
});

describe.skipIf(postgresUnavailable || testDbKind !== 'postgres')('database returns', () => {
  let t: TestApp;
  let proxy: Awaited<ReturnType<typeof startTcpProxy>>;
  let node: { app: FastifyInstance; database: Database };
  beforeAll(async () => {
    t = await buildTestApp();
    const [{ db }] = await t.database.query<{ db: string }>('select current_database() as db');
    const admin = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
    proxy = await startTcpProxy({ host: admin.hostname, port: Number(admin.port || 5432) });
    admin.hostname = '127.0.0.1';
    admin.port = String(proxy.port);
    admin.pathname = `/${db}`;
    node = await appOn(admin.toString());
  });
  afterAll(async () => {
    await node?.app.close();
    await node?.database.close();
    await proxy?.close();
    await t?.close();
  });

  it('answers 503 while the database is cut off and recovers by itself when it returns', async () => {
    const login = () =>
      node.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username: 'agent', password: 'demo1234' },
      });
    expect((await node.app.inject({ method: 'GET', url: '/api/health/ready' })).statusCode).toBe(200);
    const before = await login();
    expect(before.statusCode).toBe(200);
    const auth = { authorization: `JWT ${before.json().token}` };
    expect((await node.app.inject({ method: 'GET', url: '/api/user/', headers: auth })).statusCode).toBe(200);

    await proxy.cut();
    expectDown(await node.app.inject({ method: 'GET', url: '/api/health/ready' }));
    expectDown(await node.app.inject({ method: 'GET', url: '/api/user/', headers: auth }));
    expectDown(await login());
    expect((await node.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);

    await proxy.restore();
    expect((await node.app.inject({ method: 'GET', url: '/api/health/ready' })).statusCode).toBe(200);
    expect((await node.app.inject({ method: 'GET', url: '/api/user/', headers: auth })).statusCode).toBe(200);
    expect((await login()).statusCode).toBe(200);
  });

  it('answers 503 rather than hang when the database stops answering', async () => {
    node.database.setQueryTimeout?.(1_000);
    const before = await node.app.inject({ method: 'GET', url: '/api/health/ready' });
    expect(before.statusCode).toBe(200);
    proxy.freeze();
    try {
      // A pooled connection that gets no answer (query timeout) and a new one that never opens (connection
      // timeout) both end in 503.
      expectDown(
        await node.app.inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: { username: 'agent', password: 'demo1234' },
        }),
      );
      expectDown(await node.app.inject({ method: 'GET', url: '/api/health/ready' }));
    } finally {
      await proxy.cut();
      await proxy.restore();
    }
    // Connections opened while it was frozen fail as they time out; then the pool is healthy again.
    let status = 0;
    for (let i = 0; i < 40 && status !== 200; i++) {
      status = (await node.app.inject({ method: 'GET', url: '/api/health/ready' })).statusCode;
      if (status !== 200) await new Promise((r) => setTimeout(r, 250));
    }
    expect(status).toBe(200);
  });

  it('stops the leader jobs while the database is cut off, takes the lead again and follows the feed when it returns', async () => {
    const background = await startBackground(node.app, { address: '' }, { leaderRetryMs: 100 });
    const seen: number[] = [];
    const unsubscribe = node.app.feed.subscribe((changes) => seen.push(...changes.map((c) => c.id)));
    const record = () =>
      unitOfWork(t.database, async (q) => {
        await q.changed([{ kind: 'fleet', agentId: 1 }]);
        return Number((await q<{ id: string }>('select max(id) as id from changes'))[0].id);
      });
    try {
      // The only node with background work on this database: it leads, and the feed reaches it (once it has
      // started: a node follows the changes written after its start).
      expect(background.leader.isLeader).toBe(true);
      await node.app.feed.ready;
      const before = await record();
      await expect.poll(() => seen.includes(before), { timeout: 10_000 }).toBe(true);

      await proxy.cut();
      await expect.poll(() => background.leader.isLeader, { timeout: 15_000 }).toBe(false);
      const during = await record();
      expectDown(await node.app.inject({ method: 'GET', url: '/api/health/ready' }));

      await proxy.restore();
      await expect.poll(() => background.leader.isLeader, { timeout: 15_000 }).toBe(true);
      // The change written while the node was cut off arrives too, and later ones keep arriving.
      await expect.poll(() => seen.includes(during), { timeout: 10_000 }).toBe(true);
      const after = await record();
      await expect.poll(() => seen.includes(after), { timeout: 10_000 }).toBe(true);
      expect(seen).toEqual([...seen].sort((x, y) => x - y));
    } finally {
      unsubscribe();
      await background.stop();
    }
  }, 60_000);
});
