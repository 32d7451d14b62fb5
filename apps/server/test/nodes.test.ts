import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DeviceCommandSchema } from '@forecourt/contract/device';
import { TurnPumpResponseSchema } from '@forecourt/contract/pumps';
import { DeviceTokenResponseSchema } from '@forecourt/contract/terminals';
import type { FastifyInstance, InjectOptions } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { z } from 'zod';
import { buildApp } from '../src/app.ts';
import { loadEnv } from '../src/config/env.ts';
import { type Database, fromPglite, fromPool } from '../src/db/client.ts';
import { createSharedSettingsRepository } from '../src/repositories/settings-repository.ts';
import { type Background, startBackground } from '../src/services/background.ts';
import { LEADER_LOCK_KEY } from '../src/services/leader.ts';
import { resolveJwtSecret } from '../src/services/tokens.ts';
import type { PostgresTemplate } from './db-template.ts';
import { type FleetFixture, fleetFixture, settleCommands } from './fleet-fixture.ts';
import { DEMO_PASSWORD, postgresUnavailable, testDbKind } from './helper.ts';

/** One API node: its own pool, caches, feed reader and background work, on the shared database. */
interface Node {
  app: FastifyInstance;
  database: Database;
  background: Background;
  secret: string;
  closed: boolean;
  /** How many times this node's leader lock was lost (observed on its database's sessionLock). */
  locksLost: number;
}

const POLL = { timeout: 10_000, interval: 50 };

