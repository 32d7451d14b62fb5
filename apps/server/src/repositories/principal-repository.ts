import type { Database } from '../db/client.ts';
import type { users } from '../db/schema/org.ts';
import type { Row } from './rows.ts';

/** Who is calling and what they reach: an agent id, company ids, site ids. */
export interface Principal {
  userId: number;
  username: string;
  name: string;
  agentId: number | null;
  companyIds: number[];
  siteIds: number[];
  passwordChangedAt: Date;
  /** Disabled by an agent: every token of the user is refused. */
  disabled: boolean;
  /** Tokens of sessions begun before this are refused (set when the user was last disabled). */
  tokensValidAfter: Date | null;
}

const CACHE_MS = 10_000;

export function createPrincipalRepository(database: Database) {
  const cache = new Map<number, { at: number; value: Principal | null }>();
  return {
    async load(userId: number): Promise<Principal | null> {
      const hit = cache.get(userId);
      if (hit && Date.now() - hit.at < CACHE_MS) return hit.value;
      const rows = await database.query<
        Row<
          typeof users,
          | 'id'
          | 'username'
          | 'name'
          | 'agent_id'
          | 'password_changed_at'
          | 'disabled_at'
          | 'tokens_valid_after'
        > & { company_ids: number[] | null; site_ids: number[] | null }
      >(
        `select u.id, u.username, u.name, u.agent_id, u.password_changed_at, u.disabled_at, u.tokens_valid_after,
                (select array_agg(company_id order by company_id) from user_companies where user_id = u.id) as company_ids,
                (select array_agg(site_id order by site_id) from user_sites where user_id = u.id) as site_ids
           from users u where u.id = $1`,
        [userId],
      );
      const r = rows[0];
      const value: Principal | null = r
        ? {
            userId: r.id,
            username: r.username,
            name: r.name,
            agentId: r.agent_id && r.agent_id > 0 ? r.agent_id : null,
            companyIds: (r.company_ids ?? []).map(Number),
            siteIds: (r.site_ids ?? []).map(Number),
            passwordChangedAt: new Date(r.password_changed_at),
            disabled: r.disabled_at !== null,
            tokensValidAfter: r.tokens_valid_after ? new Date(r.tokens_valid_after) : null,
          }
        : null;
      if (cache.size > 10_000) cache.clear();
      cache.set(userId, { at: Date.now(), value });
      return value;
    },
    forget(userId?: number) {
      if (userId === undefined) cache.clear();
      else cache.delete(userId);
    },
  };
}
export type PrincipalRepository = ReturnType<typeof createPrincipalRepository>;
