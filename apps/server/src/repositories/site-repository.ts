import type { AdminSite } from '@forecourt/contract/admin';
import type { Database, QueryFn } from '../db/client.ts';
import type { sites } from '../db/schema/org.ts';
import { type ListOptions, nullableNum, num, Params, pageSql } from './read-scope.ts';
import { type ColumnOf, type Row, selectList } from './rows.ts';
import type { Tx } from './unit-of-work.ts';

export interface SiteDetailRow {
  id: number;
  title: string;
  number: string;
  companyId: number;
  companyName: string;
  lat: number | null;
  lng: number | null;
  city: string | null;
  timezone: string;
}

const SITE_COLUMNS = [
  'id',
  'agent_id',
  'company_id',
  'title',
  'number',
  'lat',
  'lng',
  'timezone',
  'address',
  'decommissioned_at',
] as const satisfies readonly ColumnOf<typeof sites>[];
/** A site as the fleet administration reads it. */
export type SiteRow = Row<typeof sites, (typeof SITE_COLUMNS)[number]>;
const SITE_SELECT = (alias: string) => selectList<typeof sites>(alias, SITE_COLUMNS);

/** The administration's shape of a site row. */
export const toAdminSite = (r: SiteRow): AdminSite => ({
  id: num(r.id),
  company_id: num(r.company_id),
  title: r.title,
  number: r.number,
  lat: nullableNum(r.lat),
  lng: nullableNum(r.lng),
  timezone: r.timezone,
  address: r.address,
});

/** What an import knows of one of the agent's live sites. */
export type ImportSiteRow = Row<
  typeof sites,
  'id' | 'company_id' | 'title' | 'number' | 'lat' | 'lng' | 'timezone' | 'address'
>;

/** The `sites` table. Decommissioned rows stay (the logs and the audit name them) but leave every list. */
export function createSiteRepository(database: Database) {
  const query: QueryFn = database.query.bind(database);
  return {
    async detail(id: number): Promise<SiteDetailRow | null> {
      const rows = await query<
        Row<typeof sites, 'id' | 'title' | 'number' | 'company_id' | 'lat' | 'lng' | 'city' | 'timezone'> & {
          company_name: string;
        }
      >(
        `select s.id, s.title, s.number, s.company_id, c.name as company_name, s.lat, s.lng, s.city, s.timezone
           from sites s join companies c on c.id = s.company_id where s.id = $1`,
        [id],
      );
      const r = rows[0];
      return r
        ? {
            id: r.id,
            title: r.title,
            number: r.number,
            companyId: r.company_id,
            companyName: r.company_name,
            lat: nullableNum(r.lat),
            lng: nullableNum(r.lng),
            city: r.city,
            timezone: r.timezone,
          }
        : null;
    },

    /** The agent's live sites (of one company with `companyId`), newest first. */
    async list(agentId: number, o: ListOptions & { companyId?: number }): Promise<AdminSite[]> {
      const p = new Params();
      const where = [`s.agent_id = ${p.add(agentId)}`, 's.decommissioned_at is null'];
      if (o.companyId !== undefined) where.push(`s.company_id = ${p.add(o.companyId)}`);
      const rows = await query<SiteRow>(
        `select ${SITE_SELECT('s')} from sites s ${pageSql(where, p, 's.id', o, ['s.title', 's.number', 's.address'])}`,
        p.values,
      );
      return rows.map(toAdminSite);
    },

    /** A site by id, decommissioned or not; null when there is none. */
    async byId(id: number, q: QueryFn = query): Promise<SiteRow | null> {
      const rows = await q<SiteRow>(`select ${SITE_SELECT('s')} from sites s where s.id = $1`, [id]);
      return rows[0] ?? null;
    },

    /** Where a live site sits (its company), or null. */
    async place(q: QueryFn, id: number): Promise<{ companyId: number } | null> {
      const rows = await q<Row<typeof sites, 'company_id'>>(
        'select company_id from sites where id = $1 and decommissioned_at is null',
        [id],
      );
      return rows[0] ? { companyId: num(rows[0].company_id) } : null;
    },

    /** The live sites of a company, oldest first. */
    async liveOfCompany(
      q: QueryFn,
      companyId: number,
    ): Promise<Array<Row<typeof sites, 'id' | 'title' | 'number'>>> {
      return q<Row<typeof sites, 'id' | 'title' | 'number'>>(
        'select id, title, number from sites where company_id = $1 and decommissioned_at is null order by id',
        [companyId],
      );
    },

    /** Which of `ids` are live sites of the agent. */
    async liveIds(q: QueryFn, agentId: number, ids: readonly number[]): Promise<Set<number>> {
      const rows = await q<Row<typeof sites, 'id'>>(
        'select id from sites where id = any($1::int[]) and agent_id = $2 and decommissioned_at is null',
        [ids, agentId],
      );
      return new Set(rows.map((r) => num(r.id)));
    },

    /** The agent's live sites. */
    async liveOf(q: QueryFn, agentId: number): Promise<ImportSiteRow[]> {
      return q<ImportSiteRow>(
        `select s.id, s.company_id, s.title, s.number, s.lat, s.lng, s.timezone, s.address
           from sites s where s.agent_id = $1 and s.decommissioned_at is null`,
        [agentId],
      );
    },

    async insert(
      tx: Tx,
      agentId: number,
      rows: ReadonlyArray<Omit<AdminSite, 'id' | 'address'> & { address?: string | null }>,
    ): Promise<SiteRow[]> {
      return tx<SiteRow>(
        `insert into sites (company_id, agent_id, title, number, lat, lng, timezone, address)
         select u.c, $1, u.t, u.n, u.la, u.ln, u.tz, u.a
           from unnest($2::int[], $3::text[], $4::text[], $5::float8[], $6::float8[], $7::text[], $8::text[])
                with ordinality as u(c, t, n, la, ln, tz, a, o)
          order by u.o
         returning ${SITE_COLUMNS.join(', ')}`,
        [
          agentId,
          rows.map((s) => s.company_id),
          rows.map((s) => s.title),
          rows.map((s) => s.number),
          rows.map((s) => s.lat),
          rows.map((s) => s.lng),
          rows.map((s) => s.timezone),
          rows.map((s) => s.address ?? null),
        ],
      );
    },

    /** Writes every field of the given sites. */
    async update(tx: Tx, rows: readonly AdminSite[]): Promise<void> {
      await tx(
        `update sites s set company_id = u.c, title = u.t, number = u.n, lat = u.la, lng = u.ln, timezone = u.tz,
                address = u.a
           from unnest($1::int[], $2::int[], $3::text[], $4::text[], $5::float8[], $6::float8[], $7::text[],
                       $8::text[]) as u(id, c, t, n, la, ln, tz, a)
          where s.id = u.id`,
        [
          rows.map((s) => s.id),
          rows.map((s) => s.company_id),
          rows.map((s) => s.title),
          rows.map((s) => s.number),
          rows.map((s) => s.lat),
          rows.map((s) => s.lng),
          rows.map((s) => s.timezone),
          rows.map((s) => s.address),
        ],
      );
    },

    async decommission(tx: Tx, id: number): Promise<void> {
      await tx('update sites set decommissioned_at = now() where id = $1', [id]);
    },
  };
}
export type SiteRepository = ReturnType<typeof createSiteRepository>;
