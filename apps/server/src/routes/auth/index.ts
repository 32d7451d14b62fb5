import { createHash, randomBytes } from 'node:crypto';
import {
  AUTH_REDIRECTS,
  AUTH_TEXTS,
  AuthResultSchema,
  LoginRequestSchema,
  REGISTER_TEXTS,
  RESET_TEXTS,
  RESET_TOKEN_TTL_S,
  RegisterRequestSchema,
  RequestPasswordSchema,
  ResetPasswordRequestSchema,
  SIGNATURE_EXPIRED,
  TOKEN_AUTH_FAILED,
  TOKEN_DECODE_FAILED,
  TokenAuthRequestSchema,
  TokenResponseSchema,
  TokenVerifyRequestSchema,
  tooManyLoginAttempts,
} from '@forecourt/contract/auth';
import { ErrorBodySchema } from '@forecourt/contract/common';
import { MESSAGES } from '@forecourt/contract/validation';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { badRequest, conflict, forbidden, tooManyRequests, unauthorized } from '../../lib/errors.ts';
import { extractToken } from '../../plugins/auth.ts';
import { isUniqueViolation, type UserRow } from '../../repositories/user-repository.ts';
import { createMailer } from '../../services/mailer.ts';
import { hashPassword, verifyPassword, warmUpPasswords } from '../../services/passwords.ts';

/** Reset mails per user per hour; further requests get the same answer and send nothing. */
const RESET_MAILS_PER_HOUR = 5;

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

const MessagesResultSchema = AuthResultSchema.omit({ token: true });
const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 429: ErrorBodySchema };

/** Username from an email's local part: lower case, letters, digits and . _ -, at least 3 characters. */
function usernameBase(email: string): string {
  const local = email
    .split('@')[0]
    .toLowerCase()
    .replace(/[^a-z0-9._-]/g, '')
    .slice(0, 30);
  return local.length >= 3 ? local : `${local}user`;
}

