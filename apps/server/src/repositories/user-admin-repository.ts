import type { AdminRole, AdminUser } from '@forecourt/contract/admin';
import type { Database, QueryFn } from '../db/client.ts';
import type { users } from '../db/schema/org.ts';
import { type ListOptions, num, Params, pageSql } from './read-scope.ts';
import type { Row } from './rows.ts';
import type { Tx } from './unit-of-work.ts';

/** A user as the fleet administration reads it: the account and its scope (`user_companies`, `user_sites`). */
type UserScopeRow = Row<typeof users, 'id' | 'username' | 'email' | 'name' | 'agent_id' | 'disabled_at'> & {
  company_ids: number[] | null;
  site_ids: number[] | null;
};

/** A user's role follows from its scope: an agent id, else companies, else sites; none while it waits for one. */
export function roleOf(
  agentId: number | null,
  companyIds: readonly number[],
  siteIds: readonly number[],
): AdminRole | null {
  if (agentId !== null && num(agentId) > 0) return 'agent';
  if (companyIds.length) return 'company';
  if (siteIds.length) return 'site';
  return null;
}

const toAdminUser = (r: UserScopeRow): AdminUser => {
  const company_ids = (r.company_ids ?? []).map(Number);
  const site_ids = (r.site_ids ?? []).map(Number);
  return {
    id: num(r.id),
    username: r.username,
    email: r.email,
    name: r.name,
    role: roleOf(r.agent_id, company_ids, site_ids),
    company_ids,
    site_ids,
    disabled: r.disabled_at !== null && r.disabled_at !== undefined,
  };
};

const USER_SELECT = `u.id, u.username, u.email, u.name, u.agent_id, u.disabled_at,
  coalesce((select array_agg(uc.company_id order by uc.company_id) from user_companies uc where uc.user_id = u.id), '{}') as company_ids,
  coalesce((select array_agg(us.site_id order by us.site_id) from user_sites us where us.user_id = u.id), '{}') as site_ids`;

/** The users an agent administers: its agent users, users of its companies and sites, and users with no role yet. */
const userInAgent = (agentParam: string) => `(
  u.agent_id = ${agentParam}
  or exists (select 1 from user_companies uc join companies c on c.id = uc.company_id
              where uc.user_id = u.id and c.agent_id = ${agentParam})
  or exists (select 1 from user_sites us join sites s on s.id = us.site_id
              where us.user_id = u.id and s.agent_id = ${agentParam})
  or (u.agent_id is null and not exists (select 1 from user_companies uc where uc.user_id = u.id)
      and not exists (select 1 from user_sites us where us.user_id = u.id)))`;

const NO_COMPANY = 'not exists (select 1 from user_companies uc where uc.user_id = u.id)';
const ROLE_FILTER: Record<AdminRole | 'none', string> = {
  agent: 'u.agent_id is not null',
  company: 'u.agent_id is null and exists (select 1 from user_companies uc where uc.user_id = u.id)',
  site: `u.agent_id is null and ${NO_COMPANY} and exists (select 1 from user_sites us where us.user_id = u.id)`,
  none: `u.agent_id is null and ${NO_COMPANY} and not exists (select 1 from user_sites us where us.user_id = u.id)`,
};

/** A user to write: its account fields, and its role's agent (agent users) or null. */
export interface UserFields {
  username: string;
  email: string;
  name: string;
}

/**
 * Users as an agent administers them: the `users` rows with their scope (`user_companies`, `user_sites`). Sign-in,
 * passwords and profiles are user-repository.ts.
 */
