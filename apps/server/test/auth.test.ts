import { createHash } from 'node:crypto';
import {
  AUTH_TEXTS,
  AuthResultSchema,
  decodeJwt,
  NonFieldErrorsSchema,
  REGISTER_TEXTS,
  RESET_TEXTS,
  TOKEN_AUTH_FAILED,
  TokenResponseSchema,
} from '@forecourt/contract/auth';
import { ErrorBodySchema } from '@forecourt/contract/common';
import { CurrentUserSchema } from '@forecourt/contract/users';
import { MESSAGES } from '@forecourt/contract/validation';
import { startSmtpServer } from '@forecourt/test-support/smtp';
import { waitFor } from '@forecourt/test-support/wait';
import { createSigner } from 'fast-jwt';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REMEMBER_ME_TTL_S, SESSION_TTL_S } from '../src/services/tokens.ts';
import {
  buildTestApp,
  DEMO_PASSWORD,
  postgresUnavailable,
  sharedApp,
  TEST_JWT_SECRET,
  type TestApp,
} from './helper.ts';
import { orgFixture } from './org-fixtures.ts';

let ipCounter = 0;
/** A fresh client address per call, so the per-address login limit only bites where a test wants it. */
const freshIp = () => `10.1.${Math.floor(ipCounter / 250)}.${(ipCounter++ % 250) + 1}`;

function send(
  t: TestApp,
  method: InjectOptions['method'],
  url: string,
  payload?: unknown,
  opts: InjectOptions = {},
) {
  return t.app.inject({
    method,
    url,
    payload: payload as InjectOptions['payload'],
    remoteAddress: freshIp(),
    ...opts,
  });
}

const errorsOf = (res: { json(): unknown }) => ErrorBodySchema.parse(res.json()).data.errors;

/** PUT /api/auth/reset-pass: a new password (confirmed) with the token of a reset link. */
const resetPass = (t: TestApp, password: string, token: string) =>
  send(t, 'PUT', '/api/auth/reset-pass', {
    password,
    confirmPassword: password,
    reset_password_token: token,
  });

/** A token signed with the test secret and any claims: expired, issued long ago, ... */
function forgeToken(claims: Record<string, unknown>) {
  return createSigner({ key: TEST_JWT_SECRET, algorithm: 'HS256' })(claims);
}

/** A token of the site user (user id `sub`) that expired ten seconds ago. */
function expiredSiteToken(sub: string) {
  const now = Math.floor(Date.now() / 1000);
  return forgeToken({ sub, username: 'site', jti: 'old', iat: now - 100_000, exp: now - 10 });
}

async function userIdOf(t: TestApp, username: string): Promise<number> {
  const rows = await t.database.query<{ id: number }>(
    'select id from users where lower(username) = lower($1)',
    [username],
  );
  return rows[0].id;
}

/** A valid form of the register form variant (Jane Doe, a@b.co), with the fields of `change` changed. */
function registerForm(change: Record<string, unknown> = {}) {
  return {
    fullName: 'Jane Doe',
    email: 'a@b.co',
    password: 'pass1234',
    confirmPassword: 'pass1234',
    terms: true,
    ...change,
  };
}

let userCounter = 0;
/** Registers a fresh user through the API; answers its email, username and token. */
async function registerUser(t: TestApp, password = 'secret-pass') {
  const email = `user${Date.now().toString(36)}${userCounter++}@example.org`;
  const res = await send(t, 'POST', '/api/auth/register', { email, name: 'Test User', password });
  expect(res.statusCode).toBe(200);
  const token = AuthResultSchema.parse(res.json()).token!;
  return { email, username: decodeJwt(token).username!, token, password };
}

