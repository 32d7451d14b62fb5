import { tooManyLoginAttempts } from '@forecourt/contract/auth';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SignInLimits } from '../services/sign-in-limits.ts';
import { tooManyRequests } from './errors.ts';

/**
 * Counts an attempt of `account` from the caller's address (services/sign-in-limits.ts): 429 with
 * Retry-After when it may not try now, else waits out the account's delay before the password is checked.
 */
export async function guardAttempt(
  limits: SignInLimits,
  request: FastifyRequest,
  reply: FastifyReply,
  account: string,
  scope = 'login',
): Promise<void> {
  const verdict = await limits.attempt(account, request.ip, scope);
  if (verdict.blockedMs > 0) {
    reply.header('retry-after', Math.ceil(verdict.blockedMs / 1000));
    throw tooManyRequests(tooManyLoginAttempts(Math.max(1, Math.ceil(verdict.blockedMs / 60_000))));
  }
  if (verdict.delayMs > 0) await new Promise((r) => setTimeout(r, verdict.delayMs));
}
