import { randomUUID } from 'node:crypto';
import {
  AuthResultSchema,
  decodeJwt,
  LOGIN_LIMITS,
  REGISTER_LIMITS,
  TokenResponseSchema,
} from '@forecourt/contract/auth';
import { ErrorBodySchema } from '@forecourt/contract/common';
import { CurrentUserSchema, PROFILE_TEXTS } from '@forecourt/contract/users';
import { createSigner } from 'fast-jwt';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_TTL_S } from '../src/services/tokens.ts';
import { buildTestApp, DEMO_PASSWORD, postgresUnavailable, TEST_JWT_SECRET, type TestApp } from './helper.ts';
import { orgFixture } from './org-fixtures.ts';

/**
 * Accounts and sessions as docs/decisions/0004-accounts-and-passwords.md describes them: one namespace for
 * usernames and emails, the current password for password and email changes, sessions with an absolute end,
 * sign-in limits that hold under concurrent guesses, the registration limit and U+0000 refused.
 */

const errorsOf = (res: { json(): unknown }) => ErrorBodySchema.parse(res.json()).data.errors;
const SHORT_DELAYS = { baseDelayMs: 5, maxDelayMs: 40 };

let n = 0;
/** A client address of its own per use, so counters of one test never touch another's. */
const address = () => `203.0.113.${++n}`;
const countBy = (codes: number[]) =>
  codes.reduce<Record<number, number>>((m, c) => Object.assign(m, { [c]: (m[c] ?? 0) + 1 }), {});

function post(t: TestApp, url: string, payload: unknown, opts: InjectOptions = {}) {
  return t.app.inject({ method: 'POST', url, payload: payload as InjectOptions['payload'], ...opts });
}

/** A fresh account, registered from an address of its own; answers its first token too. */
async function newUser(t: TestApp, extra: Record<string, unknown> = {}) {
  const email = `acct${randomUUID().slice(0, 8)}@accounts.example`;
  const password = 'start-pass';
  const reg = await post(
    t,
    '/api/auth/register',
    { email, name: 'Acc Holder', password, ...extra },
    { remoteAddress: address() },
  );
  expect(reg.statusCode, reg.body).toBe(200);
  const token = AuthResultSchema.parse(reg.json()).token!;
  const username = decodeJwt(token).username!;
  const id = Number(decodeJwt(token).sub);
  return { id, email, username, password, token };
}

const login = (
  t: TestApp,
  username: string,
  password: string,
  remoteAddress = address(),
  rememberMe = true,
) => post(t, '/api/auth/login', { username, password, rememberMe }, { remoteAddress });

