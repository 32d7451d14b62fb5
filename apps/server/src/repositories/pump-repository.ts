import type { AdminPump } from '@forecourt/contract/admin';
import type { Database, QueryFn } from '../db/client.ts';
import type { pumps, sites } from '../db/schema/org.ts';
import { OPEN_STATES_SQL } from './command-read-model.ts';
import { type PumpDbRow, type PumpRow, pumpSelect, toPumpRow } from './pump-read-model.ts';
import { type ListOptions, num, Params, pageSql } from './read-scope.ts';
import type { Row } from './rows.ts';
import type { Tx } from './unit-of-work.ts';

/** A pump `settlePumps` wrote: where it is, for the change its caller records. */
export interface SettledPump {
  id: number;
  siteId: number;
  /** The terminal that carries the pump's commands. */
  terminalId: number;
}

/**
 * The one place pump state is written after a request: each pump's device-confirmed status
 * (`last_synapse_status`) takes `confirmed` when given (a device report or an acknowledged command), and its
 * requested `status` follows the confirmed one unless a command of the pump is still queued or sent (then the
 * request stands until that command ends). The acknowledgement, the deadline sweep and the device's status
 * reports all settle through here, inside their own transaction. Answers the pumps it wrote.
 */
export async function settlePumps(
  q: QueryFn,
  pumps: ReadonlyArray<{ id: number; confirmed: number | null }>,
  at: Date | null = null,
): Promise<SettledPump[]> {
  const byId = new Map(pumps.map((p) => [p.id, p.confirmed]));
  if (!byId.size) return [];
  const rows = await q<{ id: number; site_id: number; terminal_id: number }>(
    `update pumps p
        set last_synapse_status = coalesce(v.confirmed, p.last_synapse_status),
            status = case when exists (select 1 from commands c
                                        where c.pump_id = p.id and c.state in ${OPEN_STATES_SQL})
                          then p.status else coalesce(v.confirmed, p.last_synapse_status) end,
            updated_at = coalesce($3::timestamptz, now())
       from unnest($1::int[], $2::int2[]) as v(id, confirmed)
      where p.id = v.id
      returning p.id, p.site_id, p.terminal_id`,
    [[...byId.keys()], [...byId.values()], at],
  );
  return rows.map((r) => ({ id: r.id, siteId: r.site_id, terminalId: r.terminal_id }));
}

/** A pump as the fleet administration reads it, with its site's agent and company. */
export type AdminPumpRow = Row<
  typeof pumps,
  'id' | 'site_id' | 'pump_no' | 'terminal_id' | 'decommissioned_at'
> &
  Row<typeof sites, 'agent_id' | 'company_id'>;
const ADMIN_PUMP_SELECT =
  'select p.id, s.agent_id, s.company_id, p.site_id, p.pump_no, p.terminal_id, p.decommissioned_at from pumps p join sites s on s.id = p.site_id';

/** The administration's shape of a pump row. */
export const toAdminPump = (r: Pick<AdminPumpRow, 'id' | 'site_id' | 'pump_no'>): AdminPump => ({
  id: num(r.id),
  site_id: num(r.site_id),
  pump_no: num(r.pump_no),
});

/** A pump to insert: its site, the terminal that carries it (pump-carrier.ts) and its number. */
export interface NewPump {
  siteId: number;
  terminalId: number;
  pumpNo: number;
}

