import type { Database } from '../db/client.ts';
import type { signInLimits } from '../db/schema/auth.ts';
import type { Row } from './rows.ts';

type Counter = Row<typeof signInLimits, 'key' | 'failures' | 'expires_at'>;

export interface SignInCount {
  failures: number;
  expiresAt: Date;
}

/** The `sign_in_limits` counters (services/sign-in-limits.ts decides what they mean). */
export function createSignInLimitRepository(database: Database) {
  return {
    /** The unexpired counters among `keys`. */
    async counts(keys: string[]): Promise<Map<string, SignInCount>> {
      const rows = await database.query<Counter>(
        'select key, failures, expires_at from sign_in_limits where key = any($1::text[]) and expires_at > now()',
        [keys],
      );
      return new Map(rows.map((r) => [r.key, { failures: r.failures, expiresAt: new Date(r.expires_at) }]));
    },

    /**
     * Counts one attempt against each key in one statement, so concurrent attempts each see their own count
     * (never two the same), in a window of `windowMs` that starts at the key's first attempt. Answers the counts
     * including this attempt.
     */
    async reserve(keys: string[], windowMs: number): Promise<Map<string, SignInCount>> {
      const rows = await database.query<Counter>(
        `insert into sign_in_limits (key, failures, expires_at)
           select k, 1, now() + $2::int * interval '1 millisecond' from unnest($1::text[]) as k
         on conflict (key) do update set
           failures = case when sign_in_limits.expires_at <= now() then 1 else sign_in_limits.failures + 1 end,
           expires_at = case when sign_in_limits.expires_at <= now() then excluded.expires_at
                             else sign_in_limits.expires_at end
         returning key, failures, expires_at`,
        [keys, windowMs],
      );
      return new Map(rows.map((r) => [r.key, { failures: r.failures, expiresAt: new Date(r.expires_at) }]));
    },

    /** Takes back one attempt from each key (it was refused before being tried, or it succeeded). */
    async release(keys: string[]): Promise<void> {
      await database.query(
        `update sign_in_limits set failures = greatest(failures - 1, 0)
          where key = any($1::text[]) and expires_at > now()`,
        [keys],
      );
    },

    /**
     * The next turn in `key`'s queue, `stepMs` after the previous one, unless it is more than `maxWaitMs` away:
     * answers the milliseconds to wait for it, or null (no turn taken). One statement, so concurrent callers
     * each get their own turn. The row's `expires_at` is when the queue is free again.
     */
    async takeTurn(key: string, stepMs: number, maxWaitMs: number): Promise<number | null> {
      const rows = await database.query<{ wait_ms: number | string }>(
        `insert into sign_in_limits (key, failures, expires_at)
           values ($1, 0, now() + $2::int * interval '1 millisecond')
         on conflict (key) do update set
           expires_at = greatest(sign_in_limits.expires_at, now()) + $2::int * interval '1 millisecond'
           where sign_in_limits.expires_at <= now() + $3::int * interval '1 millisecond'
         returning extract(epoch from (expires_at - clock_timestamp())) * 1000 - $2::int as wait_ms`,
        [key, stepMs, maxWaitMs],
      );
      return rows[0] ? Math.max(0, Math.round(Number(rows[0].wait_ms))) : null;
    },

    /** A success: drops `resetKey`, takes the attempt back from `releaseKeys`, (re)marks `knownKey` for `knownMs`. */
    async succeeded(
      resetKey: string,
      releaseKeys: string[],
      knownKey: string,
      knownMs: number,
    ): Promise<void> {
      await database.query(
        `with gone as (delete from sign_in_limits where key = $1),
              back as (update sign_in_limits set failures = greatest(failures - 1, 0)
                        where key = any($4::text[]) and expires_at > now())
         insert into sign_in_limits (key, failures, expires_at)
           values ($2, 0, now() + $3::bigint * interval '1 millisecond')
         on conflict (key) do update set expires_at = excluded.expires_at`,
        [resetKey, knownKey, knownMs, releaseKeys],
      );
    },

    /** Drops every expired row; returns how many went. */
    async prune(): Promise<number> {
      const rows = await database.query<{ n: number }>(
        'with gone as (delete from sign_in_limits where expires_at <= now() returning 1) select count(*)::int as n from gone',
      );
      return rows[0]?.n ?? 0;
    },
  };
}
export type SignInLimitRepository = ReturnType<typeof createSignInLimitRepository>;
