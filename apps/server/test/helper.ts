import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, expect, inject } from 'vitest';
import { type BuildOptions, buildApp } from '../src/app.ts';
import { type Env, loadEnv } from '../src/config/env.ts';
import { type Database, fromPool } from '../src/db/client.ts';
import { openTestDatabase, type PostgresTemplate } from './db-template.ts';

export const DEMO_PASSWORD = 'demo1234';
/** The JWT secret of every test app, for tests that sign their own tokens (expired, forged, ...). */
export const TEST_JWT_SECRET = 'test-secret-'.padEnd(48, 'x');
export const testDbKind = process.env.FC_TEST_DB ?? 'pglite';
/** True when this file runs in the postgres project but no server is reachable: skip it. */
export const postgresUnavailable = testDbKind === 'postgres' && !inject('postgresTemplate');

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  /** Sign in as a demo user (agent, company, site) and get its token. */
  login(username: string, password?: string): Promise<string>;
  /** app.inject with a token as `Authorization: JWT <token>`. */
  as(token: string, opts: InjectOptions): Promise<LightMyRequestResponse>;
  /** A GET as the user of `token`, with extra headers. */
  get(token: string, url: string, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  /** The three demo users (agent, company, site), signed in. */
  demoTokens(): Promise<{ agent: string; company: string; site: string }>;
  close(): Promise<void>;
}

/** A fresh copy of the demo-seeded database, of the engine this project tests on. */
export function openDemoDatabase(): Promise<Database> {
  return openTestDatabase(
    testDbKind,
    testDbKind === 'postgres' ? inject('postgresTemplate') : inject('pgliteTemplate'),
  );
}

/** The real app on a fresh demo-seeded database (PGlite, or PostgreSQL in the postgres project). */
export async function buildTestApp(
  env: Record<string, string> = {},
  opts: {
    logger?: BuildOptions['logger'];
    webRoot?: string | null;
    signInLimits?: BuildOptions['signInLimits'];
  } = {},
): Promise<TestApp> {
  const database = await openDemoDatabase();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'forecourt-test-'));
  const config: Env = loadEnv({ DATA_DIR: dataDir, SIMULATOR: 'off', LOG_LEVEL: 'silent', ...env });
  const app = await buildApp({
    config,
    database,
    jwtSecret: TEST_JWT_SECRET,
    webRoot: opts.webRoot ?? null,
    logger: opts.logger,
    signInLimits: opts.signInLimits,
  });
  await app.ready();
  const tokens = new Map<string, string>();
  const testApp: TestApp = {
    app,
    database,
    async login(username, password = DEMO_PASSWORD) {
      const key = `${username}:${password}`;
      const cached = tokens.get(key);
      if (cached) return cached;
      const res = await app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username, password },
      });
      if (res.statusCode !== 200) throw new Error(`login ${username} failed: ${res.statusCode} ${res.body}`);
      const token = res.json().token as string;
      tokens.set(key, token);
      return token;
    },
    as(token, opts) {
      return app.inject({ ...opts, headers: { ...(opts.headers ?? {}), authorization: `JWT ${token}` } });
    },
    get(token, url, headers = {}) {
      return testApp.as(token, { method: 'GET', url, headers });
    },
    async demoTokens() {
      return {
        agent: await testApp.login('agent'),
        company: await testApp.login('company'),
        site: await testApp.login('site'),
      };
    },
    async close() {
      await app.close();
      await database.close();
    },
  };
  return testApp;
}

/**
 * For a describe whose tests share one app: the app on a fresh demo database (after `prepare`, when given), there
 * from the describe's `beforeAll` on, closed after its last test.
 */
export function sharedApp(
  env: Record<string, string> = {},
  prepare: (t: TestApp) => Promise<unknown> = async () => {},
): { t: TestApp } {
  const s = {} as { t: TestApp };
  beforeAll(async () => {
    s.t = await buildTestApp(env);
    await prepare(s.t);
  });
  afterAll(async () => s.t?.close());
  return s;
}

export interface DemoSession {
  t: TestApp;
  agent: string;
  company: string;
  site: string;
}

/** `sharedApp` with the three demo users signed in. */
export function sharedDemoApp(env: Record<string, string> = {}): DemoSession {
  const s = sharedApp(env) as DemoSession;
  beforeAll(async () => {
    Object.assign(s, await s.t.demoTokens());
  });
  return s;
}

/**
 * JSON requests as a signed-in user, for a test file that shares one app: `token` defaults to `defaultToken()`, and
 * both getters are read at each call (the app and the tokens come in `beforeAll`).
 */
export function requestsAs(app: () => TestApp, defaultToken: () => string) {
  const as = (token: string, opts: InjectOptions) => app().as(token, opts);
  const send =
    (method: 'POST' | 'PATCH') =>
    (url: string, payload: unknown, token = defaultToken()) =>
      as(token, { method, url, payload: payload as object });
  return {
    as,
    post: send('POST'),
    patch: send('PATCH'),
    get: (url: string, token = defaultToken()) => as(token, { method: 'GET', url }),
    del: (url: string, token = defaultToken()) => as(token, { method: 'DELETE', url }),
  };
}

export interface SecondNode {
  app: FastifyInstance;
  /** Waits until this node's change feed has passed every change written so far (on either node). */
  caughtUp(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A second node on the test app's database: PostgreSQL, with its own pool; PGlite, the one embedded database
 * under another handle, so that each app settles its own writes (repositories/unit-of-work.ts).
 */
export async function startSecondNode(t: TestApp): Promise<SecondNode> {
  let database: Database = { ...t.database };
  let pool: Database | null = null;
  if (testDbKind === 'postgres') {
    const template = JSON.parse(inject('postgresTemplate')) as PostgresTemplate;
    const [row] = await t.database.query<{ name: string }>('select current_database() as name');
    const url = new URL(template.adminUrl);
    url.pathname = `/${row!.name}`;
    const raw = new pg.Pool({ connectionString: url.toString(), max: 5 });
    raw.on('error', () => {});
    pool = fromPool(raw);
    database = pool;
  }
  const config = loadEnv({
    DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'forecourt-node-b-')),
    SIMULATOR: 'off',
    LOG_LEVEL: 'silent',
  });
  const app = await buildApp({ config, database, jwtSecret: TEST_JWT_SECRET, webRoot: null });
  await app.ready();
  await app.feed.ready;
  return {
    app,
    async caughtUp() {
      const [row] = await t.database.query<{ max: string | number }>('select max(id) as max from changes');
      expect(await app.feed.caughtUp(Number(row!.max), 10_000)).toBe(true);
    },
    async close() {
      await app.close();
      await pool?.close();
    },
  };
}
