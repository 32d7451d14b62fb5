import {
  AUTH_REDIRECTS,
  AUTH_TEXTS,
  AuthResultSchema,
  LoginRequestSchema,
  REGISTER_TEXTS,
  RESET_TEXTS,
  RegisterRequestSchema,
  RequestPasswordSchema,
  ResetPasswordRequestSchema,
  SIGNATURE_EXPIRED,
  TOKEN_AUTH_FAILED,
  TOKEN_DECODE_FAILED,
  TokenAuthRequestSchema,
  TokenResponseSchema,
  TokenVerifyRequestSchema,
} from '@forecourt/contract/auth';
import { ErrorBodySchema } from '@forecourt/contract/common';
import { MESSAGES } from '@forecourt/contract/validation';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { badRequest, forbidden, tooManyRequests, unauthorized } from '../../lib/errors.ts';
import { guardAttempt } from '../../lib/sign-in-guard.ts';
import { extractToken } from '../../plugins/auth.ts';
import { verifyPassword, warmUpPasswords } from '../../services/passwords.ts';

const MessagesResultSchema = AuthResultSchema.omit({ token: true });
const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 429: ErrorBodySchema };

/** Reading A (/api/auth/...) and reading B (/api-token-auth/, /auth/...) of sign-in, sign-up and password reset. */
export async function authRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { users } = app.repos;
  const { accounts } = app;
  warmUpPasswords();

  const limits = app.signInLimits;

  const guard = (request: FastifyRequest, reply: FastifyReply, account: string, scope: string) =>
    guardAttempt(limits, request, reply, account, scope);

  /**
   * Checks the limits, then the password; the attempt stays counted against the account (username and email
   * are one: the user id) and the address unless it succeeds (services/sign-in-limits.ts). A disabled account
   * answers exactly as a wrong password does.
   */
  async function signIn(request: FastifyRequest, reply: FastifyReply, login: string, password: string) {
    const user = await users.findByLogin(login);
    const account = user ? `user:${user.id}` : `login:${login.toLowerCase()}`;
    await guard(request, reply, account, 'login');
    const ok = await verifyPassword(user?.passwordHash, password);
    if (!user || !ok || user.disabled) return null;
    await limits.succeeded(account, request.ip, 'login');
    return user;
  }

  /** At most REGISTER_LIMITS.perAddressPerHour registrations from one address an hour, else 429. */
  async function registrationLimit(request: FastifyRequest, reply: FastifyReply) {
    const blockedMs = await limits.registration(request.ip);
    if (blockedMs > 0) {
      reply.header('retry-after', Math.ceil(blockedMs / 1000));
      throw tooManyRequests(REGISTER_TEXTS.tooMany(Math.max(1, Math.ceil(blockedMs / 60_000))));
    }
  }

  const closedRegistration = async () => {
    if (app.config.REGISTRATION === 'closed') throw forbidden(REGISTER_TEXTS.closed);
  };

  async function logout(request: FastifyRequest) {
    const body = request.body as { token?: unknown } | undefined;
    const token =
      extractToken(request, app.config.AUTH_HEADER) ?? (typeof body?.token === 'string' ? body.token : null);
    await accounts.signOut(token);
    return { data: { messages: [AUTH_TEXTS.loggedOut] } };
  }

  /** Every reset request counts like a failed sign-in (per address and email), so mail cannot be sprayed. */
  async function requestPassword(request: FastifyRequest, reply: FastifyReply, email: string) {
    const account = `email:${email.trim().toLowerCase()}`;
    await guard(request, reply, account, 'reset');
    // The answer never depends on the address: the work happens after it, off the request.
    accounts.requestPasswordReset(email);
    return { data: { messages: [AUTH_TEXTS.resetRequested] }, redirect: AUTH_REDIRECTS.resetRequested };
  }

  async function resetPassword(
    request: FastifyRequest,
    reply: FastifyReply,
    body: z.infer<typeof ResetPasswordRequestSchema>,
  ) {
    const password = (body.password ?? body.newPassword)!;
    await guard(request, reply, 'token', 'reset');
    const state = await accounts.resetPassword(body.reset_password_token!, password);
    if (!state.ok) {
      const reason = {
        unknown: RESET_TEXTS.tokenInvalid,
        used: RESET_TEXTS.tokenUsed,
        expired: RESET_TEXTS.tokenExpired,
      };
      throw badRequest(reason[state.reason]);
    }
    await limits.release('token', request.ip, 'reset');
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
    response: {
      200: AuthResultSchema,
      400: ErrorBodySchema,
      403: ErrorBodySchema,
      409: ErrorBodySchema,
      429: ErrorBodySchema,
    },
  };
  const register = async (
    request: FastifyRequest<{ Body: z.infer<typeof RegisterRequestSchema> }>,
    reply: FastifyReply,
  ) => {
    await registrationLimit(request, reply);
    return accounts.register(request.body);
  };
  app.post('/api/auth/register', { schema: registerSchema, preValidation: closedRegistration }, register);

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

  /** A token that checks out, else the 400 (with `non_field_errors`) saying why. */
  async function validToken(token: string) {
    const fail = (message: string) => badRequest(message, { non_field_errors: [message] });
    if (token.split('.').length !== 3) throw fail(MESSAGES.tokenParts);
    const result = await accounts.checkToken(token);
    if (!result.ok) {
      throw fail(
        result.signature ? (result.expired ? SIGNATURE_EXPIRED : TOKEN_DECODE_FAILED) : result.message,
      );
    }
    return result;
  }

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
      await validToken(token);
      return { token };
    },
  );

  // Reading B's refresh (as in djangorestframework-jwt): a valid token buys a new one of the same session, so a
  // wall screen (`?kiosk=1`) stays signed in until its session ends (12 h, or 30 days after remember-me):
  // refreshing never extends a session. The old token stays valid until its own expiry; a revoked, expired or
  // pre-password-change token, or one of a session that was logged out, gets nothing.
  app.post(
    '/api-token-refresh/',
    {
      schema: {
        tags: ['auth'],
        summary:
          'Exchange a valid token for a new one of the same lifetime; the errors of /api-token-verify/',
        body: TokenVerifyRequestSchema,
        response: { 200: TokenResponseSchema, 400: ErrorBodySchema },
      },
    },
    async (request) => {
      const token = request.body.token.trim();
      const result = await validToken(token);
      return { token: accounts.refresh(result.claims, result.principal) };
    },
  );

  app.post('/auth/sign-up', { schema: registerSchema, preValidation: closedRegistration }, register);
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