describe.skipIf(postgresUnavailable)('accounts and sessions', () => {
  let t: TestApp;
  let agent: string;
  beforeAll(async () => {
    t = await buildTestApp({}, { signInLimits: SHORT_DELAYS });
    await orgFixture(t.database);
    agent = await t.login('agent');
  });
  afterAll(async () => t?.close());

  describe('usernames and emails are one namespace', () => {
    it('refuses a username that is an email and an email that is a username, on register (409)', async () => {
      const victim = await newUser(t);
      const squat = await post(
        t,
        '/api/auth/register',
        { email: 'squatter@accounts.example', username: victim.email.toUpperCase(), password: 'pass-1234' },
        { remoteAddress: address() },
      );
      expect(squat.statusCode).toBe(409);
      const atName = `at.name.${randomUUID().slice(0, 6)}@accounts.example`;
      await newUser(t, { username: atName });
      const clash = await post(
        t,
        '/api/auth/register',
        { email: atName, password: 'pass-1234' },
        { remoteAddress: address() },
      );
      expect(clash.statusCode).toBe(409);
      // The victim still signs in by its email, into its own account.
      const res = await login(t, victim.email, victim.password);
      expect(res.statusCode).toBe(200);
      expect(decodeJwt(AuthResultSchema.parse(res.json()).token!).sub).toBe(String(victim.id));
    });

    it('refuses an email that is another user’s username on the profile, and in the admin forms', async () => {
      const other = await newUser(t, { username: `prof.${randomUUID().slice(0, 6)}@accounts.example` });
      const u = await newUser(t);
      const taken = await t.as(u.token, {
        method: 'POST',
        url: '/api/user/update/',
        payload: { email: other.username, current_password: u.password },
      });
      expect(taken.statusCode).toBe(409);

      const created = await t.as(agent, {
        method: 'POST',
        url: '/api/admin/users/',
        payload: {
          username: u.email,
          email: `fresh${randomUUID().slice(0, 6)}@accounts.example`,
          role: 'agent',
        },
      });
      expect(created.statusCode).toBe(409);
      expect(errorsOf(created)[0]).toMatch(/^username: /);
      const mine = await t.as(agent, {
        method: 'POST',
        url: '/api/admin/users/',
        payload: {
          username: `adm${randomUUID().slice(0, 6)}`,
          email: `adm${randomUUID().slice(0, 6)}@a.example`,
          role: 'agent',
        },
      });
      expect(mine.statusCode, mine.body).toBe(201);
      const patched = await t.as(agent, {
        method: 'PATCH',
        url: `/api/admin/users/${mine.json().id}/`,
        payload: { email: other.username },
      });
      expect(patched.statusCode).toBe(409);
      expect(errorsOf(patched)[0]).toMatch(/^email: /);
    });

    it('looks a sign-in name containing @ up as an email first (rows from before the rule)', async () => {
      const real = await newUser(t);
      // An older row whose username is the real user's email, with the same password.
      await t.database.query(
        `insert into users (username, email, name, password_hash)
           select $1, $2, 'Old Row', password_hash from users where id = $3`,
        [real.email, `old${randomUUID().slice(0, 6)}@accounts.example`, real.id],
      );
      const res = await login(t, real.email, real.password);
      expect(res.statusCode).toBe(200);
      expect(decodeJwt(AuthResultSchema.parse(res.json()).token!).sub).toBe(String(real.id));
    });
  });

  describe('the current password guards password and email changes', () => {
    it('change password: missing → 400 naming current_password, wrong → 400 and counted as a failed sign-in', async () => {
      const u = await newUser(t);
      const here = address();
      const change = (payload: Record<string, unknown>) =>
        t.as(u.token, { method: 'POST', url: '/api/user/change/password/', payload, remoteAddress: here });
      const missing = await change({ password: 'new-pass-1', confirmPassword: 'new-pass-1' });
      expect(missing.statusCode).toBe(400);
      expect(errorsOf(missing).join(' ')).toMatch(/current_password/);
      for (let i = 0; i < LOGIN_LIMITS.perUsername; i++) {
        const wrong = await change({
          current_password: `nope-${i}`,
          password: 'new-pass-1',
          confirmPassword: 'new-pass-1',
        });
        expect(wrong.statusCode).toBe(400);
        expect(errorsOf(wrong)).toEqual([PROFILE_TEXTS.oldPasswordWrong]);
      }
      // Counted as failed sign-ins of the account from this address: the pair is refused now, sign-in too.
      const limited = await change({
        current_password: u.password,
        password: 'new-pass-1',
        confirmPassword: 'new-pass-1',
      });
      expect(limited.statusCode).toBe(429);
      expect((await login(t, u.username, u.password, here)).statusCode).toBe(429);
      const elsewhere = await t.as(u.token, {
        method: 'POST',
        url: '/api/user/change/password/',
        payload: { current_password: u.password, password: 'new-pass-1', confirmPassword: 'new-pass-1' },
        remoteAddress: address(),
      });
      expect(elsewhere.statusCode).toBe(200);
    });

    it('email change: missing → 400 naming current_password, wrong → 400, right → 200; a name alone needs none', async () => {
      const u = await newUser(t);
      const update = (payload: Record<string, unknown>) =>
        t.as(u.token, { method: 'POST', url: '/api/user/update/', payload, remoteAddress: address() });
      const next = `moved${randomUUID().slice(0, 6)}@accounts.example`;
      const missing = await update({ email: next });
      expect(missing.statusCode).toBe(400);
      expect(errorsOf(missing).join(' ')).toMatch(/current_password/);
      const wrong = await update({ email: next, current_password: 'not-the-one' });
      expect(wrong.statusCode).toBe(400);
      expect(errorsOf(wrong)).toEqual([PROFILE_TEXTS.oldPasswordWrong]);
      const me = await t.as(u.token, { method: 'GET', url: '/api/user/' });
      expect(CurrentUserSchema.parse(me.json()).email).toBe(u.email);
      expect((await update({ email: u.email.toUpperCase(), name: 'Same Mail' })).statusCode).toBe(200);
      const right = await update({ email: next, current_password: u.password });
      expect(right.statusCode).toBe(200);
      expect(CurrentUserSchema.parse(right.json()).email).toBe(next);
    });
  });

  describe('sessions', () => {
    async function agentUser() {
      const username = `sess${randomUUID().slice(0, 6)}`;
      const created = await t.as(agent, {
        method: 'POST',
        url: '/api/admin/users/',
        payload: { username, email: `${username}@accounts.example`, role: 'agent' },
      });
      expect(created.statusCode, created.body).toBe(201);
      const id = created.json().id as number;
      await t.database.query(
        `update users set password_hash = (select password_hash from users where username = 'agent') where id = $1`,
        [id],
      );
      return { id, username };
    }
    const setDisabled = async (id: number, disabled: boolean) => {
      const res = await t.as(agent, {
        method: 'PATCH',
        url: `/api/admin/users/${id}/`,
        payload: { disabled },
      });
      expect(res.statusCode, res.body).toBe(200);
    };
    const me = (token: string) => t.as(token, { method: 'GET', url: '/api/user/' });

    it('a re-enabled user signs in again, but its tokens from before the disable stay 401', async () => {
      const u = await agentUser();
      const before = AuthResultSchema.parse((await login(t, u.username, DEMO_PASSWORD)).json()).token!;
      const refreshed = TokenResponseSchema.parse(
        (await post(t, '/api-token-refresh/', { token: before })).json(),
      ).token;
      await setDisabled(u.id, true);
      await setDisabled(u.id, false);
      expect((await me(before)).statusCode).toBe(401);
      expect((await me(refreshed)).statusCode).toBe(401);
      expect((await post(t, '/api-token-refresh/', { token: before })).statusCode).toBe(400);
      const after = await login(t, u.username, DEMO_PASSWORD);
      expect(after.statusCode).toBe(200);
      expect((await me(AuthResultSchema.parse(after.json()).token!)).statusCode).toBe(200);
    });

    it('a disabled account with the right password gets exactly the wrong-password answer', async () => {
      const u = await agentUser();
      await setDisabled(u.id, true);
      for (const url of ['/api/auth/login', '/api-token-auth/']) {
        const right = await post(
          t,
          url,
          { username: u.username, password: DEMO_PASSWORD },
          { remoteAddress: address() },
        );
        const wrong = await post(
          t,
          url,
          { username: u.username, password: 'wrong-pass' },
          { remoteAddress: address() },
        );
        expect(right.statusCode).toBe(wrong.statusCode);
        expect(right.body).toBe(wrong.body);
      }
    });

    it('refreshing never extends a session past its absolute end', async () => {
      const u = await newUser(t);
      const now = Math.floor(Date.now() / 1000);
      const sign = createSigner({ key: TEST_JWT_SECRET, algorithm: 'HS256' });
      // A token from before sessions were named, a minute from its end (issued after the account's last
      // password change, so it is honoured): its own exp is its session's end.
      const old = sign({
        sub: String(u.id),
        username: u.username,
        jti: randomUUID(),
        iat: now,
        exp: now + 60,
      });
      const fromOld = decodeJwt(
        TokenResponseSchema.parse((await post(t, '/api-token-refresh/', { token: old })).json()).token,
      );
      expect(fromOld.exp).toBeLessThanOrEqual(now + 60);
      // A session that began 30 days less a minute ago (remember-me).
      const sessionEnd = now + 60;
      const late = sign({
        sub: String(u.id),
        username: u.username,
        jti: randomUUID(),
        sid: randomUUID(),
        sat: (now - 30 * 86400 + 60) * 1000,
        sexp: sessionEnd,
        iat: now,
        exp: sessionEnd,
      });
      const res = await post(t, '/api-token-refresh/', { token: late });
      expect(res.statusCode, res.body).toBe(200);
      const next = TokenResponseSchema.parse(res.json()).token;
      expect(decodeJwt(next).exp).toBeLessThanOrEqual(sessionEnd);
      const again = decodeJwt(
        TokenResponseSchema.parse((await post(t, '/api-token-refresh/', { token: next })).json()).token,
      );
      expect(again.exp).toBeLessThanOrEqual(sessionEnd);
      // A fresh sign-in's tokens: 12 h, and a refresh a moment later still ends with the session.
      const fresh = AuthResultSchema.parse((await login(t, u.username, u.password, address(), false)).json())
        .token!;
      const freshExp = decodeJwt(fresh).exp!;
      expect(freshExp - decodeJwt(fresh).iat!).toBe(SESSION_TTL_S);
      await new Promise((r) => setTimeout(r, 1100));
      const refreshed = TokenResponseSchema.parse(
        (await post(t, '/api-token-refresh/', { token: fresh })).json(),
      ).token;
      expect(decodeJwt(refreshed).exp).toBe(freshExp);
    });

    it('logging out ends the session: tokens refreshed from it stop working too', async () => {
      const u = await newUser(t);
      const first = AuthResultSchema.parse((await login(t, u.username, u.password)).json()).token!;
      const second = TokenResponseSchema.parse(
        (await post(t, '/api-token-refresh/', { token: first })).json(),
      ).token;
      const third = TokenResponseSchema.parse(
        (await post(t, '/api-token-refresh/', { token: second })).json(),
      ).token;
      const other = AuthResultSchema.parse((await login(t, u.username, u.password)).json()).token!;
      expect((await t.as(first, { method: 'DELETE', url: '/api/auth/logout' })).statusCode).toBe(200);
      for (const token of [first, second, third]) expect((await me(token)).statusCode).toBe(401);
      expect((await post(t, '/api-token-refresh/', { token: third })).statusCode).toBe(400);
      // Another sign-in is another session.
      expect((await me(other)).statusCode).toBe(200);
    });
  });

  describe('U+0000', () => {
    it('answers 400 naming the field in bodies, query parameters and headers, never 500', async () => {
      const site = await t.login('site');
      const [alert] = await t.database.query<{ id: number }>(
        `insert into alerts (terminal_id, site_id, company_id, agent_id, event_type, text, started_at)
           select t.id, t.site_id, t.company_id, t.agent_id, 1, 'Door open', now()
             from terminals t join users u on u.agent_id = t.agent_id
            where u.username = 'agent' order by t.id limit 1
         returning id`,
      );
      const cases: [string, InjectOptions, RegExp][] = [
        [
          'login name',
          { method: 'POST', url: '/api/auth/login', payload: { username: 'si\u0000te', password: 'x1234' } },
          /^username: /,
        ],
        [
          'reading B login',
          { method: 'POST', url: '/api-token-auth/', payload: { username: 'a\u0000', password: 'x1234' } },
          /^username: /,
        ],
        [
          'register',
          {
            method: 'POST',
            url: '/api/auth/register',
            payload: { email: 'n\u0000ul@a.example', password: 'x1234' },
          },
          /^email: /,
        ],
        [
          'ticket',
          {
            method: 'POST',
            url: '/api/zendesk/ticket/',
            payload: { subject: 'Pump\u0000', body: 'broken' },
            headers: { authorization: `JWT ${site}` },
          },
          /^subject: /,
        ],
        [
          'profile name',
          {
            method: 'POST',
            url: '/api/user/update/',
            payload: { name: 'Nu\u0000ll Person' },
            headers: { authorization: `JWT ${site}` },
          },
          /^name: /,
        ],
        [
          'ack note',
          {
            method: 'POST',
            url: `/api/alerts/${alert.id}/ack/`,
            payload: { note: 'seen\u0000' },
            headers: { authorization: `JWT ${agent}` },
          },
          /^note: /,
        ],
        [
          'nested field',
          {
            method: 'POST',
            url: '/api/zendesk/ticket/',
            payload: { subject: 's', body: 'b', extra: [{ deep: '\u0000' }] },
            headers: { authorization: `JWT ${site}` },
          },
          /^extra\.0\.deep: /,
        ],
        [
          'audit filter',
          {
            method: 'GET',
            url: '/api/admin/audit/?user=ag%00ent',
            headers: { authorization: `JWT ${agent}` },
          },
          /^user: /,
        ],
        [
          'any query',
          { method: 'GET', url: '/api/alerts/?event_type=1%00', headers: { authorization: `JWT ${agent}` } },
          /^event_type: /,
        ],
        [
          'header',
          {
            method: 'GET',
            url: '/api/user/',
            headers: { authorization: `JWT ${agent}`, 'x-note': 'a\u0000b' },
          },
          /^x-note header: /,
        ],
      ];
      for (const [what, opts, field] of cases) {
        const res = await t.app.inject({ remoteAddress: address(), ...opts });
        expect(res.statusCode, `${what}: ${res.body}`).toBe(400);
        expect(errorsOf(res)[0], what).toMatch(field);
        expect(errorsOf(res)[0], what).toMatch(/U\+0000/);
      }
    });

    it('answers 400 for U+0000 in a device event text', async () => {
      const terminal = await t.database.query<{ id: number }>(
        `select t.id from terminals t join users u on u.agent_id = t.agent_id
          where u.username = 'agent' order by t.id limit 1`,
      );
      const provisioned = await t.as(agent, {
        method: 'POST',
        url: `/api/terminal/${terminal[0].id}/device-token/`,
      });
      expect(provisioned.statusCode, provisioned.body).toBeLessThan(300);
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/device/v1/events',
        headers: { authorization: `Device ${provisioned.json().token}` },
        payload: [{ event_type: 1, text: 'door\u0000open' }],
      });
      expect(res.statusCode, res.body).toBe(400);
      expect(errorsOf(res)[0]).toMatch(/^0\.text: /);
    });
  });
});

