import type { Database } from '../db/client.ts';

export interface SignInCount {
  failures: number;
  expiresAt: Date;
}

/** The `sign_in_limits` counters (services/sign-in-limits.ts decides what they mean). */
export function createSignInLimitRepository(database: Database) {
  return {
    /** The unexpired counters among `keys`. */
    async counts(keys: string[]): Promise<Map<string, SignInCount>> {
      const rows = await database.query<{ key: string; failures: number; expires_at: Date | string }>(
        'select key, failures, expires_at from sign_in_limits where key = any($1::text[]) and expires_at > now()',
        [keys],
      );
      return new Map(rows.map((r) => [r.key, { failures: r.failures, expiresAt: new Date(r.expires_at) }]));
    },

    /** Adds one failure to each key, in a window of `windowMs` that starts at its first failure. */
    async addFailure(keys: string[], windowMs: number): Promise<void> {
      await database.query(
        `insert into sign_in_limits (key, failures, expires_at)
           select k, 1, now() + $2::int * interval '1 millisecond' from unnest($1::text[]) as k
         on conflict (key) do update set
           failures = case when sign_in_limits.expires_at <= now() then 1 else sign_in_limits.failures + 1 end,
           expires_at = case when sign_in_limits.expires_at <= now() then excluded.expires_at
                             else sign_in_limits.expires_at end`,
        [keys, windowMs],
      );
    },

    /** Drops `resetKey` and (re)marks `knownKey` for `knownMs`. */
    async resetAndRemember(resetKey: string, knownKey: string, knownMs: number): Promise<void> {
      await database.query(
        `with gone as (delete from sign_in_limits where key = $1)
         insert into sign_in_limits (key, failures, expires_at)
           values ($2, 0, now() + $3::bigint * interval '1 millisecond')
         on conflict (key) do update set expires_at = excluded.expires_at`,
        [resetKey, knownKey, knownMs],
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
