import { LOGIN_LIMITS, REGISTER_LIMITS } from '@forecourt/contract/auth';
import type { SignInLimitRepository } from '../repositories/sign-in-limit-repository.ts';

/**
 * Sign-in limiting (docs/deploying.md, OWASP ASVS 4.0 V2.2.1: anti-automation without a lockout), kept in
 * the `sign_in_limits` table so a restart keeps it and every node shares it. Each attempt is counted before
 * the password is checked, in one statement (so concurrent guesses each see their own count and none slips
 * past a limit), and taken back when it succeeds or is refused; what stays counted are failures (and
 * attempts under way). Nothing a stranger does can keep the real user out where it signed in before:
 *
 * - a known pair — (account, address) that signed in successfully before — is never refused; it only waits
 *   the account's delay;
 * - per (account, address): more than `pairFailures` in the window → 429 for that pair;
 * - per address: more than `addressFailures` (any accounts) → 429 for that address;
 * - per account, from every address (sign-in only): more than `accountFailures` → each further attempt takes
 *   a turn in the account's queue, the turns `accountStepMs(n)` apart (growing); one further away than
 *   `maxDelayMs` is refused with 429, so concurrency buys an attacker nothing;
 * - per account: a growing delay (held before the answer, whatever the outcome) once it has more than
 *   `freeFailures` failures in the window.
 *
 * An account is the user id (username and email are one account); a login that names no user is keyed by
 * the login string, so probing unknown names costs the same.
 */
export interface SignInLimitOptions {
  pairFailures?: number;
  addressFailures?: number;
  /** Failures of one account, from all addresses, before its attempts from unknown pairs queue. */
  accountFailures?: number;
  windowMs?: number;
  /** Account failures allowed before the delay starts. */
  freeFailures?: number;
  /** First delay, doubled for each further failure, up to maxDelayMs (also the longest wait for a turn). */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** How long a successful (account, address) pair is remembered. */
  knownPairMs?: number;
  /** Registrations per address per hour. */
  registrationsPerHour?: number;
}

export interface SignInVerdict {
  /** Refused: milliseconds until this (account, address) or address may try again. */
  blockedMs: number;
  /** Allowed, after this many milliseconds of delay. */
  delayMs: number;
}

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
/** The longest gap between two turns of an account under attack. */
const MAX_TURN_STEP_MS = 60_000;

/** Delay before answering an account with `failures` recent failures. */
export function accountDelayMs(
  failures: number,
  opts: { freeFailures: number; baseDelayMs: number; maxDelayMs: number },
): number {
  if (failures <= opts.freeFailures) return 0;
  const steps = Math.min(failures - opts.freeFailures - 1, 20);
  return Math.min(opts.baseDelayMs * 2 ** steps, opts.maxDelayMs);
}

/** Gap after the `over`-th attempt past an account's limit: four base delays, doubling, up to a minute. */
export function accountStepMs(over: number, baseDelayMs: number): number {
  return Math.min(baseDelayMs * 4 * 2 ** Math.min(Math.max(over - 1, 0), 20), MAX_TURN_STEP_MS);
}

export function createSignInLimits(repository: SignInLimitRepository, options: SignInLimitOptions = {}) {
  const o = {
    pairFailures: options.pairFailures ?? LOGIN_LIMITS.perUsername,
    addressFailures: options.addressFailures ?? LOGIN_LIMITS.perAddress,
    accountFailures: options.accountFailures ?? LOGIN_LIMITS.perAccount,
    windowMs: options.windowMs ?? LOGIN_LIMITS.windowMinutes * 60_000,
    freeFailures: options.freeFailures ?? 3,
    baseDelayMs: options.baseDelayMs ?? 250,
    maxDelayMs: options.maxDelayMs ?? 2_000,
    knownPairMs: options.knownPairMs ?? 30 * DAY_MS,
    registrationsPerHour: options.registrationsPerHour ?? REGISTER_LIMITS.perAddressPerHour,
  };
  const keys = (scope: string, account: string, address: string) => ({
    pair: `${scope}:pair:${account}|${address}`,
    known: `${scope}:known:${account}|${address}`,
    account: `${scope}:account:${account}`,
    turn: `${scope}:turn:${account}`,
    address: `${scope}:address:${address}`,
  });

  const remaining = (entry: { expiresAt: Date } | undefined) =>
    entry ? Math.max(1000, entry.expiresAt.getTime() - Date.now()) : 0;

  return {
    options: o,

    /**
     * Counts an attempt of `account` from `address` and says whether it may go on now, and after what delay.
     * A refused attempt is not counted. `scope` separates sign-in kinds; only 'login' queues an account.
     */
    async attempt(account: string, address: string, scope = 'login'): Promise<SignInVerdict> {
      const k = keys(scope, account, address);
      const counted = [k.pair, k.account, k.address];
      const [counts, known] = await Promise.all([
        repository.reserve(counted, o.windowMs),
        repository.counts([k.known]),
      ]);
      const n = (key: string) => counts.get(key)?.failures ?? 0;
      const delayMs = accountDelayMs(n(k.account) - 1, o);
      if (known.has(k.known)) return { blockedMs: 0, delayMs };
      const refuse = async (blockedMs: number) => {
        await repository.release(counted);
        return { blockedMs, delayMs: 0 };
      };
      if (n(k.pair) > o.pairFailures) return refuse(remaining(counts.get(k.pair)));
      if (n(k.address) > o.addressFailures) return refuse(remaining(counts.get(k.address)));
      if (scope === 'login' && n(k.account) > o.accountFailures) {
        const step = accountStepMs(n(k.account) - o.accountFailures, o.baseDelayMs);
        const wait = await repository.takeTurn(k.turn, step, o.maxDelayMs);
        if (wait === null) {
          const turn = (await repository.counts([k.turn])).get(k.turn);
          return refuse(Math.max(1000, remaining(turn) - o.maxDelayMs));
        }
        return { blockedMs: 0, delayMs: Math.max(wait, delayMs) };
      }
      return { blockedMs: 0, delayMs };
    },

    /** A success: the attempt is taken back, the pair starts again from zero and is remembered as known. */
    async succeeded(account: string, address: string, scope = 'login'): Promise<void> {
      const k = keys(scope, account, address);
      await repository.succeeded(k.pair, [k.account, k.address], k.known, o.knownPairMs);
    },

    /** Takes an attempt back without remembering the pair (a reset link that worked). */
    async release(account: string, address: string, scope = 'login'): Promise<void> {
      const k = keys(scope, account, address);
      await repository.release([k.pair, k.account, k.address]);
    },

    /**
     * Counts a registration from `address`: answers 0 when it may go on, else the milliseconds until the
     * address may register again (at most `registrationsPerHour` an hour; a refused one is not counted).
     */
    async registration(address: string): Promise<number> {
      const key = `register:address:${address}`;
      const counts = await repository.reserve([key], HOUR_MS);
      const entry = counts.get(key);
      if ((entry?.failures ?? 0) <= o.registrationsPerHour) return 0;
      await repository.release([key]);
      return remaining(entry);
    },

    /** Drops every expired row; returns how many went. */
    prune: (): Promise<number> => repository.prune(),
  };
}
export type SignInLimits = ReturnType<typeof createSignInLimits>;
