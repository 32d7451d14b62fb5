import type { ApiKey } from '@forecourt/contract/api-keys';
import type { Database, QueryFn } from '../db/client.ts';
import type { apiKeys } from '../db/schema/auth.ts';
import { iso, num } from './read-scope.ts';
import { type Row, selectList } from './rows.ts';
import type { Tx } from './unit-of-work.ts';

type KeyRow = Row<
  typeof apiKeys,
  'id' | 'user_id' | 'name' | 'prefix' | 'read_only' | 'created_at' | 'last_used_at' | 'expires_at'
>;
const COLUMNS = selectList<typeof apiKeys>('k', [
  'id',
  'user_id',
  'name',
  'prefix',
  'read_only',
  'created_at',
  'last_used_at',
  'expires_at',
]);

/** What a request made with a key needs to know of it. */
export interface ApiKeyGrant {
  id: number;
  userId: number;
  readOnly: boolean;
  createdAt: Date;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
}

const publicKey = (r: KeyRow): ApiKey => ({
  id: num(r.id),
  name: r.name,
  prefix: r.prefix,
  read_only: r.read_only,
  created_at: iso(r.created_at)!,
  last_used_at: iso(r.last_used_at),
  expires_at: iso(r.expires_at),
});

const grantOf = (r: KeyRow): ApiKeyGrant => ({
  id: num(r.id),
  userId: num(r.user_id),
  readOnly: r.read_only,
  createdAt: new Date(r.created_at),
  lastUsedAt: r.last_used_at ? new Date(r.last_used_at) : null,
  expiresAt: r.expires_at ? new Date(r.expires_at) : null,
});

/** The `api_keys` table: a user's keys, found by the sha-256 of their token. */
export function createApiKeyRepository(database: Database) {
  const query: QueryFn = database.query.bind(database);
  return {
    /** The user's keys, newest first, `before` the id of the last one seen. */
    async list(userId: number, o: { limit: number; before?: string }): Promise<ApiKey[]> {
      const rows = await query<KeyRow>(
        `select ${COLUMNS} from api_keys k
          where k.user_id = $1 and ($2::bigint is null or k.id < $2::bigint)
          order by k.id desc limit $3`,
        [userId, o.before ?? null, o.limit],
      );
      return rows.map(publicKey);
    },

    /** The key whose token has this sha-256, expired or not; null when there is none. */
    async byHash(hash: string): Promise<ApiKeyGrant | null> {
      const rows = await query<KeyRow>(`select ${COLUMNS} from api_keys k where k.token_hash = $1`, [hash]);
      return rows[0] ? grantOf(rows[0]) : null;
    },

    async insert(
      tx: Tx,
      key: {
        userId: number;
        name: string;
        prefix: string;
        tokenHash: string;
        readOnly: boolean;
        expiresAt: string | null;
      },
    ): Promise<ApiKey> {
      const rows = await tx<KeyRow>(
        `insert into api_keys as k (user_id, name, prefix, token_hash, read_only, expires_at)
         values ($1, $2, $3, $4, $5, $6::timestamptz)
         returning ${COLUMNS}`,
        [key.userId, key.name, key.prefix, key.tokenHash, key.readOnly, key.expiresAt],
      );
      return publicKey(rows[0]!);
    },

    /** Deletes one of the user's keys; answers it as it was, or null when the user has no key with that id. */
    async remove(tx: Tx, userId: number, id: number): Promise<ApiKey | null> {
      const rows = await tx<KeyRow>(
        `delete from api_keys k where k.id = $1 and k.user_id = $2 returning ${COLUMNS}`,
        [id, userId],
      );
      return rows[0] ? publicKey(rows[0]) : null;
    },

    /**
     * The agent whose audit records what a user does with its keys: its own agent id, else the agent of its first
     * company, else of its first site; null for a user with no role yet.
     */
    async agentOf(tx: Tx, userId: number): Promise<number | null> {
      const rows = await tx<{ agent_id: number | null }>(
        `select coalesce(
                  (select u.agent_id from users u where u.id = $1 and u.agent_id > 0),
                  (select c.agent_id from user_companies uc join companies c on c.id = uc.company_id
                    where uc.user_id = $1 order by uc.company_id limit 1),
                  (select s.agent_id from user_sites us join sites s on s.id = us.site_id
                    where us.user_id = $1 order by us.site_id limit 1)) as agent_id`,
        [userId],
      );
      const agent = rows[0]?.agent_id;
      return agent == null ? null : num(agent);
    },

    /**
     * Records that the key was used at `at`, unless a use less than a minute earlier is already recorded
     * (bookkeeping, outside any unit of work: nothing is audited or sent on the feed for it).
     */
    async touch(id: number, at: Date): Promise<void> {
      await query(
        `update api_keys set last_used_at = $2
          where id = $1 and (last_used_at is null or last_used_at < $2::timestamptz - interval '1 minute')`,
        [id, at],
      );
    },
  };
}
export type ApiKeyRepository = ReturnType<typeof createApiKeyRepository>;
