import type { Database } from '../db/client.ts';
import type { revokedTokens } from '../db/schema/auth.ts';
import type { Row } from './rows.ts';
import { unitOfWork } from './unit-of-work.ts';

/**
 * Revoked token ids, mirrored in memory. Every node keeps its own copy of the table: a revocation made on another
 * node arrives as a 'session' change on the feed, and `reload` reads the table again (plugins/node-sync.ts).
 */
export function createRevokedRepository(database: Database) {
  let loaded: Promise<Set<string>> | null = null;
  /**
   * Revocations made on this node since the last read began, by when they were committed: added to the copy that
   * read brings, which may have begun before they committed.
   */
  const local = new Map<string, number>();
  /** The read under way, if any: reloads asked for meanwhile share one read that starts when it ends. */
  let reading: Promise<Set<string>> | null = null;
  let queued: Promise<Set<string>> | null = null;
  const read = () => {
    const started = Date.now();
    const next = database
      .query<Row<typeof revokedTokens, 'jti'>>('select jti from revoked_tokens where expires_at > now()')
      .then((rows) => {
        const set = new Set(rows.map((r) => r.jti));
        for (const [jti, at] of local) {
          if (at < started) local.delete(jti);
          else set.add(jti);
        }
        return set;
      });
    loaded = next;
    reading = next;
    // A failed read (database down) is tried again on the next call, not remembered.
    next.then(
      () => {
        if (reading === next) reading = null;
      },
      () => {
        if (reading === next) reading = null;
        if (loaded === next) loaded = null;
      },
    );
    return next;
  };
  /**
   * A read that begins after this call: at once, or when the read under way ends (a burst of sign-outs costs
   * two reads, not one each).
   */
  const readAgain = () => {
    if (!reading) return read();
    if (!queued) {
      const after = reading
        .catch(() => null)
        .then(() => {
          queued = null;
          return read();
        });
      queued = after;
      loaded = after;
      after.catch(() => {
        if (loaded === after) loaded = null;
      });
    }
    return queued;
  };
  const ensure = () => loaded ?? read();
  return {
    async isRevoked(jti: string): Promise<boolean> {
      return (await ensure()).has(jti);
    },
    /**
     * Revokes token ids (a token's jti, or a session id: sign-out, password change) with a 'session' change
     * naming their user, in one transaction: every node reads the revoked tokens again and ends the user's
     * streams whose token stopped working. Each id is kept until `expiresAt`.
     */
    async revoke(ids: { id: string; expiresAt: Date }[], userId: number | null = null): Promise<void> {
      await unitOfWork(database, async (q) => {
        const rows = await q(
          `insert into revoked_tokens (jti, expires_at)
             select * from unnest($1::text[], $2::timestamptz[])
           on conflict (jti) do nothing returning jti`,
          [ids.map((e) => e.id), ids.map((e) => e.expiresAt.toISOString())],
        );
        if (rows.length) await q.changed([{ kind: 'session', userId }]);
      });
      const now = Date.now();
      const set = await ensure();
      for (const { id } of ids) {
        local.set(id, now);
        set.add(id);
      }
      await database.query('delete from revoked_tokens where expires_at < now()');
    },
    /**
     * Reads the table again (a token was revoked on some node): calls from now on wait for the new copy. Nothing
     * is read until someone asks when no copy was loaded yet.
     */
    reload(): void {
      if (loaded) void readAgain().catch(() => {});
    },
  };
}
export type RevokedRepository = ReturnType<typeof createRevokedRepository>;