export function createPumpRepository(database: Database) {
  const query: QueryFn = database.query.bind(database);
  return {
    /** The agent's live pumps (of one site with `siteId`), newest first. */
    async list(agentId: number, o: ListOptions & { siteId?: number }): Promise<AdminPump[]> {
      const p = new Params();
      const where = [`s.agent_id = ${p.add(agentId)}`, 'p.decommissioned_at is null'];
      if (o.siteId !== undefined) where.push(`p.site_id = ${p.add(o.siteId)}`);
      const rows = await query<AdminPumpRow>(
        `${ADMIN_PUMP_SELECT} ${pageSql(where, p, 'p.id', o, ['p.pump_no::text', 's.title', 's.number'])}`,
        p.values,
      );
      return rows.map(toAdminPump);
    },

    /** A pump by id, decommissioned or not; null when there is none. */
    async byId(id: number, q: QueryFn = query): Promise<AdminPumpRow | null> {
      const rows = await q<AdminPumpRow>(`${ADMIN_PUMP_SELECT} where p.id = $1`, [id]);
      return rows[0] ?? null;
    },

    /** The live pumps of a site, by number. */
    async liveOfSite(q: QueryFn, siteId: number): Promise<Array<Row<typeof pumps, 'id' | 'pump_no'>>> {
      return q<Row<typeof pumps, 'id' | 'pump_no'>>(
        'select id, pump_no from pumps where site_id = $1 and decommissioned_at is null order by pump_no',
        [siteId],
      );
    },

    /** The live pumps a terminal carries, by number. */
    async carriedBy(q: QueryFn, terminalId: number): Promise<Array<Row<typeof pumps, 'id' | 'pump_no'>>> {
      return q<Row<typeof pumps, 'id' | 'pump_no'>>(
        'select id, pump_no from pumps where terminal_id = $1 and decommissioned_at is null order by pump_no',
        [terminalId],
      );
    },

    /** How many live pumps each of these terminals carries (terminals carrying none are left out). */
    async carriedCounts(q: QueryFn, terminalIds: readonly number[]): Promise<Map<number, number>> {
      if (!terminalIds.length) return new Map();
      const rows = await q<{ terminal_id: number; n: number | string }>(
        `select p.terminal_id, count(*) as n from pumps p
          where p.terminal_id = any($1::int[]) and p.decommissioned_at is null group by p.terminal_id`,
        [terminalIds],
      );
      return new Map(rows.map((r) => [num(r.terminal_id), num(r.n)]));
    },

    /** The numbers of each of these sites' live pumps. */
    async liveNumbers(q: QueryFn, siteIds: readonly number[]): Promise<Map<number, Set<number>>> {
      const out = new Map<number, Set<number>>();
      if (!siteIds.length) return out;
      const rows = await q<Row<typeof pumps, 'site_id' | 'pump_no'>>(
        'select site_id, pump_no from pumps where site_id = any($1::int[]) and decommissioned_at is null',
        [siteIds],
      );
      for (const r of rows) {
        const set = out.get(num(r.site_id)) ?? new Set<number>();
        set.add(num(r.pump_no));
        out.set(num(r.site_id), set);
      }
      return out;
    },

    /** Inserts pumps in the order given; answers them. */
    async insert(
      tx: Tx,
      rows: readonly NewPump[],
    ): Promise<Array<Row<typeof pumps, 'id' | 'site_id' | 'pump_no'>>> {
      return tx<Row<typeof pumps, 'id' | 'site_id' | 'pump_no'>>(
        `insert into pumps (site_id, terminal_id, pump_no)
         select u.s, u.t, u.n from unnest($1::int[], $2::int[], $3::int[]) with ordinality as u(s, t, n, o)
          order by u.o
         returning id, site_id, pump_no`,
        [rows.map((r) => r.siteId), rows.map((r) => r.terminalId), rows.map((r) => r.pumpNo)],
      );
    },

    async update(tx: Tx, id: number, to: NewPump): Promise<void> {
      await tx('update pumps set site_id = $2, pump_no = $3, terminal_id = $4 where id = $1', [
        id,
        to.siteId,
        to.pumpNo,
        to.terminalId,
      ]);
    },

    /** The live pumps one terminal carries go to another. */
    async changeCarrier(tx: Tx, from: number, to: number): Promise<void> {
      await tx('update pumps set terminal_id = $2 where terminal_id = $1 and decommissioned_at is null', [
        from,
        to,
      ]);
    },

    async decommission(tx: Tx, id: number): Promise<void> {
      await tx('update pumps set decommissioned_at = now() where id = $1', [id]);
    },

    async get(id: number): Promise<PumpRow | null> {
      const rows = await database.query<PumpDbRow>(`${pumpSelect} where p.id = $1`, [id]);
      return rows[0] ? toPumpRow(rows[0]) : null;
    },
    /** The pumps whose commands a terminal carries. */
    async byTerminal(terminalId: number): Promise<PumpRow[]> {
      const rows = await database.query<PumpDbRow>(
        `${pumpSelect} where p.terminal_id = $1 and p.decommissioned_at is null order by p.pump_no`,
        [terminalId],
      );
      return rows.map(toPumpRow);
    },
    /** Pump numbers and ids of a site, for device status reports. */
    async bySite(siteId: number): Promise<Map<number, number>> {
      const rows = await database.query<{ id: number; pump_no: number }>(
        'select id, pump_no from pumps where site_id = $1 and decommissioned_at is null',
        [siteId],
      );
      return new Map(rows.map((r) => [r.pump_no, r.id]));
    },
  };
}
export type PumpRepository = ReturnType<typeof createPumpRepository>;
