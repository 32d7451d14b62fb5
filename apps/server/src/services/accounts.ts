import { createHash, randomBytes } from 'node:crypto';
import {
  AUTH_REDIRECTS,
  AUTH_TEXTS,
  REGISTER_TEXTS,
  RESET_TOKEN_TTL_S,
  type RegisterRequestSchema,
} from '@forecourt/contract/auth';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { Env } from '../config/env.ts';
import { conflict, unauthorized } from '../lib/errors.ts';
import type { Repositories } from '../repositories/index.ts';
import type { Principal } from '../repositories/principal-repository.ts';
import { isUniqueViolation, type UserRow } from '../repositories/user-repository.ts';
import { createMailer } from './mailer.ts';
import { hashPassword } from './passwords.ts';
import { isRememberMe, sessionOf, type TokenClaims, type TokenService } from './tokens.ts';

/** The answer to every token of a disabled user, and to its sign-in. */
export const ACCOUNT_DISABLED = 'This account has been disabled.';

/** Reset mails per user per hour; further requests get the same answer and send nothing. */
const RESET_MAILS_PER_HOUR = 5;

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/** Username from an email's local part: lower case, letters, digits and . _ -, at least 3 characters. */
function usernameBase(email: string): string {
  const local = email
    .split('@')[0]
    .toLowerCase()
    .replace(/[^a-z0-9._-]/g, '')
    .slice(0, 30);
  return local.length >= 3 ? local : `${local}user`;
}

export type TokenCheck =
  | { ok: true; claims: TokenClaims; principal: Principal }
  /** `signature`: the token itself is bad (tampered, expired); else it is sound but no longer honoured. */
  | { ok: false; signature: boolean; expired: boolean; message: string };

export type ResetResult = { ok: true } | { ok: false; reason: 'unknown' | 'used' | 'expired' };

export interface AccountServiceOptions {
  repos: Repositories;
  tokens: TokenService;
  config: Pick<Env, 'SMTP_URL' | 'MAIL_FROM' | 'PUBLIC_URL' | 'PORT'>;
  log: FastifyBaseLogger;
}

/**
 * Accounts: registration, the token check every authenticated request and /api-token-verify/ share, sign-out,
 * reset links (mailed over SMTP, else logged) and password changes. Limits on sign-in and reset attempts stay with
 * the routes (services/sign-in-limits.ts).
 */
