import { createHash } from 'node:crypto';
import type { Database } from '../db/client.ts';
import type { resetTokens } from '../db/schema/auth.ts';
import type { companies, sites, users } from '../db/schema/org.ts';
import type { ColumnOf, Row } from './rows.ts';
import { unitOfWork } from './unit-of-work.ts';

export interface UserRow {
  id: number;
  username: string;
  email: string;
  name: string;
  passwordHash: string;
  agentId: number | null;
  passwordChangedAt: Date;
  /** Disabled by an agent (docs/product.md#fleet-administration): no sign-in. */
  disabled: boolean;
}

export interface UserProfile {
  id: number;
  username: string;
  email: string;
  name: string;
  /** A stored path or URL, or for an uploaded image the path that serves it. */
  avatar: string | null;
  picture: string | null;
  agentId: number | null;
  companies: { id: number; name: string }[];
  sites: { id: number; title: string; number: string }[];
}

export interface AvatarImage {
  contentType: string;
  data: Buffer;
  etag: string;
}

export type ResetTokenState =
  | { ok: true; userId: number }
  | { ok: false; reason: 'unknown' | 'used' | 'expired' };

/** Postgres unique violation, on either driver. */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const e = err as { code?: string; constraint?: string; message?: string } | null;
  if (e?.code !== '23505') return false;
  return constraint === undefined || e.constraint === constraint || Boolean(e.message?.includes(constraint));
}

const USER_FIELDS = [
  'id',
  'username',
  'email',
  'name',
  'password_hash',
  'agent_id',
  'password_changed_at',
  'disabled_at',
] as const satisfies readonly ColumnOf<typeof users>[];
const USER_COLUMNS = USER_FIELDS.join(', ');
type RawUser = Row<typeof users, (typeof USER_FIELDS)[number]>;
type CompanyName = Row<typeof companies, 'id' | 'name'>;
type SiteName = Row<typeof sites, 'id' | 'title' | 'number'>;

function toUser(r: RawUser): UserRow {
  return {
    id: r.id,
    username: r.username,
    email: r.email,
    name: r.name,
    passwordHash: r.password_hash,
    agentId: r.agent_id && r.agent_id > 0 ? r.agent_id : null,
    passwordChangedAt: new Date(r.password_changed_at),
    disabled: r.disabled_at !== null && r.disabled_at !== undefined,
  };
}

export const avatarPath = (userId: number, version: string) => `/api/user/avatar/${userId}/?v=${version}`;

