import type { Database } from '../db/client.ts';
import type { idempotencyKeys } from '../db/schema/idempotency.ts';
import type { Row } from './rows.ts';

/** How long a key's first answer is kept (and replayed). */
export const IDEMPOTENCY_TTL_HOURS = 24;
/** A first request still unanswered after this long is taken as lost (its node died): a retry may take over. */
const ABANDONED_AFTER_S = 60;

export type Reservation =
  /** The key is this request's: handle it, then `complete` (or `release`). */
  | { kind: 'reserved' }
  /** The key already has an answer for this same request. */
  | { kind: 'replay'; status: number; body: string }
  /** The key was used for a different request. */
  | { kind: 'mismatch' }
  /** The first request with this key is still being handled. */
  | { kind: 'busy' };

/** The first answer to each user's Idempotency-Key, in the database so every node sees it. */
export function createIdempotencyRepository(database: Database) {
  return {
    /**
     * Claims the key for a request in one statement (so two nodes never both claim it). A key older than the TTL
     * starts over; an unanswered claim older than a minute, for the same request, is taken over.
     */
    async reserve(userId: number, key: string, fingerprint: string): Promise<Reservation> {
      const claimed = await database.query(
        `insert into idempotency_keys (user_id, key, fingerprint) values ($1, $2, $3)
         on conflict (user_id, key) do update
           set fingerprint = excluded.fingerprint, status = null, body = null, created_at = now()
         where idempotency_keys.created_at < now() - make_interval(hours => $4)
            or (idempotency_keys.status is null and idempotency_keys.fingerprint = excluded.fingerprint
                and idempotency_keys.created_at < now() - make_interval(secs => $5))
         returning 1`,
        [userId, key, fingerprint, IDEMPOTENCY_TTL_HOURS, ABANDONED_AFTER_S],
      );
      if (claimed.length) return { kind: 'reserved' };
      const rows = await database.query<Row<typeof idempotencyKeys, 'fingerprint' | 'status' | 'body'>>(
        'select fingerprint, status, body from idempotency_keys where user_id = $1 and key = $2',
        [userId, key],
      );
      const row = rows[0];
      // Pruned between the two statements: claim it again.
      if (!row) return this.reserve(userId, key, fingerprint);
      if (row.fingerprint !== fingerprint) return { kind: 'mismatch' };
      if (row.status === null) return { kind: 'busy' };
      return { kind: 'replay', status: row.status, body: row.body ?? '' };
    },

    /** Stores the answer of a claimed key. */
    async complete(userId: number, key: string, status: number, body: string): Promise<void> {
      await database.query(
        'update idempotency_keys set status = $3, body = $4 where user_id = $1 and key = $2',
        [userId, key, status, body],
      );
    },

    /** Gives a claimed key up (the request failed on the server's side): a retry runs it again. */
    async release(userId: number, key: string): Promise<void> {
      await database.query(
        'delete from idempotency_keys where user_id = $1 and key = $2 and status is null',
        [userId, key],
      );
    },

    /** Deletes keys older than the TTL; answers how many. */
    async prune(): Promise<number> {
      const rows = await database.query(
        `delete from idempotency_keys where created_at < now() - make_interval(hours => $1) returning 1`,
        [IDEMPOTENCY_TTL_HOURS],
      );
      return rows.length;
    },
  };
}
export type IdempotencyRepository = ReturnType<typeof createIdempotencyRepository>;
