import type { Database } from '../db/client.ts';

/** Revoked token ids, mirrored in memory (one server process owns the data). */
export function createRevokedRepository(database: Database) {
  let loaded: Promise<Set<string>> | null = null;
  const ensure = () => {
    loaded ??= database
      .query<{ jti: string }>('select jti from revoked_tokens where expires_at > now()')
      .then((rows) => new Set(rows.map((r) => r.jti)));
    // A failed load (database down) is tried again on the next call, not remembered.
    loaded.catch(() => {
      loaded = null;
    });
    return loaded;
  };
  return {
    async isRevoked(jti: string): Promise<boolean> {
      return (await ensure()).has(jti);
    },
    async revoke(jti: string, expiresAt: Date): Promise<void> {
      await database.query(
        'insert into revoked_tokens (jti, expires_at) values ($1, $2) on conflict (jti) do nothing',
        [jti, expiresAt],
      );
      (await ensure()).add(jti);
      await database.query('delete from revoked_tokens where expires_at < now()');
    },
  };
}
export type RevokedRepository = ReturnType<typeof createRevokedRepository>;
