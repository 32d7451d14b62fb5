import type { Database } from '../db/client.ts';
import type { sharedSettings } from '../db/schema/changes.ts';
import type { Row } from './rows.ts';

/** Settings every node shares, by name (table shared_settings): the signing secret when JWT_SECRET is unset. */
export function createSharedSettingsRepository(database: Pick<Database, 'query'>) {
  const read = async (name: string) =>
    (
      await database.query<Row<typeof sharedSettings, 'value'>>(
        'select value from shared_settings where name = $1',
        [name],
      )
    )[0]?.value ?? null;
  return {
    get: read,
    /**
     * Stores `value` under `name` unless some node stored one first, and answers the stored one: nodes that start
     * at the same moment agree.
     */
    async claim(name: string, value: string): Promise<string> {
      await database.query(
        'insert into shared_settings (name, value) values ($1, $2) on conflict (name) do nothing',
        [name, value],
      );
      const stored = await read(name);
      if (stored === null) throw new Error(`shared setting ${name} could not be stored`);
      return stored;
    },
  };
}
export type SharedSettingsRepository = ReturnType<typeof createSharedSettingsRepository>;

/**
 * The leader lock (services/leader.ts): a session-level advisory lock on a connection of its own (PGlite: always
 * granted). Null when another node holds it.
 */
export function createLeaderLockRepository(database: Pick<Database, 'sessionLock'>) {
  return {
    take: (key: number) => database.sessionLock(key),
  };
}
export type LeaderLockRepository = ReturnType<typeof createLeaderLockRepository>;
