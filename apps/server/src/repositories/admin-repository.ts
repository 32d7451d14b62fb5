import type {
  AdminChild,
  AdminPump,
  AdminRole,
  AdminSite,
  AdminTerminal,
  AdminUser,
  Company,
} from '@forecourt/contract/admin';
import type { Database, QueryFn } from '../db/client.ts';
import { type ChangeInput, recordChanges } from './change-repository.ts';
import { likePattern, num, Params } from './read-scope.ts';
import { isUniqueViolation } from './user-repository.ts';

/**
 * Fleet administration (docs/product.md#fleet-administration): companies, sites, terminals, pumps and users under
 * one agent id. Every change runs in one transaction with its audit entry (who, when, before, after). Decommissioned
 * rows keep their history but leave every read: `decommissioned_at is null` is part of each live lookup here.
 * Every change also records its 'fleet' change for the live feed in the same transaction, naming the place it
 * touched (a move names the old place and the new one), and a 'session' change for each user whose rights changed.
 */

export interface Actor {
  userId: number;
  username: string;
  agentId: number;
}

export interface ListOptions {
  q?: string;
  limit: number;
  before?: string;
}

/** What a mutation ends in; the route turns it into the HTTP answer. */
export type Outcome<T> =
  | { ok: true; value: T }
  | { ok: false; status: 400 | 403 | 404 | 409; errors: string[]; children?: AdminChild[] };

const fail = (status: 400 | 403 | 404 | 409, ...errors: string[]) => ({ ok: false as const, status, errors });
const done = <T>(value: T) => ({ ok: true as const, value });

/** Looked up by id: unknown or decommissioned → 404, another agent's → 403. */
type Found<T> = { row: T } | { status: 403 | 404 };

export type AuditEntity = 'company' | 'site' | 'terminal' | 'pump' | 'user';

export async function writeAudit(
  q: QueryFn,
  actor: Actor,
  action: string,
  entity: string,
  entityId: number | null,
  before: unknown,
  after: unknown,
) {
  await q(
    `insert into audit_log (user_id, username, agent_id, action, entity, entity_id, before, after)
     values ($1, $2, $3, $4, $5, $6, $7::jsonb, $8::jsonb)`,
    [
      actor.userId,
      actor.username,
      actor.agentId,
      action,
      entity,
      entityId,
      before === null ? null : JSON.stringify(before),
      after === null ? null : JSON.stringify(after),
    ],
  );
}

/** `q` (search), `before` (cursor on the id) and `limit` over a list, newest first. */
function page(where: string[], p: Params, idCol: string, o: ListOptions, search: string[]) {
  if (o.before) where.push(`${idCol} < ${p.add(o.before)}::bigint`);
  const q = o.q?.replaceAll('\u0000', '').trim();
  if (q) {
    const like = p.add(likePattern(q));
    where.push(`(${search.map((c) => `${c} ilike ${like}`).join(' or ')})`);
  }
  return `where ${where.join(' and ')} order by ${idCol} desc limit ${p.add(o.limit)}`;
}

const nullableNum = (v: unknown) => (v === null || v === undefined ? null : num(v));

/** The 'fleet' change of a place of the agent's fleet (the live feed). */
const fleetAt = (
  agentId: number,
  place: { companyId?: unknown; siteId?: unknown; terminalId?: unknown; pumpId?: unknown; userId?: number },
): ChangeInput => ({
  kind: 'fleet',
  agentId,
  companyId: nullableNum(place.companyId),
  siteId: nullableNum(place.siteId),
  terminalId: nullableNum(place.terminalId),
  pumpId: nullableNum(place.pumpId),
  userId: place.userId ?? null,
});

/** 'session' changes of users whose rights changed (each node forgets their principal). */
const sessionsOf = (rows: Array<{ user_id: unknown }>): ChangeInput[] =>
  rows.map((r) => ({ kind: 'session', userId: num(r.user_id) }));

// ---------- rows ----------

type SiteRaw = {
  id: number;
  agent_id: number;
  company_id: number;
  title: string;
  number: string;
  lat: number | null;
  lng: number | null;
  timezone: string;
  address: string | null;
  decommissioned_at: unknown;
};
const toSite = (r: SiteRaw): AdminSite => ({
  id: num(r.id),
  company_id: num(r.company_id),
  title: r.title,
  number: r.number,
  lat: nullableNum(r.lat),
  lng: nullableNum(r.lng),
  timezone: r.timezone,
  address: r.address,
});
const SITE_COLS =
  's.id, s.agent_id, s.company_id, s.title, s.number, s.lat, s.lng, s.timezone, s.address, s.decommissioned_at';

type TerminalRaw = {
  id: number;
  agent_id: number;
  company_id?: number;
  site_id: number;
  terminal_no: string;
  card_acceptor_name: string;
  lat: number | null;
  lng: number | null;
  pump_controller: boolean;
  decommissioned_at: unknown;
  has_device_token?: boolean;
};
const toTerminal = (r: TerminalRaw): AdminTerminal => ({
  id: num(r.id),
  site_id: num(r.site_id),
  terminal_id: r.terminal_no,
  card_acceptor_name: r.card_acceptor_name,
  lat: nullableNum(r.lat),
  lng: nullableNum(r.lng),
  ...(r.has_device_token === undefined ? {} : { has_device_token: Boolean(r.has_device_token) }),
});
const TERMINAL_COLS =
  't.id, t.agent_id, t.company_id, t.site_id, t.terminal_no, t.card_acceptor_name, t.lat, t.lng, t.pump_controller, t.decommissioned_at';