describe.skipIf(postgresUnavailable)('auth, reading A', () => {
  const s = sharedApp({}, (t) => orgFixture(t.database));

  describe('login', () => {
    it('signs a demo user in and the token opens /api/user/', async () => {
      const res = await send(s.t, 'POST', '/api/auth/login', {
        username: 'agent',
        password: DEMO_PASSWORD,
        rememberMe: true,
      });
      expect(res.statusCode).toBe(200);
      const body = AuthResultSchema.parse(res.json());
      expect(body.data.messages).toEqual(['You have been successfully logged in.']);
      expect(body.token!.split('.')).toHaveLength(3);
      const me = await s.t.as(body.token!, { method: 'GET', url: '/api/user/' });
      expect(me.statusCode).toBe(200);
      expect(CurrentUserSchema.parse(me.json()).username).toBe('agent');
    });

    it('accepts the email in the username field and in an email field, any case', async () => {
      const email = (
        await s.t.database.query<{ email: string }>(`select email from users where username = 'site'`)
      )[0].email;
      for (const payload of [
        { username: email.toUpperCase(), password: DEMO_PASSWORD },
        { email, password: DEMO_PASSWORD },
        { username: 'SITE', password: DEMO_PASSWORD },
      ]) {
        const res = await send(s.t, 'POST', '/api/auth/login', payload);
        expect(res.statusCode).toBe(200);
        expect(decodeJwt(AuthResultSchema.parse(res.json()).token!).username).toBe('site');
      }
    });

    it('answers 401 with the login error for a wrong password and for an unknown user alike', async () => {
      const wrong = await send(s.t, 'POST', '/api/auth/login', {
        username: 'company',
        password: 'not-the-password',
      });
      const unknown = await send(s.t, 'POST', '/api/auth/login', {
        username: 'nobody-here',
        password: DEMO_PASSWORD,
      });
      for (const res of [wrong, unknown]) {
        expect(res.statusCode).toBe(401);
        expect(res.json()).toEqual({
          data: { errors: ['Login/Email combination is not correct, please try again.'] },
        });
      }
    });

    it('names missing or malformed fields with 400', async () => {
      const noPassword = await send(s.t, 'POST', '/api/auth/login', { username: 'agent' });
      expect(noPassword.statusCode).toBe(400);
      expect(errorsOf(noPassword)).toContain(MESSAGES.passwordRequired);
      const noUser = await send(s.t, 'POST', '/api/auth/login', { password: DEMO_PASSWORD });
      expect(noUser.statusCode).toBe(400);
      expect(errorsOf(noUser)).toEqual([MESSAGES.usernameRequired]);
      const badType = await send(s.t, 'POST', '/api/auth/login', {
        username: 'agent',
        password: DEMO_PASSWORD,
        rememberMe: 'yes',
      });
      expect(badType.statusCode).toBe(400);
      expect(errorsOf(badType).join(' ')).toMatch(/rememberMe/);
    });

    it('gives remember-me a 30-day token and otherwise a 12-hour one', async () => {
      const long = await send(s.t, 'POST', '/api/auth/login', {
        username: 'agent',
        password: DEMO_PASSWORD,
        rememberMe: true,
      });
      const short = await send(s.t, 'POST', '/api/auth/login', {
        username: 'agent',
        password: DEMO_PASSWORD,
        rememberMe: false,
      });
      const life = (res: typeof long) => {
        const claims = decodeJwt(AuthResultSchema.parse(res.json()).token!);
        return claims.exp! - claims.iat!;
      };
      expect(life(long)).toBe(REMEMBER_ME_TTL_S);
      expect(life(short)).toBe(SESSION_TTL_S);
    });
  });

  describe('tokens on requests', () => {
    it('accepts JWT and Bearer prefixes and the raw token in Authorization', async () => {
      const token = await s.t.login('company');
      for (const authorization of [`JWT ${token}`, `Bearer ${token}`, token]) {
        const res = await s.t.app.inject({ method: 'GET', url: '/api/user/', headers: { authorization } });
        expect(res.statusCode).toBe(200);
      }
    });

    it('answers 401 without a token, with a forged one and with an expired one', async () => {
      const id = await userIdOf(s.t, 'agent');
      const now = Math.floor(Date.now() / 1000);
      const expired = forgeToken({
        sub: String(id),
        username: 'agent',
        jti: 'expired-1',
        iat: now - 7200,
        exp: now - 60,
      });
      const forged = createSigner({ key: 'another-secret'.padEnd(48, 'y'), algorithm: 'HS256' })({
        sub: String(id),
        jti: 'forged',
        exp: now + 60,
      });
      const none = await s.t.app.inject({ method: 'GET', url: '/api/user/' });
      expect(none.statusCode).toBe(401);
      const old = await s.t.as(expired, { method: 'GET', url: '/api/user/' });
      expect(old.statusCode).toBe(401);
      expect(errorsOf(old)).toEqual(['Signature has expired.']);
      const fake = await s.t.as(forged, { method: 'GET', url: '/api/user/' });
      expect(fake.statusCode).toBe(401);
    });
  });

  describe('register', () => {
    /** The simple variant of the form: email, name and password. */
    const registerSimple = (email: string, name: string) =>
      send(s.t, 'POST', '/api/auth/register', { email, name, password: 'pass1234' });

    it('creates an account from the form variant, signs it in and derives the username from the email', async () => {
      const email = `Jane.Doe+x@Example.org`;
      const res = await send(s.t, 'POST', '/api/auth/register', registerForm({ email }));
      expect(res.statusCode).toBe(200);
      const body = AuthResultSchema.parse(res.json());
      expect(body.data.messages).toEqual(['You have been successfully registered.']);
      expect(body.redirect).toBeTruthy();
      const me = CurrentUserSchema.parse(
        (await s.t.as(body.token!, { method: 'GET', url: '/api/user/' })).json(),
      );
      expect(me).toMatchObject({
        username: 'jane.doex',
        name: 'Jane Doe',
        email,
        agent: null,
        companies: [],
        sites: [],
      });
      const login = await send(s.t, 'POST', '/api/auth/login', {
        username: 'jane.doex',
        password: 'pass1234',
      });
      expect(login.statusCode).toBe(200);
    });

    it('creates an account from the simple variant and picks a free username when the local part is taken', async () => {
      const res = await registerSimple('jane.doex@other.example', 'Jane Other');
      expect(res.statusCode).toBe(200);
      const token = AuthResultSchema.parse(res.json()).token!;
      expect(decodeJwt(token).username).toBe('jane.doex2');
    });

    it('refuses an email that is already registered, whatever its case', async () => {
      const res = await registerSimple('JANE.DOE+X@example.ORG', 'Someone Else');
      expect(res.statusCode).toBe(409);
      expect(errorsOf(res)).toEqual([REGISTER_TEXTS.emailTaken]);
    });

    it('answers every validation message of the form', async () => {
      // A valid form with one field changed (undefined: left out of the body).
      const cases: [Record<string, unknown>, string][] = [
        [{ email: undefined }, 'Email is required!'],
        [{ email: '' }, 'Email is required!'],
        [{ email: 'jane@nowhere' }, 'Email should be the real one!'],
        [{ password: undefined, confirmPassword: 'x' }, 'Password is required!'],
        [{ password: 'abc', confirmPassword: 'abc' }, 'Password should contains from 4 to 50 characters'],
        [
          { password: 'x'.repeat(51), confirmPassword: 'x'.repeat(51) },
          'Password should contains from 4 to 50 characters',
        ],
        [{ fullName: 'Jo' }, MESSAGES.fullNameLength],
        [{ confirmPassword: undefined }, 'Password confirmation is required!'],
        [{ confirmPassword: 'pass12345' }, 'Password does not match the confirm password.'],
        [{ terms: false }, MESSAGES.termsRequired],
        [{ terms: undefined }, MESSAGES.termsRequired],
      ];
      for (const [change, message] of cases) {
        const payload = JSON.parse(JSON.stringify(registerForm(change)));
        const res = await send(s.t, 'POST', '/api/auth/register', payload);
        expect(res.statusCode, JSON.stringify(payload)).toBe(400);
        expect(errorsOf(res), JSON.stringify(payload)).toContain(message);
      }
    });

    it('names every bad field at once', async () => {
      const res = await send(
        s.t,
        'POST',
        '/api/auth/register',
        registerForm({ email: 'not-an-email', confirmPassword: 'other', terms: false }),
      );
      expect(res.statusCode).toBe(400);
      expect(errorsOf(res)).toEqual(
        expect.arrayContaining([MESSAGES.emailPattern, MESSAGES.confirmMismatch, MESSAGES.termsRequired]),
      );
    });
  });

  describe('logout', () => {
    it('revokes the token server-side', async () => {
      const { token } = await registerUser(s.t);
      expect((await s.t.as(token, { method: 'GET', url: '/api/user/' })).statusCode).toBe(200);
      const res = await s.t.as(token, { method: 'DELETE', url: '/api/auth/logout' });
      expect(res.statusCode).toBe(200);
      expect(AuthResultSchema.parse(res.json()).data.messages).toEqual([
        'You have been successfully logged out.',
      ]);
      const after = await s.t.as(token, { method: 'GET', url: '/api/user/' });
      expect(after.statusCode).toBe(401);
    });

    it('answers the same without a token or with a bad one', async () => {
      for (const headers of [{}, { authorization: 'JWT nonsense' }, { authorization: 'Bearer a.b.c' }]) {
        const res = await s.t.app.inject({ method: 'DELETE', url: '/api/auth/logout', headers });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({ data: { messages: ['You have been successfully logged out.'] } });
      }
    });
  });

  describe('password reset (reset link logged without SMTP)', () => {
    it('answers request-pass the same whether or not the address exists', async () => {
      const known = await send(s.t, 'POST', '/api/auth/request-pass', { email: 'jane.doex@other.example' });
      const unknown = await send(s.t, 'POST', '/api/auth/request-pass', { email: 'nobody@nowhere.example' });
      expect(known.statusCode).toBe(200);
      expect(unknown.statusCode).toBe(200);
      expect(known.json()).toEqual(unknown.json());
      expect(AuthResultSchema.parse(known.json()).data.messages).toEqual([
        'Reset password instructions have been sent to your email.',
      ]);
    });

    it('validates the email of request-pass', async () => {
      const missing = await send(s.t, 'POST', '/api/auth/request-pass', {});
      expect(missing.statusCode).toBe(400);
      expect(errorsOf(missing)).toEqual(['Email is required!']);
      const bad = await send(s.t, 'POST', '/api/auth/request-pass', { email: 'nope' });
      expect(errorsOf(bad)).toEqual(['Email should be the real one!']);
    });

    it('refuses unknown, expired and used reset tokens with a clear 400', async () => {
      const { username } = await registerUser(s.t);
      const id = await userIdOf(s.t, username);
      const unknown = await resetPass(s.t, 'newpass1', 'not-a-token');
      expect(unknown.statusCode).toBe(400);
      expect(errorsOf(unknown)).toEqual([RESET_TEXTS.tokenInvalid]);

      const expiredToken = 'expired-token-value';
      await s.t.app.repos.users.createResetToken(
        id,
        createHash('sha256').update(expiredToken).digest('hex'),
        -1,
      );
      const expired = await resetPass(s.t, 'newpass1', expiredToken);
      expect(expired.statusCode).toBe(400);
      expect(errorsOf(expired)).toEqual([RESET_TEXTS.tokenExpired]);
    });

    it('validates the new password before spending the token', async () => {
      const { username } = await registerUser(s.t);
      const id = await userIdOf(s.t, username);
      const token = 'token-for-validation';
      await s.t.app.repos.users.createResetToken(id, createHash('sha256').update(token).digest('hex'), 3600);
      const cases: [Record<string, unknown>, string][] = [
        [{ confirmPassword: 'x' }, MESSAGES.passwordRequired],
        [{ password: 'abc', confirmPassword: 'abc' }, MESSAGES.passwordLength],
        [{ password: 'newpass1' }, MESSAGES.confirmRequired],
        [{ password: 'newpass1', confirmPassword: 'newpass2' }, MESSAGES.confirmMismatch],
        [{ newPassword: 'abc' }, MESSAGES.passwordLength],
      ];
      for (const [payload, message] of cases) {
        const res = await send(s.t, 'PUT', '/api/auth/reset-pass', {
          ...payload,
          reset_password_token: token,
        });
        expect(res.statusCode).toBe(400);
        expect(errorsOf(res)).toEqual([message]);
      }
      const noToken = await send(s.t, 'PUT', '/api/auth/reset-pass', {
        password: 'newpass1',
        confirmPassword: 'newpass1',
      });
      expect(errorsOf(noToken)).toEqual([RESET_TEXTS.tokenRequired]);
      // The token survived the bad attempts; the newPassword variant needs no confirmation.
      const ok = await send(s.t, 'PUT', '/api/auth/reset-pass', {
        newPassword: 'newpass1',
        reset_password_token: token,
      });
      expect(ok.statusCode).toBe(200);
      const login = await send(s.t, 'POST', '/api/auth/login', { username, password: 'newpass1' });
      expect(login.statusCode).toBe(200);
    });
  });

  describe('request bodies', () => {
    it.each([
      {
        title: 'answers malformed JSON with 400 and the error body',
        url: '/api/auth/login',
        type: 'application/json',
        payload: '{"username": "agent", "password": ',
        status: 400,
        error: /not valid JSON/,
      },
      {
        title: 'answers a 5 MB body with 413 and the error body, never 500',
        url: '/api/auth/register',
        type: 'application/json',
        payload: JSON.stringify({
          email: 'big@example.org',
          password: 'pass1234',
          name: 'x'.repeat(5 * 1024 * 1024),
        }),
        status: 413,
        error: /^Body is too large\.$/,
      },
      {
        title: 'answers an unsupported content type with 415',
        url: '/api/auth/login',
        type: 'application/xml',
        payload: '<login><username>agent</username></login>',
        status: 415,
        error: /Content-Type/,
      },
    ])('$title', async ({ url, type, payload, status, error }) => {
      const res = await s.t.app.inject({ method: 'POST', url, headers: { 'content-type': type }, payload });
      expect(res.statusCode).toBe(status);
      expect(errorsOf(res)).toEqual([expect.stringMatching(error)]);
    });

    it('answers a body of the wrong JSON type with 400', async () => {
      const res = await send(s.t, 'POST', '/api/auth/login', [1, 2, 3]);
      expect(res.statusCode).toBe(400);
      expect(errorsOf(res).length).toBeGreaterThan(0);
    });
  });
});