describe.skipIf(postgresUnavailable || testDbKind !== 'postgres')('several nodes on one PostgreSQL', () => {
  let adminUrl: string;
  let dbName: string;
  let url: string;
  let a: Node;
  let b: Node;
  let f: FleetFixture;

  const startNode = async (): Promise<Node> => {
    const pool = new pg.Pool({ connectionString: url, max: 5, connectionTimeoutMillis: 5_000 });
    pool.on('error', () => {});
    const database = fromPool(pool);
    const node = { locksLost: 0 } as Node;
    const sessionLock = database.sessionLock.bind(database);
    database.sessionLock = async (key) => {
      const lock = await sessionLock(key);
      void lock?.lost.then(() => {
        node.locksLost++;
      });
      return lock;
    };
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'forecourt-node-'));
    // The longest snapshot life there is: a read on the other node shows a write only when the feed drops it.
    const config = loadEnv({
      DATA_DIR: dataDir,
      SIMULATOR: 'off',
      LOG_LEVEL: 'silent',
      POLL_CACHE_MS: '12500',
    });
    const secret = await resolveJwtSecret(
      config.JWT_SECRET,
      createSharedSettingsRepository(database),
      dataDir,
    );
    const app = await buildApp({ config, database, jwtSecret: secret, webRoot: null });
    await app.ready();
    await app.feed.ready;
    const background = await startBackground(app, { address: '' }, { leaderRetryMs: 100 });
    return Object.assign(node, { app, database, background, secret, closed: false });
  };
  const closeNode = async (n: Node | undefined) => {
    if (!n || n.closed) return;
    n.closed = true;
    await n.background.stop();
    await n.app.close();
    await n.database.close();
  };

  const login = async (n: Node, username = 'agent') => {
    const res = await n.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username, password: DEMO_PASSWORD },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().token as string;
  };
  const as = (n: Node, token: string, opts: InjectOptions) =>
    n.app.inject({ ...opts, headers: { ...(opts.headers ?? {}), authorization: `JWT ${token}` } });
  const device = (n: Node, token: string, url: string, opts: Omit<InjectOptions, 'url'> = {}) =>
    n.app.inject({
      method: 'GET',
      ...opts,
      url: `/api/device/v1/${url}`,
      headers: { authorization: `Device ${token}` },
    });

  beforeAll(async () => {
    const template = JSON.parse(inject('postgresTemplate')) as PostgresTemplate;
    adminUrl = template.adminUrl;
    dbName = `forecourt_test_nodes_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    try {
      await admin.query(`create database "${dbName}" template "${template.template}"`);
    } finally {
      await admin.end();
    }
    const u = new URL(adminUrl);
    u.pathname = `/${dbName}`;
    url = u.toString();
    // Both start at once, as a deployment's nodes do: they must agree on one signing secret.
    [a, b] = await Promise.all([startNode(), startNode()]);
    f = await fleetFixture(a.database);
    await settleCommands(a.database);
  });
  afterAll(async () => {
    await closeNode(a);
    await closeNode(b);
    if (dbName) {
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`drop database if exists "${dbName}" with (force)`);
      await admin.end();
    }
  });

  it('signs with one secret kept in the database: a token from node A works on node B', async () => {
    expect(a.secret).toBe(b.secret);
    const rows = await a.database.query<{ value: string }>(
      "select value from shared_settings where name = 'jwt_secret'",
    );
    expect(rows.map((r) => r.value)).toEqual([a.secret]);
    const token = await login(a);
    const me = await as(b, token, { method: 'GET', url: '/api/user/' });
    expect(me.statusCode, me.body).toBe(200);
    expect(me.json().username).toBe('agent');
  });

  it('refuses on node B a token signed out on node A', async () => {
    const token = await login(a, 'company');
    // B has read the revoked tokens and the user already: only the feed can tell it.
    expect((await as(b, token, { method: 'GET', url: '/api/user/' })).statusCode).toBe(200);
    const out = await as(a, token, { method: 'DELETE', url: '/api/auth/logout' });
    expect(out.statusCode).toBeLessThan(300);
    expect((await as(a, token, { method: 'GET', url: '/api/user/' })).statusCode).toBe(401);
    await expect
      .poll(async () => (await as(b, token, { method: 'GET', url: '/api/user/' })).statusCode, POLL)
      .toBe(401);
  });

  it('ends on node B the tokens refreshed from a session logged out on node A, and a disabled user’s old ones for good', async () => {
    const me = (n: Node, token: string) => as(n, token, { method: 'GET', url: '/api/user/' });
    const first = await login(a, 'site');
    const refresh = await b.app.inject({
      method: 'POST',
      url: '/api-token-refresh/',
      payload: { token: first },
    });
    expect(refresh.statusCode, refresh.body).toBe(200);
    const refreshed = refresh.json().token as string;
    expect((await me(b, refreshed)).statusCode).toBe(200);
    expect((await as(a, first, { method: 'DELETE', url: '/api/auth/logout' })).statusCode).toBeLessThan(300);
    await expect.poll(async () => (await me(b, refreshed)).statusCode, POLL).toBe(401);

    const agent = await login(a);
    const before = await login(a, 'site');
    expect((await me(b, before)).statusCode).toBe(200);
    const [{ id }] = await a.database.query<{ id: number }>("select id from users where username = 'site'");
    for (const disabled of [true, false]) {
      const res = await as(a, agent, {
        method: 'PATCH',
        url: `/api/admin/users/${id}/`,
        payload: { disabled },
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    await expect.poll(async () => (await me(b, before)).statusCode, POLL).toBe(401);
    expect((await me(b, await login(b, 'site'))).statusCode).toBe(200);
  });

  it('hands a pump command requested through node A to the device long-polling node B', async () => {
    const agent = await login(a);
    const pump = f.offPump;
    await a.database.query('update pumps set status = 0, last_synapse_status = 0 where id = $1', [pump.id]);
    const token = DeviceTokenResponseSchema.parse(
      (await as(a, agent, { method: 'POST', url: `/api/terminal/${pump.terminalId}/device-token/` })).json(),
    ).token;
    expect((await device(b, token, 'commands')).json()).toEqual([]);
    const waiting = b.app.commands.waiting();
    const poll = device(b, token, 'commands?wait=30');
    await expect.poll(() => b.app.commands.waiting(), POLL).toBe(waiting + 1);
    const turn = TurnPumpResponseSchema.parse(
      (await as(a, agent, { method: 'POST', url: `/api/pump/${pump.id}/turn/on/` })).json(),
    );
    const res = await poll;
    expect(res.statusCode, res.body).toBe(200);
    expect(
      z
        .array(DeviceCommandSchema)
        .parse(res.json())
        .map((c) => c.id),
    ).toEqual([turn.command_id]);
    const ack = await device(b, token, `commands/${turn.command_id}/ack`, {
      method: 'POST',
      payload: { result: 'ok' },
    });
    expect(ack.statusCode).toBe(200);
    // A 30 s wait inside a 20 s test: it passes only when node A's command woke node B's long-poll.
  }, 20_000);

  it('ends on node B a long-poll whose token was rotated on node A', async () => {
    const agent = await login(a);
    const terminal = f.plainTerminalId;
    const provision = async () =>
      DeviceTokenResponseSchema.parse(
        (await as(a, agent, { method: 'POST', url: `/api/terminal/${terminal}/device-token/` })).json(),
      ).token;
    const old = await provision();
    expect((await device(b, old, 'me')).statusCode).toBe(200);
    const waiting = b.app.commands.waiting();
    const poll = device(b, old, 'commands?wait=30');
    await expect.poll(() => b.app.commands.waiting(), POLL).toBe(waiting + 1);
    await provision();
    expect((await poll).statusCode).toBe(401);
    // B's cached token is gone too.
    await expect.poll(async () => (await device(b, old, 'me')).statusCode, POLL).toBe(401);
  }, 20_000);

  it("drops node B's snapshot when a write goes through node A", async () => {
    const agent = await login(a);
    const pump = f.onPump;
    const pumpsUrl = `/api/site/${pump.siteId}/pumps/`;
    await settleCommands(a.database);
    await a.database.query('update pumps set status = 1, last_synapse_status = 1 where id = $1', [pump.id]);
    const statusOn = async (n: Node) => {
      const res = await as(n, agent, { method: 'GET', url: pumpsUrl });
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as Array<{ id: number; status: number }>).find((p) => p.id === pump.id)?.status;
    };
    // B builds its snapshot now (after the direct update above, which no snapshot saw).
    b.app.snapshots.clear();
    expect(await statusOn(b)).toBe(1);
    const stale = b.app.snapshots.stats.stale;
    const turn = await as(a, agent, { method: 'POST', url: `/api/pump/${pump.id}/turn/off/` });
    expect(turn.statusCode, turn.body).toBe(200);
    expect(await statusOn(a)).toBe(0);
    await expect.poll(() => statusOn(b), POLL).toBe(0);
    // Shown because the snapshot was dropped, not because it aged (12.5 s) and was rebuilt behind a stale answer.
    expect(b.app.snapshots.stats.stale).toBe(stale);
    await settleCommands(a.database);
  });

  it('brings a silent terminal back online once, with one event and its alert cleared, whichever node its calls reach', async () => {
    const agent = await login(a);
    const terminal = f.companySite.terminalId;
    const token = DeviceTokenResponseSchema.parse(
      (await as(a, agent, { method: 'POST', url: `/api/terminal/${terminal}/device-token/` })).json(),
    ).token;
    // Both nodes have seen it calling: each remembers it 'on'.
    for (const n of [a, b]) expect((await device(n, token, 'me')).statusCode).toBe(200);
    await expect
      .poll(
        async () =>
          (
            await a.database.query<{ c: string }>('select connectivity as c from terminals where id = $1', [
              terminal,
            ])
          )[0].c,
        POLL,
      )
      .toBe('on');
    const events = async () =>
      (
        await a.database.query<{ status: string }>(
          'select status from connectivity_events where terminal_id = $1 and id > $2 order by id',
          [terminal, mark],
        )
      ).map((r) => r.status);
    const [{ id: mark }] = await a.database.query<{ id: string }>(
      'select coalesce(max(id), 0) as id from connectivity_events',
    );
    // The watchdog (on whichever node leads) finds it silent: its last call is long ago.
    await a.database.query("update terminals set last_seen_at = '2001-01-01' where id = $1", [terminal]);
    await a.app.heartbeats.flush();
    await b.app.heartbeats.flush();
    await a.database.query("update terminals set last_seen_at = '2001-01-01' where id = $1", [terminal]);
    expect(await a.app.repos.connectivity.markSilentOffline(new Date('2001-01-02'), new Date())).toEqual([
      terminal,
    ]);
    // It calls both nodes at once, again and again, until it is back: one 'on', one cleared alert.
    await expect
      .poll(async () => {
        await Promise.all([a, b, a, b].map((n) => device(n, token, 'me')));
        return (await events()).join(',');
      }, POLL)
      .toBe('off,on');
    for (let i = 0; i < 3; i++) await Promise.all([a, b].map((n) => device(n, token, 'me')));
    await Promise.all([a.app.heartbeats.flush(), b.app.heartbeats.flush()]);
    expect(await events()).toEqual(['off', 'on']);
    const alerts = await a.database.query<{ state: string }>(
      "select state from alerts where terminal_id = $1 and event_type = 3 and created_at > $2::timestamptz - interval '1 minute' order by id",
      [terminal, new Date()],
    );
    expect(alerts.map((r) => r.state)).toEqual(['cleared']);
  });

  it('runs the background work on one node at a time, and another node takes over when it goes', async () => {
    const leaders = () => [a, b].filter((n) => !n.closed && n.background.leader.isLeader);
    await expect.poll(() => leaders().length, POLL).toBe(1);
    const [first] = leaders();
    const lost = first.locksLost;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      // The lock's connection dies (as when the leader's database connection is cut): the leader stops its jobs,
      // and one node takes the lock again.
      const terminated = await admin.query(
        `select pg_terminate_backend(pid) as ok from pg_locks
          where locktype = 'advisory' and objid = $1 and database = (select oid from pg_database where datname = current_database())`,
        [LEADER_LOCK_KEY],
      );
      expect(terminated.rows).toEqual([{ ok: true }]);
    } finally {
      await admin.end();
    }
    await expect.poll(() => first.locksLost, POLL).toBe(lost + 1);
    await expect.poll(() => leaders().length, POLL).toBe(1);
    const [leader] = leaders();
    const other = leader === a ? b : a;
    expect(other.background.leader.isLeader).toBe(false);
    await closeNode(leader);
    await expect.poll(() => other.background.leader.isLeader, POLL).toBe(true);
  });
});

describe.skipIf(testDbKind !== 'pglite')('the signing secret of a node without JWT_SECRET', () => {
  it('moves an existing DATA_DIR/jwt-secret into the database, so tokens already issued stay valid', async () => {
    const { PGlite } = await import('@electric-sql/pglite');
    const database = fromPglite(await PGlite.create());
    try {
      await database.migrate();
      const dataDir = mkdtempSync(path.join(os.tmpdir(), 'forecourt-secret-'));
      const legacy = 'legacy-secret-'.padEnd(48, 'y');
      writeFileSync(path.join(dataDir, 'jwt-secret'), `${legacy}\n`);
      expect(await resolveJwtSecret(undefined, createSharedSettingsRepository(database), dataDir)).toBe(
        legacy,
      );
      // The database now holds it: another data folder (another node) gets the same.
      const elsewhere = mkdtempSync(path.join(os.tmpdir(), 'forecourt-secret-'));
      expect(await resolveJwtSecret(undefined, createSharedSettingsRepository(database), elsewhere)).toBe(
        legacy,
      );
      // JWT_SECRET still wins.
      expect(
        await resolveJwtSecret(
          'configured-'.padEnd(40, 'z'),
          createSharedSettingsRepository(database),
          dataDir,
        ),
      ).toBe('configured-'.padEnd(40, 'z'));
      // Without a file, a database that holds no secret yet gets a generated one once, whoever asks first.
      await database.query('delete from shared_settings');
      const [x, y] = await Promise.all([
        resolveJwtSecret(undefined, createSharedSettingsRepository(database), elsewhere),
        resolveJwtSecret(undefined, createSharedSettingsRepository(database), elsewhere),
      ]);
      expect(x).toBe(y);
      expect(x.length).toBeGreaterThanOrEqual(32);
      expect(x).not.toBe(legacy);
      expect(await resolveJwtSecret(undefined, createSharedSettingsRepository(database), dataDir)).toBe(x);
    } finally {
      await database.close();
    }
    // An embedded database created and migrated in-process: ~5 s alone, several times that on a busy machine.
  }, 120_000);
});