/** Reading A (/api/auth/...) and reading B (/api-token-auth/, /auth/...) of sign-in, sign-up and password reset. */
export async function authRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { users, revoked, principals } = app.repos;
  warmUpPasswords();

  const limits = app.signInLimits;
  const mailer = createMailer({ smtpUrl: app.config.SMTP_URL, from: app.config.MAIL_FROM, log: app.log });
  const publicUrl = (app.config.PUBLIC_URL ?? `http://localhost:${app.config.PORT}`).replace(/\/+$/, '');

  const background = new Set<Promise<void>>();
  const inBackground = (work: () => Promise<void>) => {
    const p = work()
      .catch((err) => app.log.error({ err }, 'password reset request failed'))
      .finally(() => background.delete(p));
    background.add(p);
  };
  app.addHook('onClose', async () => {
    await Promise.allSettled([...background]);
    mailer.close();
  });

  const limited = (reply: FastifyReply, ms: number) => {
    const minutes = Math.max(1, Math.ceil(ms / 60_000));
    reply.header('retry-after', Math.ceil(ms / 1000));
    return tooManyRequests(tooManyLoginAttempts(minutes));
  };

  /** 429 when `account` may not try from this address now, else waits out the account's delay. */
  async function guard(request: FastifyRequest, reply: FastifyReply, account: string, scope: string) {
    const verdict = await limits.check(account, request.ip, scope);
    if (verdict.blockedMs > 0) throw limited(reply, verdict.blockedMs);
    if (verdict.delayMs > 0) await new Promise((r) => setTimeout(r, verdict.delayMs));
  }

  /**
   * Checks the limits, then the password; a failure counts against the account (username and email are one:
   * the user id) and the address (services/sign-in-limits.ts).
   */
  async function signIn(request: FastifyRequest, reply: FastifyReply, login: string, password: string) {
    const user = await users.findByLogin(login);
    const account = user ? `user:${user.id}` : `login:${login.toLowerCase()}`;
    await guard(request, reply, account, 'login');
    const ok = await verifyPassword(user?.passwordHash, password);
    if (!user || !ok) {
      await limits.failed(account, request.ip, 'login');
      return null;
    }
    await limits.succeeded(account, request.ip, 'login');
    return user;
  }

  const closedRegistration = async () => {
    if (app.config.REGISTRATION === 'closed') throw forbidden(REGISTER_TEXTS.closed);
  };

  async function register(body: z.infer<typeof RegisterRequestSchema>) {
    const email = body.email;
    if (await users.emailTaken(email)) throw conflict(REGISTER_TEXTS.emailTaken);
    if (body.username && (await users.usernameTaken(body.username)))
      throw conflict(REGISTER_TEXTS.usernameTaken);
    const passwordHash = await hashPassword(body.password);
    const name = (body.fullName || body.name || '').trim();
    let user: UserRow | null = null;
    for (let attempt = 0; !user; attempt++) {
      const username = body.username ?? (await users.freeUsername(usernameBase(email)));
      try {
        user = await users.create({ username, email, name, passwordHash });
      } catch (err) {
        if (isUniqueViolation(err, 'users_email_uq')) throw conflict(REGISTER_TEXTS.emailTaken);
        if (!isUniqueViolation(err) || body.username || attempt >= 5) {
          throw isUniqueViolation(err) ? conflict(REGISTER_TEXTS.usernameTaken) : err;
        }
      }
    }
    const { token } = app.tokens.sign(user, true);
    return { token, redirect: AUTH_REDIRECTS.registered, data: { messages: [AUTH_TEXTS.registered] } };
  }

  async function logout(request: FastifyRequest) {
    const body = request.body as { token?: unknown } | undefined;
    const token =
      extractToken(request, app.config.AUTH_HEADER) ?? (typeof body?.token === 'string' ? body.token : null);
    const result = token ? app.tokens.verify(token) : null;
    if (result?.ok) await revoked.revoke(result.claims.jti, new Date(result.claims.exp * 1000));
    return { data: { messages: [AUTH_TEXTS.loggedOut] } };
  }

  /** Issuing links runs one at a time, so the per-user hourly cap holds under concurrent requests. */
  let issuing: Promise<unknown> = Promise.resolve();
  const issueResetLink = (email: string) => {
    const next = issuing.then(async () => {
      const user = await users.findByEmail(email);
      if (!user || (await users.resetTokensSince(user.id, 3600)) >= RESET_MAILS_PER_HOUR) return null;
      const token = randomBytes(32).toString('base64url');
      await users.createResetToken(user.id, sha256(token), RESET_TOKEN_TTL_S);
      return { user, link: `${publicUrl}/#/auth/reset-password?reset_password_token=${token}` };
    });
    issuing = next.catch(() => {});
    return next;
  };

  /** Every reset request counts like a failed sign-in (per address and email), so mail cannot be sprayed. */
  async function requestPassword(request: FastifyRequest, reply: FastifyReply, email: string) {
    const account = `email:${email.trim().toLowerCase()}`;
    await guard(request, reply, account, 'reset');
    await limits.failed(account, request.ip, 'reset');
    // The answer never depends on the address: the work happens after it, off the request.
    inBackground(async () => {
      const issued = await issueResetLink(email);
      if (!issued) return;
      const { user, link } = issued;
      if (!mailer.delivers) {
        app.log.info({ userId: user.id }, `Password reset link for ${user.email}: ${link}`);
        return;
      }
      await mailer.send({
        to: user.email,
        subject: 'Reset your Forecourt password',
        text:
          `Hello ${user.name || user.username},\n\n` +
          `Someone asked to reset the password of your Forecourt account "${user.username}".\n` +
          `Open this link within ${RESET_TOKEN_TTL_S / 60} minutes to choose a new password:\n\n${link}\n\n` +
          'If this was not you, ignore this mail: your password stays as it is.\n',
      });
      app.log.info({ userId: user.id }, 'password reset mail sent');
    });
    return { data: { messages: [AUTH_TEXTS.resetRequested] }, redirect: AUTH_REDIRECTS.resetRequested };
  }

  async function resetPassword(
    request: FastifyRequest,
    reply: FastifyReply,
    body: z.infer<typeof ResetPasswordRequestSchema>,
  ) {
    const password = (body.password ?? body.newPassword)!;
    await guard(request, reply, 'token', 'reset');
    const state = await users.consumeResetToken(sha256(body.reset_password_token!));
    if (!state.ok) {
      await limits.failed('token', request.ip, 'reset');
      const reason = {
        unknown: RESET_TEXTS.tokenInvalid,
        used: RESET_TEXTS.tokenUsed,
        expired: RESET_TEXTS.tokenExpired,
      };
      throw badRequest(reason[state.reason]);
    }
    await users.setPassword(state.userId, await hashPassword(password));
    principals.forget(state.userId);
    return { data: { messages: [AUTH_TEXTS.passwordChanged] }, redirect: AUTH_REDIRECTS.passwordChanged };
  }

  // Reading A
  app.post(
    '/api/auth/login',
    {
      schema: {
        tags: ['auth'],
        summary: 'Sign in with username (or email) and password',
        body: LoginRequestSchema,
        response: { 200: AuthResultSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { username, email, password, rememberMe } = request.body;
      const login = username || email?.trim() || '';
      if (!login) throw badRequest(MESSAGES.usernameRequired);
      const user = await signIn(request, reply, login, password);
      if (!user) throw unauthorized(AUTH_TEXTS.loginFailed);
      const { token } = app.tokens.sign(user, rememberMe);
      return { token, redirect: AUTH_REDIRECTS.loggedIn, data: { messages: [AUTH_TEXTS.loggedIn] } };
    },
  );

  const registerSchema = {
    tags: ['auth'],
    summary: 'Create an account (form or simple variant) and sign in',
    body: RegisterRequestSchema,
    response: { 200: AuthResultSchema, 400: ErrorBodySchema, 403: ErrorBodySchema, 409: ErrorBodySchema },
  };
  app.post('/api/auth/register', { schema: registerSchema, preValidation: closedRegistration }, (request) =>
    register(request.body),
  );

  const logoutSchema = {
    tags: ['auth'],
    summary: 'Sign out: the token stops working (answers the same without a valid token)',
    response: { 200: MessagesResultSchema },
  };
  app.delete('/api/auth/logout', { schema: logoutSchema }, logout);

  const requestPassSchema = {
    tags: ['auth'],
    summary: 'Mail a one-time reset link (same answer whether or not the address exists)',
    body: RequestPasswordSchema,
    response: { 200: MessagesResultSchema, 400: ErrorBodySchema },
  };
  app.post('/api/auth/request-pass', { schema: requestPassSchema }, (request, reply) =>
    requestPassword(request, reply, request.body.email),
  );

  const resetPassSchema = {
    tags: ['auth'],
    summary: 'Set a new password with the token of a reset link',
    body: ResetPasswordRequestSchema,
    response: { 200: MessagesResultSchema, 400: ErrorBodySchema },
  };
  app.put('/api/auth/reset-pass', { schema: resetPassSchema }, (request, reply) =>
    resetPassword(request, reply, request.body),
  );
  app.post('/api/auth/reset-pass', { schema: { ...resetPassSchema, hide: true } }, (request, reply) =>
    resetPassword(request, reply, request.body),
  );

  // Reading B
  app.post(
    '/api-token-auth/',
    {
      schema: {
        tags: ['auth'],
        summary: 'Sign in (older clients): answers only the token',
        body: TokenAuthRequestSchema,
        response: { 200: TokenResponseSchema, 400: ErrorBodySchema, 429: ErrorBodySchema },
      },
    },
    async (request, reply) => {
      const user = await signIn(request, reply, request.body.username.trim(), request.body.password);
      if (!user) throw badRequest(TOKEN_AUTH_FAILED, { non_field_errors: [TOKEN_AUTH_FAILED] });
      return { token: app.tokens.sign(user, false).token };
    },
  );

  app.post(
    '/api-token-verify/',
    {
      schema: {
        tags: ['auth'],
        summary: "Check a token: answers it back, or 400 with non_field_errors ['Signature has expired.']",
        body: TokenVerifyRequestSchema,
        response: { 200: TokenResponseSchema, 400: ErrorBodySchema },
      },
    },
    async (request) => {
      const token = request.body.token.trim();
      const fail = (message: string) => badRequest(message, { non_field_errors: [message] });
      if (token.split('.').length !== 3) throw fail(MESSAGES.tokenParts);
      const result = app.tokens.verify(token);
      if (!result.ok) throw fail(result.expired ? SIGNATURE_EXPIRED : TOKEN_DECODE_FAILED);
      if (await revoked.isRevoked(result.claims.jti)) throw fail('Token has been revoked.');
      const principal = await principals.load(Number(result.claims.sub));
      if (!principal) throw fail('User not found.');
      if (result.claims.iat * 1000 < principal.passwordChangedAt.getTime() - 1000) {
        throw fail('Token was issued before the last password change.');
      }
      return { token };
    },
  );

  app.post('/auth/sign-up', { schema: registerSchema, preValidation: closedRegistration }, (request) =>
    register(request.body),
  );
  app.post(
    '/auth/sign-out',
    { schema: { ...logoutSchema, body: z.object({ token: z.string().optional() }).nullish() } },
    logout,
  );
  app.post('/auth/request-pass', { schema: requestPassSchema }, (request, reply) =>
    requestPassword(request, reply, request.body.email),
  );
  app.post('/auth/reset-pass', { schema: resetPassSchema }, (request, reply) =>
    resetPassword(request, reply, request.body),
  );
  app.put('/auth/reset-pass', { schema: { ...resetPassSchema, hide: true } }, (request, reply) =>
    resetPassword(request, reply, request.body),
  );
}
