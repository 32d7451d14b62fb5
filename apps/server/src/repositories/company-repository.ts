import type { Company } from '@forecourt/contract/admin';
import type { Database, QueryFn } from '../db/client.ts';
import type { companies } from '../db/schema/org.ts';
import { type ListOptions, num, Params, pageSql } from './read-scope.ts';
import type { Row } from './rows.ts';
import type { Tx } from './unit-of-work.ts';

export interface CompanyDetailRow {
  id: number;
  name: string;
  agentId: number;
  logo: string | null;
  sitesCount: number;
}

/** A company as the fleet administration reads it. */
export type CompanyRow = Row<typeof companies, 'id' | 'agent_id' | 'name' | 'decommissioned_at'>;

/** The `companies` table. Decommissioned rows stay (the logs and the audit name them) but leave every list. */
export function createCompanyRepository(database: Database) {
  const query: QueryFn = database.query.bind(database);
  return {
    async detail(id: number): Promise<CompanyDetailRow | null> {
      const rows = await query<
        Row<typeof companies, 'id' | 'name' | 'agent_id' | 'logo'> & { sites_count: number | string }
      >(
        `select c.id, c.name, c.agent_id, c.logo,
                (select count(*) from sites s where s.company_id = c.id and s.decommissioned_at is null) as sites_count
           from companies c where c.id = $1`,
        [id],
      );
      const r = rows[0];
      return r
        ? { id: r.id, name: r.name, agentId: r.agent_id, logo: r.logo, sitesCount: Number(r.sites_count) }
        : null;
    },

    /** The agent's live companies, newest first. */
    async list(agentId: number, o: ListOptions): Promise<Company[]> {
      const p = new Params();
      const where = [`c.agent_id = ${p.add(agentId)}`, 'c.decommissioned_at is null'];
      const rows = await query<Row<typeof companies, 'id' | 'name'>>(
        `select c.id, c.name from companies c ${pageSql(where, p, 'c.id', o, ['c.name'])}`,
        p.values,
      );
      return rows.map((r) => ({ id: num(r.id), name: r.name }));
    },

    /** A company by id, decommissioned or not; null when there is none. */
    async byId(id: number, q: QueryFn = query): Promise<CompanyRow | null> {
      const rows = await q<CompanyRow>(
        'select id, agent_id, name, decommissioned_at from companies where id = $1',
        [id],
      );
      return rows[0] ?? null;
    },

    /** The agent's live companies. */
    async liveOf(q: QueryFn, agentId: number): Promise<Array<Row<typeof companies, 'id' | 'name'>>> {
      const rows = await q<Row<typeof companies, 'id' | 'name'>>(
        'select id, name from companies where agent_id = $1 and decommissioned_at is null',
        [agentId],
      );
      return rows.map((r) => ({ id: num(r.id), name: r.name }));
    },

    /** Which of `ids` are live companies of the agent. */
    async liveIds(q: QueryFn, agentId: number, ids: readonly number[]): Promise<Set<number>> {
      const rows = await q<Row<typeof companies, 'id'>>(
        'select id from companies where id = any($1::int[]) and agent_id = $2 and decommissioned_at is null',
        [ids, agentId],
      );
      return new Set(rows.map((r) => num(r.id)));
    },

    /** Inserts companies of the agent in the order given; answers their ids and names. */
    async insert(
      tx: Tx,
      agentId: number,
      names: readonly string[],
    ): Promise<Array<Row<typeof companies, 'id' | 'name'>>> {
      const rows = await tx<Row<typeof companies, 'id' | 'name'>>(
        `insert into companies (agent_id, name) select $1, n from unnest($2::text[]) with ordinality u(n, o)
         order by o returning id, name`,
        [agentId, names],
      );
      return rows.map((r) => ({ id: num(r.id), name: r.name }));
    },

    async rename(tx: Tx, id: number, name: string): Promise<void> {
      await tx('update companies set name = $2 where id = $1', [id, name]);
    },

    async decommission(tx: Tx, id: number): Promise<void> {
      await tx('update companies set decommissioned_at = now() where id = $1', [id]);
    },
  };
}
export type CompanyRepository = ReturnType<typeof createCompanyRepository>;