export function createUserAdminRepository(database: Database) {
  const query: QueryFn = database.query.bind(database);
  return {
    /** The users the agent administers (with one role, or `none` waiting for one), newest first. */
    async list(agentId: number, o: ListOptions & { role?: AdminRole | 'none' }): Promise<AdminUser[]> {
      const p = new Params();
      const where = [userInAgent(p.add(agentId))];
      if (o.role) where.push(ROLE_FILTER[o.role]);
      const rows = await query<UserScopeRow>(
        `select ${USER_SELECT} from users u ${pageSql(where, p, 'u.id', o, ['u.username', 'u.email', 'u.name'])}`,
        p.values,
      );
      return rows.map(toAdminUser);
    },

    /**
     * A user by id with whether the agent administers it (`mine`), locked for the transaction with `forUpdate`;
     * null when there is none.
     */
    async byId(
      agentId: number,
      id: number,
      q: QueryFn = query,
      forUpdate = false,
    ): Promise<{ user: AdminUser; mine: boolean } | null> {
      const rows = await q<UserScopeRow & { mine: boolean }>(
        `select ${USER_SELECT}, ${userInAgent('$2')} as mine from users u where u.id = $1${forUpdate ? ' for update' : ''}`,
        [id, agentId],
      );
      return rows[0] ? { user: toAdminUser(rows[0]), mine: Boolean(rows[0].mine) } : null;
    },

    /** Whether another user than `exceptUserId` has `value` as its `column` (case-insensitive). */
    async taken(
      q: QueryFn,
      column: 'username' | 'email',
      value: string,
      exceptUserId: number,
    ): Promise<boolean> {
      const rows = await q(`select 1 from users where id <> $2 and lower(${column}) = lower($1) limit 1`, [
        value,
        exceptUserId,
      ]);
      return rows.length > 0;
    },

    /** Inserts a user (disabled or not); answers its id. Throws the unique violation of a taken username or email. */
    async insert(
      tx: Tx,
      fields: UserFields & { passwordHash: string; agentId: number | null; disabled: boolean },
    ): Promise<number> {
      const rows = await tx<Row<typeof users, 'id'>>(
        `insert into users (username, email, name, password_hash, agent_id, disabled_at)
           values ($1, $2, $3, $4, $5, case when $6::boolean then now() end) returning id`,
        [fields.username, fields.email, fields.name, fields.passwordHash, fields.agentId, fields.disabled],
      );
      return num(rows[0].id);
    },

    /** Writes a user's account fields; `disabled` null leaves the state as it is. */
    async update(tx: Tx, id: number, fields: UserFields & { disabled: boolean | null }): Promise<void> {
      await tx(
        `update users set username = $2, email = $3, name = $4,
                  disabled_at = case when $5::boolean is null then disabled_at
                                     when $5::boolean then coalesce(disabled_at, now()) else null end
            where id = $1`,
        [id, fields.username, fields.email, fields.name, fields.disabled],
      );
    },

    /** Gives a user its scope: an agent id (agent users), companies or sites, replacing what it had. */
    async setScope(
      tx: Tx,
      userId: number,
      scope: { agentId: number | null; companyIds: readonly number[]; siteIds: readonly number[] },
      replace: boolean,
    ): Promise<void> {
      if (replace) {
        await tx('update users set agent_id = $2 where id = $1', [userId, scope.agentId]);
        await tx('delete from user_companies where user_id = $1', [userId]);
        await tx('delete from user_sites where user_id = $1', [userId]);
      }
      if (scope.companyIds.length)
        await tx('insert into user_companies (user_id, company_id) select $1, unnest($2::int[])', [
          userId,
          scope.companyIds,
        ]);
      if (scope.siteIds.length)
        await tx('insert into user_sites (user_id, site_id) select $1, unnest($2::int[])', [
          userId,
          scope.siteIds,
        ]);
    },

    /** Takes a company out of every user's scope; answers the users that lost it. */
    async leaveCompany(tx: Tx, companyId: number): Promise<number[]> {
      const rows = await tx<{ user_id: number }>(
        'delete from user_companies where company_id = $1 returning user_id',
        [companyId],
      );
      return rows.map((r) => num(r.user_id));
    },

    /** Takes a site out of every user's scope; answers the users that lost it. */
    async leaveSite(tx: Tx, siteId: number): Promise<number[]> {
      const rows = await tx<{ user_id: number }>(
        'delete from user_sites where site_id = $1 returning user_id',
        [siteId],
      );
      return rows.map((r) => num(r.user_id));
    },
  };
}
export type UserAdminRepository = ReturnType<typeof createUserAdminRepository>;