/** Whether the terminal has a device token: the fleet simulator adopts only terminals nobody provisioned. */
const HAS_TOKEN = 'exists (select 1 from device_tokens d where d.terminal_id = t.id) as has_device_token';

type PumpRaw = {
  id: number;
  agent_id: number;
  company_id: number;
  site_id: number;
  pump_no: number;
  terminal_id: number;
  decommissioned_at: unknown;
};
const toPump = (r: PumpRaw): AdminPump => ({
  id: num(r.id),
  site_id: num(r.site_id),
  pump_no: num(r.pump_no),
});
const PUMP_COLS = 'p.id, s.agent_id, s.company_id, p.site_id, p.pump_no, p.terminal_id, p.decommissioned_at';

type UserRaw = {
  id: number;
  username: string;
  email: string;
  name: string;
  agent_id: number | null;
  disabled_at: unknown;
  company_ids: number[] | null;
  site_ids: number[] | null;
};
const toUser = (r: UserRaw): AdminUser => {
  const company_ids = (r.company_ids ?? []).map(Number);
  const site_ids = (r.site_ids ?? []).map(Number);
  const role: AdminRole | null =
    r.agent_id !== null && num(r.agent_id) > 0
      ? 'agent'
      : company_ids.length
        ? 'company'
        : site_ids.length
          ? 'site'
          : null;
  return {
    id: num(r.id),
    username: r.username,
    email: r.email,
    name: r.name,
    role,
    company_ids,
    site_ids,
    disabled: r.disabled_at !== null && r.disabled_at !== undefined,
  };
};
const USER_COLS = `u.id, u.username, u.email, u.name, u.agent_id, u.disabled_at,
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

function found<T extends { agent_id: number; decommissioned_at?: unknown }>(
  rows: T[],
  agentId: number,
): Found<T> {
  const row = rows[0];
  if (!row || (row.decommissioned_at !== null && row.decommissioned_at !== undefined)) return { status: 404 };
  if (num(row.agent_id) !== agentId) return { status: 403 };
  return { row };
}

const NOT_YOURS = 'You do not have permission to access this resource.';
const notFoundText = (entity: string, id: number) => `No ${entity} with id ${id}.`;
const childLabel = {
  site: (r: { title: string; number: string }) => `${r.title} (${r.number})`,
  terminal: (r: { terminal_no: string }) => r.terminal_no,
  pump: (r: { pump_no: number }) => `pump ${r.pump_no}`,
};

function childrenConflict(what: string, children: AdminChild[]) {
  const names = children
    .slice(0, 20)
    .map((c) => `${c.entity} ${c.id} ${c.label}`)
    .join(', ');
  const more = children.length > 20 ? ` and ${children.length - 20} more` : '';
  return {
    ok: false as const,
    status: 409 as const,
    errors: [`${what} still has live children: ${names}${more}. Decommission them first.`],
    children,
  };
}

export function createAdminRepository(database: Database) {
  const query = database.query.bind(database);

  async function companyRow(q: QueryFn, id: number) {
    return q<{ id: number; agent_id: number; name: string; decommissioned_at: unknown }>(
      'select id, agent_id, name, decommissioned_at from companies where id = $1',
      [id],
    );
  }
  async function siteRow(q: QueryFn, id: number) {
    return q<SiteRaw>(`select ${SITE_COLS} from sites s where s.id = $1`, [id]);
  }
  async function terminalRow(q: QueryFn, id: number) {
    return q<TerminalRaw>(`select ${TERMINAL_COLS}, ${HAS_TOKEN} from terminals t where t.id = $1`, [id]);
  }
  async function pumpRow(q: QueryFn, id: number) {
    return q<PumpRaw>(`select ${PUMP_COLS} from pumps p join sites s on s.id = p.site_id where p.id = $1`, [
      id,
    ]);
  }
  async function userRow(q: QueryFn, id: number) {
    return q<UserRaw>(`select ${USER_COLS} from users u where u.id = $1`, [id]);
  }

  /** A live site of the agent named by a body field, else the 400 naming the field. */
  async function liveSiteOf(q: QueryFn, agentId: number, siteId: number) {
    const f = found(await siteRow(q, siteId), agentId);
    return 'row' in f ? f.row : null;
  }

  /** The terminal that carries the site's pump commands: its pump controller, else its oldest live terminal. */
  async function pumpCarrier(q: QueryFn, siteId: number, except = 0): Promise<number | null> {
    const rows = await q<{ id: number }>(
      `select id from terminals where site_id = $1 and decommissioned_at is null and id <> $2
        order by pump_controller desc, id limit 1`,
      [siteId, except],
    );
    if (!rows[0]) return null;
    await q('update terminals set pump_controller = true where id = $1 and not pump_controller', [
      rows[0].id,
    ]);
    return num(rows[0].id);
  }

  return {
    // ---------- companies ----------
    async listCompanies(agentId: number, o: ListOptions): Promise<Company[]> {
      const p = new Params();
      const where = [`c.agent_id = ${p.add(agentId)}`, 'c.decommissioned_at is null'];
      const rows = await query<{ id: number; name: string }>(
        `select c.id, c.name from companies c ${page(where, p, 'c.id', o, ['c.name'])}`,
        p.values,
      );
      return rows.map((r) => ({ id: num(r.id), name: r.name }));
    },

    async getCompany(agentId: number, id: number): Promise<Outcome<Company>> {
      const f = found(await companyRow(query, id), agentId);
      if (!('row' in f))
        return f.status === 404 ? fail(404, notFoundText('company', id)) : fail(403, NOT_YOURS);
      return done({ id: num(f.row.id), name: f.row.name });
    },

    async createCompany(actor: Actor, body: { name: string }): Promise<Outcome<Company>> {
      return database
        .transaction(async (q) => {
          const rows = await q<{ id: number }>(
            'insert into companies (agent_id, name) values ($1, $2) returning id',
            [actor.agentId, body.name],
          );
          const company = { id: num(rows[0].id), name: body.name };
          await writeAudit(q, actor, 'create', 'company', company.id, null, company);
          await recordChanges(q, [fleetAt(actor.agentId, { companyId: company.id })]);
          return done(company);
        })
        .catch(uniqueAs({ companies_agent_name_uq: `name: a company named "${body.name}" already exists.` }));
    },

    async patchCompany(actor: Actor, id: number, body: { name?: string }): Promise<Outcome<Company>> {
      return database
        .transaction(async (q) => {
          const f = found(await companyRow(q, id), actor.agentId);
          if (!('row' in f))
            return f.status === 404 ? fail(404, notFoundText('company', id)) : fail(403, NOT_YOURS);
          const before = { id, name: f.row.name };
          const after = { id, name: body.name ?? f.row.name };
          if (after.name !== before.name) {
            await q('update companies set name = $2 where id = $1', [id, after.name]);
            await writeAudit(q, actor, 'update', 'company', id, before, after);
            await recordChanges(q, [fleetAt(actor.agentId, { companyId: id })]);
          }
          return done(after);
        })
        .catch(uniqueAs({ companies_agent_name_uq: `name: a company named "${body.name}" already exists.` }));
    },

    async decommissionCompany(actor: Actor, id: number): Promise<Outcome<Company>> {
      return database.transaction(async (q) => {
        const f = found(await companyRow(q, id), actor.agentId);
        if (!('row' in f))
          return f.status === 404 ? fail(404, notFoundText('company', id)) : fail(403, NOT_YOURS);
        const sites = await q<{ id: number; title: string; number: string }>(
          'select id, title, number from sites where company_id = $1 and decommissioned_at is null order by id',
          [id],
        );
        if (sites.length)
          return childrenConflict(
            `Company ${id}`,
            sites.map((s) => ({ entity: 'site', id: num(s.id), label: childLabel.site(s) })),
          );
        await q('update companies set decommissioned_at = now() where id = $1', [id]);
        // Its users keep their accounts but no longer reach it.
        const users = await q<{ user_id: number }>(
          'delete from user_companies where company_id = $1 returning user_id',
          [id],
        );
        const company = { id, name: f.row.name };
        await writeAudit(q, actor, 'decommission', 'company', id, company, null);
        await recordChanges(q, [fleetAt(actor.agentId, { companyId: id }), ...sessionsOf(users)]);
        return done(company);
      });
    },

    // ---------- sites ----------
    async listSites(agentId: number, o: ListOptions & { companyId?: number }): Promise<AdminSite[]> {
      const p = new Params();
      const where = [`s.agent_id = ${p.add(agentId)}`, 's.decommissioned_at is null'];
      if (o.companyId !== undefined) where.push(`s.company_id = ${p.add(o.companyId)}`);
      const rows = await query<SiteRaw>(
        `select ${SITE_COLS} from sites s ${page(where, p, 's.id', o, ['s.title', 's.number', 's.address'])}`,
        p.values,
      );
      return rows.map(toSite);
    },

    async getSite(agentId: number, id: number): Promise<Outcome<AdminSite>> {
      const f = found(await siteRow(query, id), agentId);
      if (!('row' in f)) return f.status === 404 ? fail(404, notFoundText('site', id)) : fail(403, NOT_YOURS);
      return done(toSite(f.row));
    },

    async createSite(
      actor: Actor,
      body: Omit<AdminSite, 'id' | 'address'> & { address?: string | null },
    ): Promise<Outcome<AdminSite>> {
      return database
        .transaction(async (q) => {
          const c = found(await companyRow(q, body.company_id), actor.agentId);
          if (!('row' in c)) return fail(400, `company_id: no company of yours has id ${body.company_id}.`);
          const rows = await q<SiteRaw>(
            `insert into sites (company_id, agent_id, title, number, lat, lng, timezone, address)
             values ($1, $2, $3, $4, $5, $6, $7, $8)
             returning id, agent_id, company_id, title, number, lat, lng, timezone, address, decommissioned_at`,
            [
              body.company_id,
              actor.agentId,
              body.title,
              body.number,
              body.lat,
              body.lng,
              body.timezone,
              body.address ?? null,
            ],
          );
          const site = toSite(rows[0]);
          await writeAudit(q, actor, 'create', 'site', site.id, null, site);
          await recordChanges(q, [fleetAt(actor.agentId, { companyId: site.company_id, siteId: site.id })]);
          return done(site);
        })
        .catch(
          uniqueAs({
            sites_company_number_uq: `number: company ${body.company_id} already has a site numbered "${body.number}".`,
          }),
        );
    },

    async patchSite(
      actor: Actor,
      id: number,
      body: Partial<Omit<AdminSite, 'id'>>,
    ): Promise<Outcome<AdminSite>> {
      return database
        .transaction(async (q) => {
          const f = found(await siteRow(q, id), actor.agentId);
          if (!('row' in f))
            return f.status === 404 ? fail(404, notFoundText('site', id)) : fail(403, NOT_YOURS);
          const before = toSite(f.row);
          const after: AdminSite = { ...before, ...stripUndefined(body) };
          if (after.company_id !== before.company_id) {
            const c = found(await companyRow(q, after.company_id), actor.agentId);
            if (!('row' in c))
              return fail(400, `company_id: no company of yours has id ${after.company_id}.`);
          }
          if (JSON.stringify(after) === JSON.stringify(before)) return done(before);
          await q(
            `update sites set company_id = $2, title = $3, number = $4, lat = $5, lng = $6, timezone = $7, address = $8
              where id = $1`,
            [
              id,
              after.company_id,
              after.title,
              after.number,
              after.lat,
              after.lng,
              after.timezone,
              after.address,
            ],
          );
          if (after.company_id !== before.company_id) {
            await q('update terminals set company_id = $2 where site_id = $1', [id, after.company_id]);
          }
          await writeAudit(q, actor, 'update', 'site', id, before, after);
          // A site moved to another company: the old company's screens lose it, the new one's gain it.
          await recordChanges(q, [
            fleetAt(actor.agentId, { companyId: before.company_id, siteId: id }),
            fleetAt(actor.agentId, { companyId: after.company_id, siteId: id }),
          ]);
          return done(after);
        })
        .catch(
          uniqueAs({
            sites_company_number_uq: `number: the company already has a site numbered "${body.number}".`,
          }),
        );
    },

    async decommissionSite(actor: Actor, id: number): Promise<Outcome<AdminSite>> {
      return database.transaction(async (q) => {
        const f = found(await siteRow(q, id), actor.agentId);
        if (!('row' in f))
          return f.status === 404 ? fail(404, notFoundText('site', id)) : fail(403, NOT_YOURS);
        const terminals = await q<{ id: number; terminal_no: string }>(
          'select id, terminal_no from terminals where site_id = $1 and decommissioned_at is null order by id',
          [id],
        );
        const pumps = await q<{ id: number; pump_no: number }>(
          'select id, pump_no from pumps where site_id = $1 and decommissioned_at is null order by pump_no',
          [id],
        );
        if (terminals.length || pumps.length)
          return childrenConflict(`Site ${id}`, [
            ...terminals.map((t) => ({
              entity: 'terminal' as const,
              id: num(t.id),
              label: childLabel.terminal(t),
            })),
            ...pumps.map((p) => ({ entity: 'pump' as const, id: num(p.id), label: childLabel.pump(p) })),
          ]);
        await q('update sites set decommissioned_at = now() where id = $1', [id]);
        const users = await q<{ user_id: number }>(
          'delete from user_sites where site_id = $1 returning user_id',
          [id],
        );
        const site = toSite(f.row);
        await writeAudit(q, actor, 'decommission', 'site', id, site, null);
        await recordChanges(q, [
          fleetAt(actor.agentId, { companyId: site.company_id, siteId: id }),
          ...sessionsOf(users),
        ]);
        return done(site);
      });
    },

    // ---------- terminals ----------
    async listTerminals(agentId: number, o: ListOptions & { siteId?: number }): Promise<AdminTerminal[]> {
      const p = new Params();
      const where = [`t.agent_id = ${p.add(agentId)}`, 't.decommissioned_at is null'];
      if (o.siteId !== undefined) where.push(`t.site_id = ${p.add(o.siteId)}`);
      const rows = await query<TerminalRaw>(
        `select ${TERMINAL_COLS}, ${HAS_TOKEN} from terminals t ${page(where, p, 't.id', o, ['t.terminal_no', 't.card_acceptor_name'])}`,
        p.values,
      );
      return rows.map(toTerminal);
    },

    async getTerminal(agentId: number, id: number): Promise<Outcome<AdminTerminal>> {
      const f = found(await terminalRow(query, id), agentId);
      if (!('row' in f))
        return f.status === 404 ? fail(404, notFoundText('terminal', id)) : fail(403, NOT_YOURS);
      return done(toTerminal(f.row));
    },

    async createTerminal(
      actor: Actor,
      body: {
        site_id: number;
        terminal_id: string;
        card_acceptor_name: string;
        lat?: number | null;
        lng?: number | null;
      },
    ): Promise<Outcome<AdminTerminal>> {
      return database
        .transaction(async (q) => {
          const site = await liveSiteOf(q, actor.agentId, body.site_id);
          if (!site) return fail(400, `site_id: no site of yours has id ${body.site_id}.`);
          const rows = await q<TerminalRaw>(
            `insert into terminals (site_id, company_id, agent_id, terminal_no, card_acceptor_name, lat, lng, pump_controller)
             values ($1, $2, $3, $4, $5, $6, $7,
                     not exists (select 1 from terminals where site_id = $1 and decommissioned_at is null))
             returning id, agent_id, site_id, terminal_no, card_acceptor_name, lat, lng, pump_controller, decommissioned_at`,
            [
              site.id,
              site.company_id,
              actor.agentId,
              body.terminal_id,
              body.card_acceptor_name,
              body.lat === undefined ? site.lat : body.lat,
              body.lng === undefined ? site.lng : body.lng,
            ],
          );
          const terminal = toTerminal(rows[0]);
          await writeAudit(q, actor, 'create', 'terminal', terminal.id, null, terminal);
          await recordChanges(q, [
            fleetAt(actor.agentId, { companyId: site.company_id, siteId: site.id, terminalId: terminal.id }),
          ]);
          return done(terminal);
        })
        .catch(
          uniqueAs({
            terminals_no_uq: `terminal_id: a terminal numbered "${body.terminal_id}" already exists.`,
          }),
        );
    },

    async patchTerminal(
      actor: Actor,
      id: number,
      body: Partial<Omit<AdminTerminal, 'id'>>,
    ): Promise<Outcome<AdminTerminal>> {
      return database
        .transaction(async (q) => {
          const f = found(await terminalRow(q, id), actor.agentId);
          if (!('row' in f))
            return f.status === 404 ? fail(404, notFoundText('terminal', id)) : fail(403, NOT_YOURS);
          const before = toTerminal(f.row);
          const after: AdminTerminal = { ...before, ...stripUndefined(body) };
          if (JSON.stringify(after) === JSON.stringify(before)) return done(before);
          let companyId: number | null = null;
          if (after.site_id !== before.site_id) {
            const site = await liveSiteOf(q, actor.agentId, after.site_id);
            if (!site) return fail(400, `site_id: no site of yours has id ${after.site_id}.`);
            const carried = await q<{ id: number; pump_no: number }>(
              'select id, pump_no from pumps where terminal_id = $1 and decommissioned_at is null order by pump_no',
              [id],
            );
            if (carried.length)
              return childrenConflict(
                `Terminal ${id} carries pumps of its site and cannot move`,
                carried.map((p) => ({ entity: 'pump', id: num(p.id), label: childLabel.pump(p) })),
              );
            companyId = num(site.company_id);
          }
          await q(
            `update terminals set site_id = $2, terminal_no = $3, card_acceptor_name = $4, lat = $5, lng = $6,
                    company_id = coalesce($7, company_id),
                    pump_controller = case when $2 <> site_id then false else pump_controller end
              where id = $1`,
            [id, after.site_id, after.terminal_id, after.card_acceptor_name, after.lat, after.lng, companyId],
          );
          await writeAudit(q, actor, 'update', 'terminal', id, before, after);
          // A move names the old place and the new one.
          await recordChanges(q, [
            fleetAt(actor.agentId, { companyId: f.row.company_id, siteId: before.site_id, terminalId: id }),
            fleetAt(actor.agentId, {
              companyId: companyId ?? f.row.company_id,
              siteId: after.site_id,
              terminalId: id,
            }),
          ]);
          return done(after);
        })
        .catch(
          uniqueAs({
            terminals_no_uq: `terminal_id: a terminal numbered "${body.terminal_id}" already exists.`,
          }),
        );
    },

    /**
     * Decommissions a terminal. The pumps it carries move to another live terminal of the site; with none left they
     * block the delete (409 naming them). The caller retires the device token once this commits.
     */
    async decommissionTerminal(actor: Actor, id: number): Promise<Outcome<AdminTerminal>> {
      return database.transaction(async (q) => {
        const f = found(await terminalRow(q, id), actor.agentId);
        if (!('row' in f))
          return f.status === 404 ? fail(404, notFoundText('terminal', id)) : fail(403, NOT_YOURS);
        const here = fleetAt(actor.agentId, {
          companyId: f.row.company_id,
          siteId: f.row.site_id,
          terminalId: id,
        });
        // 'device': every node drops the terminal's cached token and ends its long-polls.
        const changes: ChangeInput[] = [here, { ...here, kind: 'device' }];
        const carried = await q<{ id: number; pump_no: number }>(
          'select id, pump_no from pumps where terminal_id = $1 and decommissioned_at is null order by pump_no',
          [id],
        );
        if (carried.length) {
          const carrier = await pumpCarrier(q, num(f.row.site_id), id);
          if (carrier === null)
            return childrenConflict(
              `Terminal ${id} carries the pumps of its site and is its last terminal; it`,
              carried.map((p) => ({ entity: 'pump', id: num(p.id), label: childLabel.pump(p) })),
            );
          await q('update pumps set terminal_id = $2 where terminal_id = $1 and decommissioned_at is null', [
            id,
            carrier,
          ]);
          changes.push({ ...here, terminalId: carrier });
        }
        await q('update terminals set decommissioned_at = now(), pump_controller = false where id = $1', [
          id,
        ]);
        await q('delete from device_tokens where terminal_id = $1', [id]);
        // Its active alerts end with it (the bell and the by-site view count live terminals); the log keeps them.
        const cleared = await q(
          `update alerts set state = 'cleared', cleared_at = now() where terminal_id = $1 and state = 'active'
           returning id`,
          [id],
        );
        if (cleared.length) changes.push({ ...here, kind: 'alert' });
        const terminal = toTerminal(f.row);
        await writeAudit(q, actor, 'decommission', 'terminal', id, terminal, null);
        await recordChanges(q, changes);
        return done(terminal);
      });
    },

    // ---------- pumps ----------
    async listPumps(agentId: number, o: ListOptions & { siteId?: number }): Promise<AdminPump[]> {
      const p = new Params();
      const where = [`s.agent_id = ${p.add(agentId)}`, 'p.decommissioned_at is null'];
      if (o.siteId !== undefined) where.push(`p.site_id = ${p.add(o.siteId)}`);
      const rows = await query<PumpRaw>(
        `select ${PUMP_COLS} from pumps p join sites s on s.id = p.site_id
         ${page(where, p, 'p.id', o, ['p.pump_no::text', 's.title', 's.number'])}`,
        p.values,
      );
      return rows.map(toPump);
    },

    async getPump(agentId: number, id: number): Promise<Outcome<AdminPump>> {
      const f = found(await pumpRow(query, id), agentId);
      if (!('row' in f)) return f.status === 404 ? fail(404, notFoundText('pump', id)) : fail(403, NOT_YOURS);
      return done(toPump(f.row));
    },

    async createPump(actor: Actor, body: { site_id: number; pump_no: number }): Promise<Outcome<AdminPump>> {
      return database
        .transaction(async (q) => {
          const site = await liveSiteOf(q, actor.agentId, body.site_id);
          if (!site) return fail(400, `site_id: no site of yours has id ${body.site_id}.`);
          const carrier = await pumpCarrier(q, body.site_id);
          if (carrier === null)
            return fail(
              409,
              `Site ${body.site_id} has no terminal to carry pump commands: create a terminal first.`,
            );
          const rows = await q<{ id: number }>(
            'insert into pumps (site_id, terminal_id, pump_no) values ($1, $2, $3) returning id',
            [body.site_id, carrier, body.pump_no],
          );
          const pump = { id: num(rows[0].id), site_id: body.site_id, pump_no: body.pump_no };
          await writeAudit(q, actor, 'create', 'pump', pump.id, null, pump);
          await recordChanges(q, [
            fleetAt(actor.agentId, {
              companyId: site.company_id,
              siteId: body.site_id,
              terminalId: carrier,
              pumpId: pump.id,
            }),
          ]);
          return done(pump);
        })
        .catch(
          uniqueAs({ pumps_site_no_uq: `pump_no: site ${body.site_id} already has a pump ${body.pump_no}.` }),
        );
    },

    async patchPump(
      actor: Actor,
      id: number,
      body: Partial<Omit<AdminPump, 'id'>>,
    ): Promise<Outcome<AdminPump>> {
      return database
        .transaction(async (q) => {
          const f = found(await pumpRow(q, id), actor.agentId);
          if (!('row' in f))
            return f.status === 404 ? fail(404, notFoundText('pump', id)) : fail(403, NOT_YOURS);
          const before = toPump(f.row);
          const after: AdminPump = { ...before, ...stripUndefined(body) };
          if (JSON.stringify(after) === JSON.stringify(before)) return done(before);
          let carrier = num(f.row.terminal_id);
          let companyId = num(f.row.company_id);
          if (after.site_id !== before.site_id) {
            const site = await liveSiteOf(q, actor.agentId, after.site_id);
            if (!site) return fail(400, `site_id: no site of yours has id ${after.site_id}.`);
            companyId = num(site.company_id);
            const c = await pumpCarrier(q, after.site_id);
            if (c === null)
              return fail(
                409,
                `Site ${after.site_id} has no terminal to carry pump commands: create a terminal first.`,
              );
            carrier = c;
          }
          await q('update pumps set site_id = $2, pump_no = $3, terminal_id = $4 where id = $1', [
            id,
            after.site_id,
            after.pump_no,
            carrier,
          ]);
          await writeAudit(q, actor, 'update', 'pump', id, before, after);
          // A move names the old place and the new one.
          await recordChanges(q, [
            fleetAt(actor.agentId, {
              companyId: f.row.company_id,
              siteId: before.site_id,
              terminalId: f.row.terminal_id,
              pumpId: id,
            }),
            fleetAt(actor.agentId, { companyId, siteId: after.site_id, terminalId: carrier, pumpId: id }),
          ]);
          return done(after);
        })
        .catch(uniqueAs({ pumps_site_no_uq: `pump_no: the site already has a pump ${body.pump_no}.` }));
    },

    async decommissionPump(actor: Actor, id: number): Promise<Outcome<AdminPump>> {
      return database.transaction(async (q) => {
        const f = found(await pumpRow(q, id), actor.agentId);
        if (!('row' in f))
          return f.status === 404 ? fail(404, notFoundText('pump', id)) : fail(403, NOT_YOURS);
        await q('update pumps set decommissioned_at = now() where id = $1', [id]);
        const pump = toPump(f.row);
        await writeAudit(q, actor, 'decommission', 'pump', id, pump, null);
        await recordChanges(q, [
          fleetAt(actor.agentId, {
            companyId: f.row.company_id,
            siteId: f.row.site_id,
            terminalId: f.row.terminal_id,
            pumpId: id,
          }),
        ]);
        return done(pump);
      });
    },

    // ---------- users ----------
    async listUsers(agentId: number, o: ListOptions & { role?: AdminRole | 'none' }): Promise<AdminUser[]> {
      const p = new Params();
      const a = p.add(agentId);
      const where = [userInAgent(a)];
      if (o.role === 'agent') where.push('u.agent_id is not null');
      if (o.role === 'company')
        where.push('u.agent_id is null and exists (select 1 from user_companies uc where uc.user_id = u.id)');
      if (o.role === 'site')
        where.push(
          `u.agent_id is null and not exists (select 1 from user_companies uc where uc.user_id = u.id)
           and exists (select 1 from user_sites us where us.user_id = u.id)`,
        );
      if (o.role === 'none')
        where.push(
          `u.agent_id is null and not exists (select 1 from user_companies uc where uc.user_id = u.id)
           and not exists (select 1 from user_sites us where us.user_id = u.id)`,
        );
      const rows = await query<UserRaw>(
        `select ${USER_COLS} from users u ${page(where, p, 'u.id', o, ['u.username', 'u.email', 'u.name'])}`,
        p.values,
      );
      return rows.map(toUser);
    },

    async getUser(agentId: number, id: number): Promise<Outcome<AdminUser>> {
      const rows = await query<UserRaw>(
        `select ${USER_COLS}, ${userInAgent('$2')} as mine from users u where u.id = $1`,
        [id, agentId],
      );
      const r = rows[0] as (UserRaw & { mine: boolean }) | undefined;
      if (!r) return fail(404, notFoundText('user', id));
      if (!r.mine) return fail(403, NOT_YOURS);
      return done(toUser(r));
    },

    async createUser(
      actor: Actor,
      body: {
        username: string;
        email: string;
        name: string;
        role: AdminRole;
        company_ids: number[];
        site_ids: number[];
        disabled: boolean;
      },
      passwordHash: string,
    ): Promise<Outcome<AdminUser>> {
      return database
        .transaction(async (q) => {
          const clash = await loginNameClash(q, body, 0);
          if (clash) return fail(409, clash);
          const bad = await badScope(q, actor.agentId, body.role, body.company_ids, body.site_ids);
          if (bad.length) return fail(400, ...bad);
          const rows = await q<{ id: number }>(
            `insert into users (username, email, name, password_hash, agent_id, disabled_at)
             values ($1, $2, $3, $4, $5, case when $6::boolean then now() end) returning id`,
            [
              body.username,
              body.email,
              body.name,
              passwordHash,
              body.role === 'agent' ? actor.agentId : null,
              body.disabled,
            ],
          );
          const id = num(rows[0].id);
          await setScope(q, id, body.role, body.company_ids, body.site_ids);
          const user = toUser((await userRow(q, id))[0]);
          await writeAudit(q, actor, 'create', 'user', id, null, user);
          await recordChanges(q, [fleetAt(actor.agentId, { userId: id })]);
          return done(user);
        })
        .catch(
          uniqueAs({
            users_username_uq: `username: a user named "${body.username}" already exists.`,
            users_email_uq: `email: a user with the address "${body.email}" already exists.`,
          }),
        );
    },

    async patchUser(
      actor: Actor,
      id: number,
      body: {
        username?: string;
        email?: string;
        name?: string;
        role?: AdminRole;
        company_ids?: number[];
        site_ids?: number[];
        disabled?: boolean;
      },
    ): Promise<Outcome<{ user: AdminUser; before: AdminUser }>> {
      return database
        .transaction(async (q) => {
          const rows = await q<UserRaw & { mine: boolean }>(
            `select ${USER_COLS}, ${userInAgent('$2')} as mine from users u where u.id = $1 for update`,
            [id, actor.agentId],
          );
          if (!rows[0]) return fail(404, notFoundText('user', id));
          if (!rows[0].mine) return fail(403, NOT_YOURS);
          const before = toUser(rows[0]);
          const clash = await loginNameClash(q, body, id);
          if (clash) return fail(409, clash);
          if (id === actor.userId && body.disabled === true)
            return fail(409, 'disabled: you cannot disable your own account.');
          if (id === actor.userId && body.role !== undefined && body.role !== 'agent')
            return fail(409, 'role: you cannot take away your own agent role.');
          const role = body.role ?? before.role;
          const scopeChanges =
            body.role !== undefined || body.company_ids !== undefined || body.site_ids !== undefined;
          const companyIds = body.company_ids ?? (body.role !== undefined ? [] : before.company_ids);
          const siteIds = body.site_ids ?? (body.role !== undefined ? [] : before.site_ids);
          if (scopeChanges) {
            if (role === null)
              return fail(400, "role: give the user a role ('agent', 'company' or 'site') with its scope.");
            if (role === 'company' && !companyIds.length)
              return fail(400, 'company_ids must name at least one company for a company user');
            if (role === 'site' && !siteIds.length)
              return fail(400, 'site_ids must name at least one site for a site user');
            const bad = await badScope(q, actor.agentId, role, companyIds, siteIds);
            if (bad.length) return fail(400, ...bad);
          }
          await q(
            `update users set username = $2, email = $3, name = $4,
                    disabled_at = case when $5::boolean is null then disabled_at
                                       when $5::boolean then coalesce(disabled_at, now()) else null end
              where id = $1`,
            [
              id,
              body.username ?? before.username,
              body.email ?? before.email,
              body.name ?? before.name,
              body.disabled ?? null,
            ],
          );
          if (scopeChanges && role !== null) {
            await q('update users set agent_id = $2 where id = $1', [
              id,
              role === 'agent' ? actor.agentId : null,
            ]);
            await q('delete from user_companies where user_id = $1', [id]);
            await q('delete from user_sites where user_id = $1', [id]);
            await setScope(q, id, role, companyIds, siteIds);
          }
          const user = toUser((await userRow(q, id))[0]);
          if (JSON.stringify(user) !== JSON.stringify(before)) {
            const action = body.disabled === true && !before.disabled ? 'disable' : 'update';
            await writeAudit(q, actor, action, 'user', id, before, user);
            // 'session': its rights, name or state changed; every node forgets its principal (a disabled user's
            // streams end).
            await recordChanges(q, [fleetAt(actor.agentId, { userId: id }), { kind: 'session', userId: id }]);
          }
          return done({ user, before });
        })
        .catch(
          uniqueAs({
            users_username_uq: `username: a user named "${body.username}" already exists.`,
            users_email_uq: `email: a user with the address "${body.email}" already exists.`,
          }),
        );
    },
  };
}
export type AdminRepository = ReturnType<typeof createAdminRepository>;

/**
 * Usernames and emails are one namespace (docs/decisions/0004-accounts-and-passwords.md): the 409 text when
 * `username` is another user's email or `email` another user's username (a username or email taken as such
 * is the unique index's 409), else null.
 */
async function loginNameClash(
  q: QueryFn,
  names: { username?: string; email?: string },
  exceptUserId: number,
): Promise<string | null> {
  const taken = async (column: 'username' | 'email', value: string | undefined) =>
    value !== undefined &&
    (
      await q(`select 1 from users where id <> $2 and lower(${column}) = lower($1) limit 1`, [
        value,
        exceptUserId,
      ])
    ).length > 0;
  if (await taken('email', names.username))
    return `username: "${names.username}" is another user's email address.`;
  if (await taken('username', names.email)) return `email: "${names.email}" is another user's username.`;
  return null;
}