describe.skipIf(postgresUnavailable)('auth, reading B', () => {
  const s = sharedApp({}, (t) => orgFixture(t.database));

  it('/api-token-auth/ answers only the token', async () => {
    const res = await send(s.t, 'POST', '/api-token-auth/', { username: 'agent', password: DEMO_PASSWORD });
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json())).toEqual(['token']);
    const { token } = TokenResponseSchema.parse(res.json());
    expect((await s.t.as(token, { method: 'GET', url: '/api/user/' })).statusCode).toBe(200);
  });

  it('/api-token-auth/ refuses bad credentials with non_field_errors and the error body', async () => {
    const res = await send(s.t, 'POST', '/api-token-auth/', { username: 'agent', password: 'wrong-pass' });
    expect(res.statusCode).toBe(400);
    expect(NonFieldErrorsSchema.parse(res.json())).toEqual({
      non_field_errors: [TOKEN_AUTH_FAILED],
      data: { errors: [TOKEN_AUTH_FAILED] },
    });
    const missing = await send(s.t, 'POST', '/api-token-auth/', { username: 'agent' });
    expect(missing.statusCode).toBe(400);
    expect(errorsOf(missing).join(' ')).toMatch(/password/);
  });

  it('/api-token-verify/ answers a valid token back', async () => {
    const token = await s.t.login('site');
    const res = await send(s.t, 'POST', '/api-token-verify/', { token });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ token });
  });

  it("/api-token-verify/ answers 'Signature has expired.' for an expired token", async () => {
    const expired = expiredSiteToken(String(await userIdOf(s.t, 'site')));
    const res = await send(s.t, 'POST', '/api-token-verify/', { token: expired });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      non_field_errors: ['Signature has expired.'],
      data: { errors: ['Signature has expired.'] },
    });
  });

  it('/api-token-refresh/ gives a new token of the same lifetime for a valid one, and nothing for an expired one', async () => {
    const token = await s.t.login('site');
    const res = await send(s.t, 'POST', '/api-token-refresh/', { token });
    expect(res.statusCode).toBe(200);
    const fresh = res.json().token as string;
    expect(fresh).not.toBe(token);
    const claims = (tk: string) => JSON.parse(Buffer.from(tk.split('.')[1]!, 'base64url').toString());
    expect(claims(fresh).exp - claims(fresh).iat).toBe(claims(token).exp - claims(token).iat);
    expect(claims(fresh).sub).toBe(claims(token).sub);
    const me = await send(s.t, 'GET', '/api/user/', undefined, {
      headers: { authorization: `JWT ${fresh}` },
    });
    expect(me.json().username).toBe('site');

    const expired = expiredSiteToken(claims(token).sub);
    const refused = await send(s.t, 'POST', '/api-token-refresh/', { token: expired });
    expect(refused.statusCode).toBe(400);
    expect(NonFieldErrorsSchema.parse(refused.json()).non_field_errors).toEqual(['Signature has expired.']);
    const parts = await send(s.t, 'POST', '/api-token-refresh/', { token: 'a.b' });
    expect(NonFieldErrorsSchema.parse(parts.json()).non_field_errors).toEqual([MESSAGES.tokenParts]);
  });

  it('/api-token-verify/ says a token must consist of three parts when it does not', async () => {
    for (const token of ['garbage', 'a.b', 'a.b.c.d', 'a..b.c']) {
      const res = await send(s.t, 'POST', '/api-token-verify/', { token });
      expect(res.statusCode, token).toBe(400);
      expect(res.json(), token).toEqual({
        non_field_errors: [MESSAGES.tokenParts],
        data: { errors: [MESSAGES.tokenParts] },
      });
    }
  });

  it('/api-token-verify/ refuses undecodable parts, a foreign signature and a logged-out token', async () => {
    for (const token of [
      'a.b.c',
      '..',
      '!!.$$.%%',
      createSigner({ key: 'k'.repeat(40) })({ sub: '1', jti: 'x' }),
    ]) {
      const res = await send(s.t, 'POST', '/api-token-verify/', { token });
      expect(res.statusCode).toBe(400);
      expect(NonFieldErrorsSchema.parse(res.json()).non_field_errors).toEqual(['Error decoding signature.']);
    }
    const { token } = await registerUser(s.t);
    await send(s.t, 'POST', '/auth/sign-out', undefined, { headers: { authorization: `JWT ${token}` } });
    const res = await send(s.t, 'POST', '/api-token-verify/', { token });
    expect(res.statusCode).toBe(400);
    expect(NonFieldErrorsSchema.parse(res.json()).non_field_errors[0]).not.toBe('Signature has expired.');
  });

  it('/auth/sign-up registers like /api/auth/register', async () => {
    const res = await send(
      s.t,
      'POST',
      '/auth/sign-up',
      registerForm({
        fullName: 'Bob Builder',
        email: 'bob@builder.example',
        password: 'bob12345',
        confirmPassword: 'bob12345',
      }),
    );
    expect(res.statusCode).toBe(200);
    expect(AuthResultSchema.parse(res.json()).data.messages).toEqual([AUTH_TEXTS.registered]);
    const bad = await send(s.t, 'POST', '/auth/sign-up', {
      email: 'bob2@builder.example',
      password: 'bob12345',
      fullName: 'Bob Two',
    });
    expect(bad.statusCode).toBe(400);
    expect(errorsOf(bad)).toEqual(expect.arrayContaining([MESSAGES.confirmRequired, MESSAGES.termsRequired]));
  });

  it('/auth/sign-out revokes the token and answers the logout message', async () => {
    const { token } = await registerUser(s.t);
    const res = await send(s.t, 'POST', '/auth/sign-out', undefined, {
      headers: { authorization: `JWT ${token}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: { messages: [AUTH_TEXTS.loggedOut] } });
    expect((await s.t.as(token, { method: 'GET', url: '/api/user/' })).statusCode).toBe(401);
  });

  it('/auth/request-pass and /auth/reset-pass (POST) run the reset flow', async () => {
    const { username, email } = await registerUser(s.t);
    const req = await send(s.t, 'POST', '/auth/request-pass', { email });
    expect(req.statusCode).toBe(200);
    expect(AuthResultSchema.parse(req.json()).data.messages).toEqual([AUTH_TEXTS.resetRequested]);
    // No SMTP here: the reset link goes to the log; its token is only stored hashed, so plant a known one.
    const token = 'reading-b-token';
    await s.t.app.repos.users.createResetToken(
      await userIdOf(s.t, username),
      createHash('sha256').update(token).digest('hex'),
      3600,
    );
    const res = await send(s.t, 'POST', '/auth/reset-pass', {
      password: 'fresh-pass',
      confirmPassword: 'fresh-pass',
      reset_password_token: token,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: { messages: [AUTH_TEXTS.passwordChanged] }, redirect: '/auth/login' });
    expect(
      (await send(s.t, 'POST', '/api-token-auth/', { username, password: 'fresh-pass' })).statusCode,
    ).toBe(200);
  });
});

// Sign-in limits: test/sign-in-limits.test.ts.

describe.skipIf(postgresUnavailable)('configuration', () => {
  it('REGISTRATION=closed refuses sign-up with 403 in both readings', async () => {
    const t = await buildTestApp({ REGISTRATION: 'closed' });
    try {
      for (const url of ['/api/auth/register', '/auth/sign-up']) {
        const res = await send(t, 'POST', url, {
          email: 'new@example.org',
          name: 'New User',
          password: 'pass1234',
        });
        expect(res.statusCode).toBe(403);
        expect(errorsOf(res)).toEqual([REGISTER_TEXTS.closed]);
      }
    } finally {
      await t.close();
    }
  });

  it('AUTH_HEADER carries the raw token; Authorization still works', async () => {
    const t = await buildTestApp({ AUTH_HEADER: 'X-Auth-Token' });
    try {
      await orgFixture(t.database);
      const token = await t.login('agent');
      const raw = await t.app.inject({
        method: 'GET',
        url: '/api/user/',
        headers: { 'x-auth-token': token },
      });
      expect(raw.statusCode).toBe(200);
      expect(CurrentUserSchema.parse(raw.json()).username).toBe('agent');
      const jwt = await t.app.inject({
        method: 'GET',
        url: '/api/user/',
        headers: { authorization: `JWT ${token}` },
      });
      expect(jwt.statusCode).toBe(200);
      const wrong = await t.app.inject({
        method: 'GET',
        url: '/api/user/',
        headers: { 'x-auth-token': 'a.b.c' },
      });
      expect(wrong.statusCode).toBe(401);
    } finally {
      await t.close();
    }
  });
});

describe.skipIf(postgresUnavailable)('password reset over SMTP', () => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await buildTestApp({
      SMTP_URL: smtp.url,
      PUBLIC_URL: 'https://console.example.com/',
      MAIL_FROM: 'Forecourt <noreply@example.com>',
    });
    await orgFixture(t.database);
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('mails a one-time link; the new password works, the old one and older sessions do not', async () => {
    const { email, username } = await registerUser(t, 'old-pass');
    const id = await userIdOf(t, username);
    // An account that has existed for a day, with a session signed in an hour ago.
    await t.database.query(`update users set password_changed_at = now() - interval '1 day' where id = $1`, [
      id,
    ]);
    const now = Math.floor(Date.now() / 1000);
    const olderSession = forgeToken({
      sub: String(id),
      username,
      jti: 'older-session',
      iat: now - 3600,
      exp: now + 3600,
    });
    expect((await t.as(olderSession, { method: 'GET', url: '/api/user/' })).statusCode).toBe(200);

    const req = await send(t, 'POST', '/api/auth/request-pass', { email: email.toUpperCase() });
    expect(req.statusCode).toBe(200);
    const mail = await waitFor(() => smtp.mails.find((m) => m.to.includes(email)));
    expect(mail.from).toBe('noreply@example.com');
    const link =
      /https:\/\/console\.example\.com\/#\/auth\/reset-password\?reset_password_token=([\w-]+)/.exec(
        mail.text,
      );
    expect(link).not.toBeNull();
    const token = link![1];
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);

    const stored = await t.database.query<{ token_hash: string; expires_at: Date; used_at: Date | null }>(
      'select token_hash, expires_at, used_at from reset_tokens where user_id = $1',
      [id],
    );
    expect(stored).toHaveLength(1);
    expect(stored[0].token_hash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(stored)).not.toContain(token);
    const ttl = new Date(stored[0].expires_at).getTime() - Date.now();
    expect(ttl).toBeGreaterThan(3500_000);
    expect(ttl).toBeLessThanOrEqual(3600_000);

    const res = await resetPass(t, 'new-pass', token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      data: { messages: ['Your password has been successfully changed.'] },
      redirect: '/auth/login',
    });

    expect((await send(t, 'POST', '/api/auth/login', { username, password: 'new-pass' })).statusCode).toBe(
      200,
    );
    expect((await send(t, 'POST', '/api/auth/login', { username, password: 'old-pass' })).statusCode).toBe(
      401,
    );
    expect((await t.as(olderSession, { method: 'GET', url: '/api/user/' })).statusCode).toBe(401);

    const again = await resetPass(t, 'third-pass', token);
    expect(again.statusCode).toBe(400);
    expect(errorsOf(again)).toEqual([RESET_TEXTS.tokenUsed]);
  });

  it('sends nothing for an unknown address', async () => {
    const before = smtp.mails.length;
    const res = await send(t, 'POST', '/api/auth/request-pass', { email: 'ghost@nowhere.example' });
    expect(res.statusCode).toBe(200);
    // A known address sent right after is delivered; the unknown one never was.
    const { email } = await registerUser(t);
    await send(t, 'POST', '/api/auth/request-pass', { email });
    await waitFor(() => smtp.mails.find((m) => m.to.includes(email)));
    expect(smtp.mails.slice(before).map((m) => m.to[0])).toEqual([email]);
  });

  it('a newer reset link spends the older ones once used', async () => {
    const { email, username } = await registerUser(t);
    await send(t, 'POST', '/api/auth/request-pass', { email });
    await send(t, 'POST', '/api/auth/request-pass', { email });
    const mails = await waitFor(() => {
      const found = smtp.mails.filter((m) => m.to.includes(email));
      return found.length === 2 ? found : null;
    });
    const tokens = mails.map((m) => /reset_password_token=([\w-]+)/.exec(m.text)![1]);
    const first = await send(t, 'PUT', '/api/auth/reset-pass', {
      newPassword: 'pass-one',
      reset_password_token: tokens[1],
    });
    expect(first.statusCode).toBe(200);
    const second = await send(t, 'PUT', '/api/auth/reset-pass', {
      newPassword: 'pass-two',
      reset_password_token: tokens[0],
    });
    expect(second.statusCode).toBe(400);
    expect((await send(t, 'POST', '/api/auth/login', { username, password: 'pass-one' })).statusCode).toBe(
      200,
    );
  });
});

describe.skipIf(postgresUnavailable)('password reset mail cap', () => {
  it('issues at most 5 links per user per hour, answering every request the same', async () => {
    const smtp = await startSmtpServer();
    const t = await buildTestApp({ SMTP_URL: smtp.url });
    try {
      const { email, username } = await registerUser(t);
      const answers = await Promise.all(
        Array.from({ length: 7 }, () => send(t, 'POST', '/api/auth/request-pass', { email })),
      );
      expect(new Set(answers.map((r) => `${r.statusCode} ${r.body}`)).size).toBe(1);
      const id = await userIdOf(t, username);
      await t.app.close(); // waits for the mail work started by the requests
      const stored = await t.database.query('select 1 from reset_tokens where user_id = $1', [id]);
      expect(stored).toHaveLength(5);
      expect(smtp.mails.filter((m) => m.to.includes(email))).toHaveLength(5);
    } finally {
      await t.database.close();
      await smtp.close();
    }
  });
});

describe.skipIf(postgresUnavailable)('password reset without SMTP', () => {
  it('logs the reset link, which then works', async () => {
    const lines: string[] = [];
    const t = await buildTestApp(
      { PORT: '8123' },
      { logger: { level: 'info', stream: { write: (l: string) => lines.push(l) } } },
    );
    try {
      const { email, username } = await registerUser(t);
      await send(t, 'POST', '/api/auth/request-pass', { email });
      const line = await waitFor(() => lines.find((l) => l.includes(`Password reset link for ${email}`)));
      const token = /http:\/\/localhost:8123\/#\/auth\/reset-password\?reset_password_token=([\w-]+)/.exec(
        line,
      )![1];
      const res = await resetPass(t, 'logged-1', token);
      expect(res.statusCode).toBe(200);
      expect((await send(t, 'POST', '/api/auth/login', { username, password: 'logged-1' })).statusCode).toBe(
        200,
      );
    } finally {
      await t.close();
    }
  });
});
