import type { Alert } from '@forecourt/contract/fleet';
import { eventName } from '@forecourt/contract/formatters';
import type { Database } from '../db/client.ts';
import {
  addLogFilters,
  iso,
  type LogFilters,
  num,
  Params,
  type ReadScope,
  scopeColumn,
} from './read-scope.ts';

export interface AlertRow extends Alert {
  id: number;
  terminal_id: number;
  cursor: string;
  /** IANA zone of the alert's site. */
  timezone: string;
}

interface DbRow {
  id: number | string;
  text: string;
  started_at: Date | string;
  created_at: Date | string;
  event_type: number;
  terminal_id: number;
  site_id: number;
  company_id: number;
  number: string;
  site_name: string;
  customer_name: string;
  timezone: string;
}

export interface AlertFilters extends LogFilters {
  eventTypes?: readonly number[];
}

/** Alerts of an agent, company or site: newest first, with the terminal number, site and company names. */
export function createAlertRepository(database: Database) {
  return {
    async list(scope: ReadScope, f: AlertFilters): Promise<AlertRow[]> {
      const p = new Params();
      const where = [`${scopeColumn(scope, 'a')} = ${p.add(scope.id)}`];
      if (f.eventTypes?.length)
        where.push(`a.event_type = any(${p.add(`{${f.eventTypes.join(',')}}`)}::int[])`);
      addLogFilters(where, p, f, {
        id: 'a.id',
        time: 'a.started_at',
        search: ['a.text', 't.terminal_no', 's.title', 'c.name'],
        terminal: 't',
      });
      const rows = await database.query<DbRow>(
        `select a.id, a.text, a.started_at, a.created_at, a.event_type, a.terminal_id, a.site_id, a.company_id,
                t.terminal_no as number, s.title as site_name, c.name as customer_name, s.timezone
           from alerts a
           join terminals t on t.id = a.terminal_id
           join sites s on s.id = a.site_id
           join companies c on c.id = a.company_id
          where ${where.join(' and ')}
          order by a.id desc
          limit ${p.add(f.limit)}`,
        p.values,
      );
      return rows.map((r) => ({
        id: num(r.id),
        cursor: String(r.id),
        text: r.text,
        started_at: iso(r.started_at)!,
        created_at: iso(r.created_at)!,
        event_type: Number(r.event_type),
        number: r.number,
        issue: eventName(r.text),
        customer_name: r.customer_name,
        site_name: r.site_name,
        site_id: r.site_id,
        company_id: r.company_id,
        terminal_id: r.terminal_id,
        timezone: r.timezone,
      }));
    },
  };
}
export type AlertRepository = ReturnType<typeof createAlertRepository>;
