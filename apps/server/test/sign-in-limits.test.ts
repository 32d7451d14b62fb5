import { ErrorBodySchema } from '@forecourt/contract/common';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { loadEnv } from '../src/config/env.ts';
import { createSignInLimitRepository } from '../src/repositories/sign-in-limit-repository.ts';
import { accountDelayMs, createSignInLimits } from '../src/services/sign-in-limits.ts';
import { buildTestApp, DEMO_PASSWORD, postgresUnavailable, TEST_JWT_SECRET, type TestApp } from './helper.ts';
import { orgFixture } from './org-fixtures.ts';

const errorsOf = (res: { json(): unknown }) => ErrorBodySchema.parse(res.json()).data.errors;
/** The real thresholds with short delays, so the tests do not wait seconds per failure. */
const SHORT_DELAYS = { baseDelayMs: 5, maxDelayMs: 40 };
const TOO_MANY = /^Too many login attempts, please try again in \d+ minutes?\.$/;

let n = 0;
/** A client address of its own per test, so one test's counters never touch another's. */
const address = () => `198.51.100.${++n}`;

function post(t: TestApp, url: string, payload: unknown, opts: InjectOptions = {}) {
  return t.app.inject({ method: 'POST', url, payload: payload as InjectOptions['payload'], ...opts });
}

describe('accountDelayMs', () => {
  const o = { freeFailures: 3, baseDelayMs: 250, maxDelayMs: 2000 };
  it('is free for the first failures, then doubles up to its ceiling', () => {
    expect([0, 1, 3, 4, 5, 6, 7, 8, 50].map((f) => accountDelayMs(f, o))).toEqual([
      0, 0, 0, 250, 500, 1000, 2000, 2000, 2000,
    ]);
  });
});

