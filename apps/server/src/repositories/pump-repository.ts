import type { Pump } from '@forecourt/contract/pumps';
import type { Database, QueryFn } from '../db/client.ts';
import { OPEN_STATES_SQL } from './command-read-model.ts';

export interface PumpRow {
  id: number;
  pumpNo: number;
  siteId: number;
  siteTitle: string;
  terminalId: number;
  status: number;
  lastSynapseStatus: number;
}

export const pumpSelect = `
  select p.id, p.pump_no, p.site_id, s.title as site_title, p.terminal_id, p.status, p.last_synapse_status
    from pumps p join sites s on s.id = p.site_id`;

/** A row of `pumpSelect`. */
export interface PumpDbRow {
  id: number;
  pump_no: number;
  site_id: number;
  site_title: string;
  terminal_id: number;
  status: number;
  last_synapse_status: number;
}

/** The one mapping of a pump row: `pumpSelect` → PumpRow (→ the public Pump with `toPump`). */
export function toPumpRow(r: PumpDbRow): PumpRow {
  return {
    id: r.id,
    pumpNo: r.pump_no,
    siteId: r.site_id,
    siteTitle: r.site_title,
    terminalId: r.terminal_id,
    status: Number(r.status),
    lastSynapseStatus: Number(r.last_synapse_status),
  };
}

/** The public pump shape: `status` is the requested state, `last_synapse_status` the device-confirmed one. */
export function toPump(p: PumpRow): Pump {
  return {
    id: p.id,
    pump_no: p.pumpNo,
    site: p.siteTitle,
    site_id: p.siteId,
    status: p.status,
    last_synapse_status: p.lastSynapseStatus,
  };
}

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

export function createPumpRepository(database: Database) {
  return {
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
