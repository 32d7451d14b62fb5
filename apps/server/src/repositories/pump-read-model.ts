import type { Pump } from '@forecourt/contract/pumps';

/** How pumps are read and shown: the select, its row, and the public shape (no writes here). */

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
