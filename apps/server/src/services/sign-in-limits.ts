import { LOGIN_LIMITS } from '@forecourt/contract/auth';
import type { SignInLimitRepository } from '../repositories/sign-in-limit-repository.ts';

/**
 * Sign-in limiting (docs/deploying.md, OWASP ASVS 4.0 V2.2.1: anti-automation without a lockout), kept in
 * the `sign_in_limits` table so a restart keeps it and every node shares it. Only failures count, never
 * attempts, and nothing a stranger does can keep the real user out:
 *
 * - per (account, address): `pairFailures` failures in the window → 429 for that pair only; a success
 *   resets the pair and remembers it as a known pair;
 * - per address: `addressFailures` failures (any accounts) in the window → 429 for that address, except for
 *   pairs that signed in successfully before (operators behind one address keep signing in);
 * - per account: a growing delay (held before the answer, whatever the outcome) once an account has more
 *   than `freeFailures` failures in the window, from anywhere; a delay, not a refusal.
 *
 * An account is the user id (username and email are one account); a login that names no user is keyed by
 * the login string, so probing unknown names costs the same.
 */
export interface SignInLimitOptions {
  pairFailures?: number;
  addressFailures?: number;
  windowMs?: number;
  /** Account failures allowed before the delay starts. */
  freeFailures?: number;
  /** First delay, doubled for each further failure, up to maxDelayMs. */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** How long a successful (account, address) pair is remembered. */
  knownPairMs?: number;
}

export interface SignInVerdict {
  /** Refused: milliseconds until this (account, address) or address may try again. */
  blockedMs: number;
  /** Allowed, after this many milliseconds of delay. */
  delayMs: number;
}

const DAY_MS = 86_400_000;

/** Delay before answering an account with `failures` recent failures. */
export function accountDelayMs(
  failures: number,
  opts: { freeFailures: number; baseDelayMs: number; maxDelayMs: number },
): number {
  if (failures <= opts.freeFailures) return 0;
  const steps = Math.min(failures - opts.freeFailures - 1, 20);
  return Math.min(opts.baseDelayMs * 2 ** steps, opts.maxDelayMs);
}

export function createSignInLimits(repository: SignInLimitRepository, options: SignInLimitOptions = {}) {
  const o = {
    pairFailures: options.pairFailures ?? LOGIN_LIMITS.perUsername,
    addressFailures: options.addressFailures ?? LOGIN_LIMITS.perAddress,
    windowMs: options.windowMs ?? LOGIN_LIMITS.windowMinutes * 60_000,
    freeFailures: options.freeFailures ?? 3,
    baseDelayMs: options.baseDelayMs ?? 250,
    maxDelayMs: options.maxDelayMs ?? 2_000,
    knownPairMs: options.knownPairMs ?? 30 * DAY_MS,
  };
  const keys = (scope: string, account: string, address: string) => ({
    pair: `${scope}:pair:${account}|${address}`,
    known: `${scope}:known:${account}|${address}`,
    account: `${scope}:account:${account}`,
    address: `${scope}:address:${address}`,
  });

  const remaining = (entry: { expiresAt: Date } | undefined) =>
    entry ? Math.max(1000, entry.expiresAt.getTime() - Date.now()) : 0;

  return {
    options: o,

    /** Whether `account` may try from `address` now, and after what delay. `scope` separates sign-in kinds. */
    async check(account: string, address: string, scope = 'login'): Promise<SignInVerdict> {
      const k = keys(scope, account, address);
      const found = await repository.counts([k.pair, k.known, k.account, k.address]);
      const pair = found.get(k.pair);
      if (pair && pair.failures >= o.pairFailures) return { blockedMs: remaining(pair), delayMs: 0 };
      const byAddress = found.get(k.address);
      if (byAddress && byAddress.failures >= o.addressFailures && !found.has(k.known)) {
        return { blockedMs: remaining(byAddress), delayMs: 0 };
      }
      return { blockedMs: 0, delayMs: accountDelayMs(found.get(k.account)?.failures ?? 0, o) };
    },

    async failed(account: string, address: string, scope = 'login'): Promise<void> {
      const k = keys(scope, account, address);
      await repository.addFailure([k.pair, k.account, k.address], o.windowMs);
    },

    /** A success: the pair starts again from zero and is remembered as known. */
    async succeeded(account: string, address: string, scope = 'login'): Promise<void> {
      const k = keys(scope, account, address);
      await repository.resetAndRemember(k.pair, k.known, o.knownPairMs);
    },

    /** Drops every expired row; returns how many went. */
    prune: (): Promise<number> => repository.prune(),
  };
}
export type SignInLimits = ReturnType<typeof createSignInLimits>;