describe.skipIf(postgresUnavailable)('sign-in limits', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({}, { signInLimits: SHORT_DELAYS });
    await orgFixture(t.database);
  });
  afterAll(async () => t?.close());

  it("a stranger's failures refuse the stranger only: the real user signs in from elsewhere", async () => {
    const stranger = address();
    // Username and email are one account: failures under either count for both.
    for (let i = 0; i < 10; i++) {
      const url = i % 2 ? '/api/auth/login' : '/api-token-auth/';
      const username = i % 3 ? 'company' : 'company@forecourt.local';
      const res = await post(t, url, { username, password: `wrong-${i}` }, { remoteAddress: stranger });
      expect([400, 401]).toContain(res.statusCode);
    }
    for (const username of ['Company', 'COMPANY@forecourt.local']) {
      const res = await post(
        t,
        '/api/auth/login',
        { username, password: DEMO_PASSWORD },
        { remoteAddress: stranger },
      );
      expect(res.statusCode).toBe(429);
      expect(errorsOf(res)[0]).toMatch(TOO_MANY);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    }
    const real = await post(
      t,
      '/api/auth/login',
      { username: 'company', password: DEMO_PASSWORD },
      { remoteAddress: address() },
    );
    expect(real.statusCode).toBe(200);
  }, 60_000);

  it('never refuses many operators signing in correctly behind one address', async () => {
    const office = address();
    for (let i = 0; i < 40; i++) {
      const username = ['agent', 'company', 'site'][i % 3];
      const res = await post(
        t,
        '/api/auth/login',
        { username, password: DEMO_PASSWORD },
        { remoteAddress: office },
      );
      expect(res.statusCode).toBe(200);
    }
  }, 60_000);

  it('a success starts the pair again from zero', async () => {
    const here = address();
    const fail = () =>
      post(t, '/api/auth/login', { username: 'site', password: 'wrong-pass' }, { remoteAddress: here });
    for (let i = 0; i < 9; i++) expect((await fail()).statusCode).toBe(401);
    const ok = await post(
      t,
      '/api/auth/login',
      { username: 'site', password: DEMO_PASSWORD },
      { remoteAddress: here },
    );
    expect(ok.statusCode).toBe(200);
    for (let i = 0; i < 9; i++) expect((await fail()).statusCode).toBe(401);
  }, 60_000);

  it('refuses an address after 30 failures on any accounts, except accounts that signed in from it before', async () => {
    const shared = address();
    const known = await post(
      t,
      '/api/auth/login',
      { username: 'agent', password: DEMO_PASSWORD },
      { remoteAddress: shared },
    );
    expect(known.statusCode).toBe(200);
    for (let i = 0; i < 30; i++) {
      const res = await post(
        t,
        '/api/auth/login',
        { username: `nobody${n}x${i}`, password: 'whatever1' },
        { remoteAddress: shared },
      );
      expect(res.statusCode).toBe(401);
    }
    const unknownPair = await post(
      t,
      '/api-token-auth/',
      { username: 'site', password: DEMO_PASSWORD },
      { remoteAddress: shared },
    );
    expect(unknownPair.statusCode).toBe(429);
    expect(errorsOf(unknownPair)[0]).toMatch(TOO_MANY);
    const knownPair = await post(
      t,
      '/api/auth/login',
      { username: 'agent', password: DEMO_PASSWORD },
      { remoteAddress: shared },
    );
    expect(knownPair.statusCode).toBe(200);
  }, 60_000);

  it('keeps the counters in the database: another node (or a restart) on it refuses the same pair', async () => {
    const here = address();
    for (let i = 0; i < 10; i++) {
      const res = await post(
        t,
        '/api/auth/login',
        { username: `ghost${n}`, password: 'wrong-pass' },
        { remoteAddress: here },
      );
      expect(res.statusCode).toBe(401);
    }
    const other = await buildApp({
      config: loadEnv({ DATA_DIR: '/nonexistent', SIMULATOR: 'off', LOG_LEVEL: 'silent' }),
      database: t.database,
      jwtSecret: TEST_JWT_SECRET,
      webRoot: null,
    });
    try {
      const res = await other.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username: `ghost${n}`, password: 'wrong-pass' },
        remoteAddress: here,
      });
      expect(res.statusCode).toBe(429);
    } finally {
      await other.close();
    }
  }, 60_000);

  it('limits request-pass per address and email, and bad reset tokens per address', async () => {
    const here = address();
    for (const url of ['/api/auth/request-pass', '/auth/request-pass']) {
      for (let i = 0; i < 5; i++) {
        const res = await post(t, url, { email: 'site@forecourt.local' }, { remoteAddress: here });
        expect(res.statusCode).toBe(200);
      }
    }
    const refused = await post(
      t,
      '/api/auth/request-pass',
      { email: 'Site@forecourt.local' },
      { remoteAddress: here },
    );
    expect(refused.statusCode).toBe(429);
    const elsewhere = await post(
      t,
      '/api/auth/request-pass',
      { email: 'site@forecourt.local' },
      { remoteAddress: address() },
    );
    expect(elsewhere.statusCode).toBe(200);

    const guesser = address();
    const reset = (url: string, i: number) =>
      t.app.inject({
        method: url === '/auth/reset-pass' ? 'POST' : 'PUT',
        url,
        payload: {
          password: 'new-pass-1',
          confirmPassword: 'new-pass-1',
          reset_password_token: `guess-${i}`,
        },
        remoteAddress: guesser,
      });
    for (let i = 0; i < 10; i++) {
      const res = await reset(i % 2 ? '/auth/reset-pass' : '/api/auth/reset-pass', i);
      expect(res.statusCode).toBe(400);
    }
    expect((await reset('/api/auth/reset-pass', 99)).statusCode).toBe(429);
    const fresh = await t.app.inject({
      method: 'PUT',
      url: '/api/auth/reset-pass',
      payload: { password: 'new-pass-1', confirmPassword: 'new-pass-1', reset_password_token: 'guess-x' },
      remoteAddress: address(),
    });
    expect(fresh.statusCode).toBe(400);
  }, 60_000);

  it('prunes expired counters', async () => {
    await t.database.query(
      "insert into sign_in_limits (key, failures, expires_at) values ('login:pair:old|0.0.0.0', 3, now() - interval '1 minute')",
    );
    const limits = createSignInLimits(createSignInLimitRepository(t.database));
    expect(await limits.prune()).toBeGreaterThanOrEqual(1);
    const left = await t.database.query("select 1 from sign_in_limits where key = 'login:pair:old|0.0.0.0'");
    expect(left).toHaveLength(0);
  });
});

describe.skipIf(postgresUnavailable)('TRUST_PROXY', () => {
  const failFrom = (t: TestApp, remoteAddress: string, forwarded: string, i: number) =>
    post(
      t,
      '/api/auth/login',
      { username: `probe${n}-${i}`, password: 'whatever1' },
      { remoteAddress, headers: { 'x-forwarded-for': forwarded } },
    );

  it('is off by default: a rotating X-Forwarded-For does not escape the per-address limit', async () => {
    const t = await buildTestApp({}, { signInLimits: SHORT_DELAYS });
    try {
      const peer = address();
      for (let i = 0; i < 30; i++)
        expect((await failFrom(t, peer, `203.0.113.${i}`, i)).statusCode).toBe(401);
      expect((await failFrom(t, peer, '203.0.113.250', 99)).statusCode).toBe(429);
    } finally {
      await t.close();
    }
  }, 60_000);

  it('believes X-Forwarded-For from the listed proxies only', async () => {
    const t = await buildTestApp({ TRUST_PROXY: '127.0.0.1, 10.9.0.0/16' }, { signInLimits: SHORT_DELAYS });
    try {
      // Through the proxy: every forwarded client is its own address.
      for (let i = 0; i < 31; i++)
        expect((await failFrom(t, '10.9.1.1', `203.0.113.${i}`, i)).statusCode).toBe(401);
      // Straight from elsewhere: the header is ignored, the peer counts.
      const direct = address();
      for (let i = 0; i < 30; i++) await failFrom(t, direct, `203.0.113.${i}`, 100 + i);
      expect((await failFrom(t, direct, '203.0.113.251', 200)).statusCode).toBe(429);
    } finally {
      await t.close();
    }
  }, 60_000);
});
