import { AUTH_TEXTS, AuthResultSchema } from '@forecourt/contract/auth';
import { ErrorBodySchema, ListQuerySchema } from '@forecourt/contract/common';
import {
  AVATAR_DATA_URL,
  AVATAR_TEXTS,
  ChangePasswordSchema,
  CURRENT_PASSWORD_FIELD,
  CurrentUserSchema,
  currentPasswordOf,
  PROFILE_TEXTS,
  UpdateProfileSchema,
  UserSitesResponseSchema,
} from '@forecourt/contract/users';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { badRequest, conflict, notFound, unauthorized } from '../../lib/errors.ts';
import { guardAttempt } from '../../lib/sign-in-guard.ts';
import { parseId } from '../../plugins/scope.ts';
import type { UserProfile } from '../../repositories/user-repository.ts';
import { verifyPassword } from '../../services/passwords.ts';

const SIGNATURES: Record<string, (b: Buffer) => boolean> = {
  png: (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  jpeg: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  gif: (b) => b.subarray(0, 4).toString('latin1') === 'GIF8',
  webp: (b) =>
    b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
};

/** A data URL whose bytes really are the image type it names. */
function isRealImage(dataUrl: string): boolean {
  const m = AVATAR_DATA_URL.exec(dataUrl);
  return Boolean(m && SIGNATURES[m[1]]?.(Buffer.from(m[2], 'base64')));
}

const toCurrentUser = (p: UserProfile) => ({
  id: p.id,
  username: p.username,
  name: p.name,
  email: p.email,
  avatar: p.avatar,
  picture: p.picture,
  agent: p.agentId,
  companies: p.companies,
  sites: p.sites,
});

const auth = { security: [{ jwt: [] }], tags: ['user'] };
const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema };

/** The signed-in user: profile, password, the sites it reaches. */
export async function userRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { users, principals } = app.repos;

  /**
   * The caller's password now, checked as a sign-in is (services/sign-in-limits.ts): missing → 400 naming
   * current_password, wrong → 400 and counted as a failed sign-in of the account, too many → 429.
   */
  async function checkCurrentPassword(
    request: FastifyRequest,
    reply: FastifyReply,
    given: string | undefined,
  ) {
    if (!given) throw badRequest(`${CURRENT_PASSWORD_FIELD}: ${PROFILE_TEXTS.currentPasswordRequired}`);
    const user = await users.findById(request.principal!.userId);
    if (!user) throw unauthorized('User not found.');
    const account = `user:${user.id}`;
    await guardAttempt(app.signInLimits, request, reply, account);
    if (!(await verifyPassword(user.passwordHash, given))) throw badRequest(PROFILE_TEXTS.oldPasswordWrong);
    await app.signInLimits.succeeded(account, request.ip);
  }

  const profileOf = async (userId: number) => {
    const profile = await users.profile(userId);
    if (!profile) throw unauthorized('User not found.');
    return toCurrentUser(profile);
  };

  app.get(
    '/api/user/',
    {
      onRequest: app.authenticate,
      schema: {
        ...auth,
        summary: 'The current user',
        response: { 200: CurrentUserSchema, 401: ErrorBodySchema },
      },
    },
    (request) => profileOf(request.principal!.userId),
  );

  app.post(
    '/api/user/update/',
    {
      onRequest: [app.authenticate, app.signedInOnly('change the profile')],
      schema: {
        ...auth,
        summary: 'Change name, email or avatar; answers the updated user',
        body: UpdateProfileSchema,
        response: { 200: CurrentUserSchema, ...errors, 409: ErrorBodySchema, 429: ErrorBodySchema },
      },
    },
    async (request, reply) => {
      const userId = request.principal!.userId;
      const { name, fullName, email, avatar } = request.body;
      if (avatar?.startsWith('data:') && !isRealImage(avatar)) throw badRequest(AVATAR_TEXTS.invalid);
      // One namespace: the email may be no other account's email nor username.
      if (email !== undefined && (await users.loginNameTaken(email, userId)))
        throw conflict(PROFILE_TEXTS.emailTaken);
      if (email !== undefined) {
        const user = await users.findById(userId);
        if (user && user.email.toLowerCase() !== email.toLowerCase()) {
          await checkCurrentPassword(request, reply, request.body.current_password);
        }
      }
      try {
        await users.updateProfile(userId, {
          name: fullName ?? name,
          email,
          avatar: avatar === undefined ? undefined : avatar || null,
        });
      } catch (err) {
        if ((err as { code?: string }).code === '23505') throw conflict(PROFILE_TEXTS.emailTaken);
        throw err;
      }
      principals.forget(userId);
      return profileOf(userId);
    },
  );

  app.post(
    '/api/user/change/password/',
    {
      onRequest: [app.authenticate, app.signedInOnly('change the password')],
      schema: {
        ...auth,
        summary: 'Change the password; answers a fresh token (older tokens stop working)',
        body: ChangePasswordSchema,
        response: { 200: AuthResultSchema, ...errors, 429: ErrorBodySchema },
      },
    },
    async (request, reply) => {
      await checkCurrentPassword(request, reply, currentPasswordOf(request.body));
      const token = await app.accounts.changePassword(request.claims!, request.body.password);
      return { token, data: { messages: [AUTH_TEXTS.passwordChanged] } };
    },
  );

  app.get(
    '/api/user/sites/',
    {
      onRequest: app.authenticate,
      schema: {
        ...auth,
        summary: "Every site the user reaches (an agent's, its companies', its own), by id",
        querystring: ListQuerySchema,
        response: { 200: UserSitesResponseSchema, ...errors },
      },
    },
    (request) => users.reachableSites(request.principal!, request.query.limit_to),
  );

  app.get(
    '/api/user/avatar/:id/',
    {
      schema: {
        tags: ['user'],
        summary: 'An uploaded avatar image (public, so an <img> can load it)',
        params: z.object({ id: z.string() }),
      },
    },
    async (request, reply) => {
      const id = parseId(request.params.id);
      const image = id === null ? null : await users.avatarImage(id);
      if (!image) throw notFound('No avatar.');
      if (request.headers['if-none-match'] === image.etag) return reply.status(304).send();
      return reply
        .header('content-type', image.contentType)
        .header('etag', image.etag)
        .header('cache-control', 'public, max-age=86400')
        .send(image.data);
    },
  );
}