describe.skipIf(postgresUnavailable)('sign-in limits under concurrency', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
    await orgFixture(t.database);
  });
  afterAll(async () => t?.close());

  it('60 concurrent guesses from one address: exactly the pair limit is tried, the rest 429', async () => {
    const u = await newUser(t);
    const here = address();
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) => login(t, u.username, `guess-${i}`, here)),
    );
    expect(countBy(answers.map((r) => r.statusCode))).toEqual({
      401: LOGIN_LIMITS.perUsername,
      429: 60 - LOGIN_LIMITS.perUsername,
    });
  }, 120_000);

  it('90 concurrent guesses from 10 addresses: the account limit holds, the right password among them refused', async () => {
    const u = await newUser(t);
    const addresses = Array.from({ length: 10 }, address);
    const started = Date.now();
    const answers = await Promise.all(
      Array.from({ length: 90 }, (_, i) =>
        login(t, u.username, i === 89 ? u.password : `guess-${i}`, addresses[i % 10]),
      ),
    );
    const codes = countBy(answers.map((r) => r.statusCode));
    const tried = answers.length - (codes[429] ?? 0);
    // The account's limit, plus the few turns its queue grants while the burst lasts (a turn a second or slower).
    const seconds = (Date.now() - started) / 1000;
    expect(tried).toBeGreaterThanOrEqual(LOGIN_LIMITS.perAccount);
    expect(tried).toBeLessThanOrEqual(LOGIN_LIMITS.perAccount + 2 + Math.ceil(Math.log2(seconds + 1)));
    expect(codes[429]).toBeGreaterThanOrEqual(70);
  }, 120_000);

  it('a pair that signed in before is never refused because of a stranger behind the same address', async () => {
    const u = await newUser(t);
    const office = address();
    expect((await login(t, u.username, u.password, office)).statusCode).toBe(200);
    for (let i = 0; i < LOGIN_LIMITS.perUsername + 2; i++) {
      expect((await login(t, u.username, `stranger-${i}`, office)).statusCode).toBe(401);
    }
    expect((await login(t, u.username, u.password, office)).statusCode).toBe(200);
  }, 120_000);

  it('registration: at most 10 an hour from one address, even concurrently (429 after)', async () => {
    const here = address();
    const answers = await Promise.all(
      Array.from({ length: REGISTER_LIMITS.perAddressPerHour + 3 }, (_, i) =>
        post(
          t,
          i % 2 ? '/auth/sign-up' : '/api/auth/register',
          { email: `reg${i}.${randomUUID().slice(0, 6)}@accounts.example`, password: 'pass-1234' },
          { remoteAddress: here },
        ),
      ),
    );
    expect(countBy(answers.map((r) => r.statusCode))).toEqual({
      200: REGISTER_LIMITS.perAddressPerHour,
      429: 3,
    });
    const refused = answers.find((r) => r.statusCode === 429)!;
    expect(errorsOf(refused)[0]).toMatch(/^Too many registrations/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    const elsewhere = await post(
      t,
      '/api/auth/register',
      { email: `else.${randomUUID().slice(0, 6)}@accounts.example`, password: 'pass-1234' },
      { remoteAddress: address() },
    );
    expect(elsewhere.statusCode).toBe(200);
  }, 120_000);
});