export function createAccountService(opts: AccountServiceOptions) {
  const { users, revoked, principals } = opts.repos;
  const { tokens, log } = opts;
  const mailer = createMailer({ smtpUrl: opts.config.SMTP_URL, from: opts.config.MAIL_FROM, log });
  const publicUrl = (opts.config.PUBLIC_URL ?? `http://localhost:${opts.config.PORT}`).replace(/\/+$/, '');

  const background = new Set<Promise<void>>();
  const inBackground = (work: () => Promise<void>) => {
    const p = work()
      .catch((err) => log.error({ err }, 'password reset request failed'))
      .finally(() => background.delete(p));
    background.add(p);
  };

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

  return {
    /** A signed, unrevoked token of an existing user, issued after the user's last password change. */
    async checkToken(token: string): Promise<TokenCheck> {
      const result = tokens.verify(token);
      if (!result.ok) return { ...result, signature: true };
      const refused = (message: string) =>
        ({ ok: false, signature: false, expired: false, message }) as const;
      const { claims } = result;
      if ((await revoked.isRevoked(claims.jti)) || (claims.sid && (await revoked.isRevoked(claims.sid)))) {
        return refused('Token has been revoked.');
      }
      const principal = await principals.load(Number(claims.sub));
      if (!principal) return refused('User not found.');
      if (principal.disabled) return refused(ACCOUNT_DISABLED);
      if (principal.tokensValidAfter && sessionOf(claims).startedAt < principal.tokensValidAfter.getTime()) {
        return refused(ACCOUNT_DISABLED);
      }
      if (result.claims.iat * 1000 < principal.passwordChangedAt.getTime() - 1000) {
        return refused('Token was issued before the last password change.');
      }
      return { ok: true, claims: result.claims, principal };
    },

    /** Creates the account (a username from the email when none is given) and signs it in. */
    async register(body: z.infer<typeof RegisterRequestSchema>) {
      const email = body.email;
      // One namespace: neither may be any account's username or email.
      if (await users.loginNameTaken(email)) throw conflict(REGISTER_TEXTS.emailTaken);
      if (body.username && (await users.loginNameTaken(body.username)))
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
      const { token } = tokens.sign(user, true);
      return { token, redirect: AUTH_REDIRECTS.registered, data: { messages: [AUTH_TEXTS.registered] } };
    },

    /**
     * Ends a valid token's session: the token and its session id are revoked until they would have expired, so
     * every token refreshed from the same sign-in stops working too. Anything else is ignored.
     */
    async signOut(token: string | null): Promise<void> {
      const result = token ? tokens.verify(token) : null;
      if (result?.ok) {
        const { claims } = result;
        const session = sessionOf(claims);
        await revoked.revoke(
          [
            { id: claims.jti, expiresAt: new Date(claims.exp * 1000) },
            ...(claims.sid ? [{ id: session.id, expiresAt: new Date(session.endsAt * 1000) }] : []),
          ],
          Number(claims.sub),
        );
      }
    },

    /** A new token of the same session (the caller checked `claims`): it never outlives the session. */
    refresh(claims: TokenClaims, principal: Principal): string {
      return tokens.sign(
        { id: principal.userId, username: principal.username },
        isRememberMe(claims),
        sessionOf(claims),
      ).token;
    },

    /**
     * Sends a reset link to the address if it belongs to a user (at most RESET_MAILS_PER_HOUR an hour). The work
     * happens after the answer, off the request, so the answer never depends on the address.
     */
    requestPasswordReset(email: string): void {
      inBackground(async () => {
        const issued = await issueResetLink(email);
        if (!issued) return;
        const { user, link } = issued;
        if (!mailer.delivers) {
          log.info({ userId: user.id }, `Password reset link for ${user.email}: ${link}`);
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
        log.info({ userId: user.id }, 'password reset mail sent');
      });
    },

    /** The password hash of a user who has not chosen a password yet: a secret nobody knows. */
    unusablePasswordHash(): Promise<string> {
      return hashPassword(randomBytes(32).toString('base64url'));
    },

    /**
     * A user created by an agent chooses its password through the reset flow: the link goes out by mail over SMTP
     * when configured, else it is logged. Runs after the answer, like a reset request.
     */
    inviteUser(email: string, invitedBy: string): void {
      inBackground(async () => {
        const issued = await issueResetLink(email);
        if (!issued) return;
        const { user, link } = issued;
        if (!mailer.delivers) {
          log.info({ userId: user.id }, `Set-password link for ${user.email}: ${link}`);
          return;
        }
        await mailer.send({
          to: user.email,
          subject: 'Your Forecourt account',
          text:
            `Hello ${user.name || user.username},\n\n` +
            `${invitedBy} created a Forecourt account for you. Your username is "${user.username}".\n` +
            `Open this link within ${RESET_TOKEN_TTL_S / 60} minutes to choose your password:\n\n${link}\n\n` +
            'When the link has expired, ask for a new one with "Forgot password" on the sign-in screen.\n',
        });
        log.info({ userId: user.id }, 'set-password mail sent');
      });
    },

    /** Sets a new password with the token of a reset link (usable once, before it expires). */
    async resetPassword(resetToken: string, password: string): Promise<ResetResult> {
      const state = await users.consumeResetToken(sha256(resetToken));
      if (!state.ok) return state;
      await users.setPassword(state.userId, await hashPassword(password));
      principals.forget(state.userId);
      return { ok: true };
    },

    /**
     * Changes the signed-in user's password (the caller checked the current one), retires the token used and
     * answers a fresh one of a new session of the same kind (remember-me or not); older tokens stop working.
     */
    async changePassword(claims: TokenClaims, password: string) {
      const userId = Number(claims.sub);
      const user = await users.findById(userId);
      if (!user) throw unauthorized('User not found.');
      await users.setPassword(userId, await hashPassword(password));
      principals.forget(userId);
      await revoked.revoke([{ id: claims.jti, expiresAt: new Date(claims.exp * 1000) }], userId);
      return tokens.sign(user, isRememberMe(claims)).token;
    },

    /** Waits for reset mails under way, then closes the mailer. */
    async close(): Promise<void> {
      await Promise.allSettled([...background]);
      mailer.close();
    },
  };
}
export type AccountService = ReturnType<typeof createAccountService>;