/** Users, their links to agents, companies and sites, and their password-reset tokens. */
export function createUserRepository(database: Database) {
  const q = database.query.bind(database);

  return {
    async findById(id: number): Promise<UserRow | null> {
      const rows = await q<RawUser>(`select ${USER_COLUMNS} from users where id = $1`, [id]);
      return rows[0] ? toUser(rows[0]) : null;
    },

    /**
     * By username or email, case-insensitive. Usernames and emails are one namespace; should an older row still
     * clash, a login containing `@` is an email first, any other a username first.
     */
    async findByLogin(login: string): Promise<UserRow | null> {
      const rows = await q<RawUser>(
        `select ${USER_COLUMNS} from users
          where lower(username) = lower($1) or lower(email) = lower($1)
          order by (case when strpos($1, '@') > 0 then lower(email) = lower($1)
                         else lower(username) = lower($1) end) desc, id
          limit 1`,
        [login],
      );
      return rows[0] ? toUser(rows[0]) : null;
    },

    async findByEmail(email: string): Promise<UserRow | null> {
      const rows = await q<RawUser>(`select ${USER_COLUMNS} from users where lower(email) = lower($1)`, [
        email,
      ]);
      return rows[0] ? toUser(rows[0]) : null;
    },

    /**
     * Whether `name` is any other user's username or email (case-insensitive): usernames and emails are one
     * namespace, so a sign-in name always names one account.
     */
    async loginNameTaken(name: string, exceptUserId = 0): Promise<boolean> {
      const rows = await q(
        'select 1 from users where id <> $2 and (lower(username) = lower($1) or lower(email) = lower($1)) limit 1',
        [name, exceptUserId],
      );
      return rows.length > 0;
    },

    /** Whether an agent user of that username exists (the demo agent the fleet simulator signs in as). */
    async isAgent(username: string): Promise<boolean> {
      const rows = await q('select 1 from users where lower(username) = lower($1) and agent_id is not null', [
        username,
      ]);
      return rows.length > 0;
    },

    /** The first free username of `base`, `base2`, `base3`, ... */
    async freeUsername(base: string): Promise<string> {
      const rows = await q<{ u: string }>(
        `select lower(username) as u from users where lower(username) like $1 || '%'`,
        [base.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)],
      );
      const taken = new Set(rows.map((r) => r.u));
      if (!taken.has(base.toLowerCase())) return base;
      for (let n = 2; ; n++) {
        if (!taken.has(`${base}${n}`.toLowerCase())) return `${base}${n}`;
      }
    },

    /** Inserts a user; throws a unique violation (see isUniqueViolation) when username or email is taken. */
    async create(user: {
      username: string;
      email: string;
      name: string;
      passwordHash: string;
    }): Promise<UserRow> {
      const rows = await q<RawUser>(
        `insert into users (username, email, name, password_hash) values ($1, $2, $3, $4) returning ${USER_COLUMNS}`,
        [user.username, user.email, user.name, user.passwordHash],
      );
      return toUser(rows[0]);
    },

    async updateProfile(
      id: number,
      patch: { name?: string; email?: string; avatar?: string | null },
    ): Promise<void> {
      const sets: string[] = [];
      const params: unknown[] = [id];
      for (const [column, value] of [
        ['name', patch.name],
        ['email', patch.email],
        ['avatar', patch.avatar],
      ] as const) {
        if (value === undefined) continue;
        params.push(value);
        sets.push(`${column} = $${params.length}`);
      }
      if (!sets.length) return;
      // 'session': the name travels in the principal each node caches (commands carry the requester's name).
      await unitOfWork(database, async (tq) => {
        await tq(`update users set ${sets.join(', ')} where id = $1`, params);
        await tq.changed([{ kind: 'session', userId: id }]);
      });
    },

    /**
     * Stores a new password hash and returns the change time. Tokens issued before it stop working
     * (see plugins/auth.ts), and every outstanding reset token of the user is spent. A 'session' change tells
     * every node (its cached principal goes, the user's live streams with older tokens end).
     */
    async setPassword(id: number, passwordHash: string): Promise<Date> {
      return unitOfWork(database, async (tq) => {
        const rows = await tq<{ at: Date | string }>(
          `update users set password_hash = $2, password_changed_at = now() where id = $1
            returning password_changed_at as at`,
          [id, passwordHash],
        );
        await tq('update reset_tokens set used_at = now() where user_id = $1 and used_at is null', [id]);
        if (rows[0]) await tq.changed([{ kind: 'session', userId: id }]);
        return new Date(rows[0]?.at ?? Date.now());
      });
    },

    /** The profile of GET /api/user/: companies reached as a whole, sites linked to the user. */
    async profile(id: number): Promise<UserProfile | null> {
      const rows = await q<
        Row<typeof users, 'id' | 'username' | 'email' | 'name' | 'avatar' | 'picture' | 'agent_id'> & {
          avatar_kind: 'none' | 'data' | 'path';
          avatar_version: string | null;
        }
      >(
        `select id, username, email, name, picture, agent_id,
                case when avatar is null or avatar = '' then 'none' when avatar like 'data:%' then 'data' else 'path' end
                  as avatar_kind,
                case when avatar like 'data:%' then null else avatar end as avatar,
                case when avatar like 'data:%' then left(md5(avatar), 12) else null end as avatar_version
           from users where id = $1`,
        [id],
      );
      const r = rows[0];
      if (!r) return null;
      const agentId = r.agent_id && r.agent_id > 0 ? r.agent_id : null;
      const [companies, sites] = await Promise.all([
        agentId
          ? q<CompanyName>(
              'select id, name from companies where agent_id = $1 and decommissioned_at is null order by id',
              [agentId],
            )
          : q<CompanyName>(
              `select c.id, c.name from companies c join user_companies uc on uc.company_id = c.id
                where uc.user_id = $1 and c.decommissioned_at is null order by c.id`,
              [id],
            ),
        q<SiteName>(
          `select s.id, s.title, s.number from sites s join user_sites us on us.site_id = s.id
            where us.user_id = $1 and s.decommissioned_at is null order by s.id`,
          [id],
        ),
      ]);
      const avatar =
        r.avatar_kind === 'data'
          ? avatarPath(r.id, r.avatar_version ?? '0')
          : r.avatar_kind === 'path'
            ? r.avatar
            : null;
      return {
        id: r.id,
        username: r.username,
        email: r.email,
        name: r.name,
        avatar,
        picture: r.picture ?? avatar,
        agentId,
        companies: companies.map((c) => ({ id: Number(c.id), name: c.name })),
        sites: sites.map((s) => ({ id: Number(s.id), title: s.title, number: s.number })),
      };
    },

    /** An uploaded avatar (stored as a data URL), decoded. */
    async avatarImage(id: number): Promise<AvatarImage | null> {
      const rows = await q<Row<typeof users, 'avatar'>>(
        `select avatar from users where id = $1 and avatar like 'data:%'`,
        [id],
      );
      const m = rows[0]?.avatar ? /^data:([\w/+.-]+);base64,(.*)$/s.exec(rows[0].avatar) : null;
      if (!m) return null;
      return {
        contentType: m[1],
        data: Buffer.from(m[2], 'base64'),
        etag: `"${createHash('md5').update(rows[0].avatar!).digest('hex').slice(0, 12)}"`,
      };
    },

    /** Every site the user reaches: the agent's, its companies' and its own, by id. */
    async reachableSites(
      principal: { userId: number; agentId: number | null; companyIds: number[]; siteIds: number[] },
      limit: number,
    ): Promise<{ id: number; title: string; number: string }[]> {
      const rows = await q<SiteName>(
        `select id, title, number from sites
          where (agent_id = $1 or company_id = any($2::int[]) or id = any($3::int[])) and decommissioned_at is null
          order by id limit $4`,
        [principal.agentId ?? -1, principal.companyIds, principal.siteIds, limit],
      );
      return rows.map((s) => ({ id: Number(s.id), title: s.title, number: s.number }));
    },

    async createResetToken(userId: number, tokenHash: string, ttlSeconds: number): Promise<void> {
      await q(
        `insert into reset_tokens (user_id, token_hash, expires_at)
         values ($1, $2, now() + make_interval(secs => $3))`,
        [userId, tokenHash, ttlSeconds],
      );
      await q(`delete from reset_tokens where expires_at < now() - interval '7 days'`);
    },

    async resetTokensSince(userId: number, seconds: number): Promise<number> {
      const rows = await q<{ n: number | string }>(
        `select count(*) as n from reset_tokens where user_id = $1 and created_at > now() - make_interval(secs => $2)`,
        [userId, seconds],
      );
      return Number(rows[0]?.n ?? 0);
    },

    /** Spends a reset token once: only one caller ever gets `ok` for a given token. */
    async consumeResetToken(tokenHash: string): Promise<ResetTokenState> {
      const spent = await q<Row<typeof resetTokens, 'user_id'>>(
        `update reset_tokens set used_at = now()
          where token_hash = $1 and used_at is null and expires_at > now() returning user_id`,
        [tokenHash],
      );
      if (spent[0]) return { ok: true, userId: Number(spent[0].user_id) };
      const rows = await q<{ used: boolean }>(
        'select used_at is not null as used from reset_tokens where token_hash = $1',
        [tokenHash],
      );
      if (!rows[0]) return { ok: false, reason: 'unknown' };
      return { ok: false, reason: rows[0].used ? 'used' : 'expired' };
    },
  };
}
export type UserRepository = ReturnType<typeof createUserRepository>;