/** Company and site ids a user may be given: live ones of the agent; the others are named. */
async function badScope(
  q: QueryFn,
  agentId: number,
  role: AdminRole,
  companyIds: number[],
  siteIds: number[],
): Promise<string[]> {
  const errors: string[] = [];
  if (role === 'company' && companyIds.length) {
    const rows = await q<{ id: number }>(
      'select id from companies where id = any($1::int[]) and agent_id = $2 and decommissioned_at is null',
      [companyIds, agentId],
    );
    const ok = new Set(rows.map((r) => num(r.id)));
    const missing = companyIds.filter((c) => !ok.has(c));
    if (missing.length) errors.push(`company_ids: no company of yours has id ${missing.join(', ')}.`);
  }
  if (role === 'site' && siteIds.length) {
    const rows = await q<{ id: number }>(
      'select id from sites where id = any($1::int[]) and agent_id = $2 and decommissioned_at is null',
      [siteIds, agentId],
    );
    const ok = new Set(rows.map((r) => num(r.id)));
    const missing = siteIds.filter((s) => !ok.has(s));
    if (missing.length) errors.push(`site_ids: no site of yours has id ${missing.join(', ')}.`);
  }
  return errors;
}

async function setScope(
  q: QueryFn,
  userId: number,
  role: AdminRole,
  companyIds: number[],
  siteIds: number[],
) {
  if (role === 'company')
    await q('insert into user_companies (user_id, company_id) select $1, unnest($2::int[])', [
      userId,
      companyIds,
    ]);
  if (role === 'site')
    await q('insert into user_sites (user_id, site_id) select $1, unnest($2::int[])', [userId, siteIds]);
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** A unique violation of one of these indexes is a 409 naming the field; anything else goes on. */
function uniqueAs(messages: Record<string, string>) {
  return (err: unknown): Outcome<never> => {
    for (const [index, message] of Object.entries(messages)) {
      if (isUniqueViolation(err, index)) return fail(409, message);
    }
    throw err;
  };
}
