import { commandStatusText } from '@forecourt/contract/commands';
import type {
  ConnectivityLogEntry,
  PumpActivationLogRow,
  PumpStatusLogRow,
  RebootLogEntry,
  ShockLogEntry,
} from '@forecourt/contract/logs';
import { PUMP_STATUS_NORMAL } from '@forecourt/contract/pumps';
import type { Database } from '../db/client.ts';
import { type CommandDbRow, commandSelect, toCommand } from './command-read-model.ts';
import {
  addLogFilters,
  iso,
  type LogFilters,
  num,
  Params,
  type ReadScope,
  scopeColumn,
} from './read-scope.ts';

interface TelemetryDbRow {
  id: number | string;
  at: Date | string;
  terminal_id: number;
  terminal_no: string;
  site_title: string;
  site_number: string;
  timezone: string;
  battery_life: number | null;
  flash_left: number | null;
  temperature_main_board: number | null;
  temperature_inside_cabinet: number | null;
  humidity_inside_cabinet: number | null;
}

export interface TelemetryLogRow {
  id: number;
  cursor: string;
  created_at: string;
  terminal: { terminal_id: string; id: number };
  customer: string;
  site_number: string;
  timezone: string;
  battery_life: number | null;
  flash_left: number | null;
  temperature_main_board: number | null;
  temperature_inside_cabinet: number | null;
  humidity_inside_cabinet: number | null;
}

export type TelemetryKind = 'battery' | 'flashdrive' | 'environment';
const TELEMETRY_PRESENT: Record<TelemetryKind, string> = {
  battery: 'x.battery_life is not null',
  flashdrive: 'x.flash_left is not null',
  environment:
    '(x.temperature_main_board is not null or x.temperature_inside_cabinet is not null or x.humidity_inside_cabinet is not null)',
};

/** Paged log reads: newest first by id (ids follow arrival), `before` = the id of the last row seen. */
export function createLogRepository(database: Database) {
  async function commands(
    scope: ReadScope,
    kinds: readonly string[],
    f: LogFilters & { states?: readonly string[]; pumpNo?: number },
  ): Promise<CommandDbRow[]> {
    const p = new Params();
    const where = [
      `${scopeColumn(scope, 'c')} = ${p.add(scope.id)}`,
      `c.kind = any(${p.add(`{${kinds.join(',')}}`)}::text[])`,
    ];
    if (f.states?.length) where.push(`c.state = any(${p.add(`{${f.states.join(',')}}`)}::text[])`);
    if (f.pumpNo !== undefined) where.push(`c.pump_no = ${p.add(f.pumpNo)}`);
    addLogFilters(where, p, f, {
      id: 'c.id',
      time: 'c.created_at',
      search: [
        'c.kind',
        'c.state',
        'c.reboot_type',
        'c.requested_by_name',
        'c.detail',
        't.terminal_no',
        's.title',
      ],
      terminal: 't',
    });
    return database.query<CommandDbRow>(
      `${commandSelect} where ${where.join(' and ')} order by c.id desc limit ${p.add(f.limit)}`,
      p.values,
    );
  }

  return {
    /** Every on/off change of the terminals in scope. */
    async connectivity(
      scope: ReadScope,
      f: LogFilters & { status?: 'on' | 'off' },
    ): Promise<ConnectivityLogEntry[]> {
      const p = new Params();
      const where = [`${scopeColumn(scope, 'e')} = ${p.add(scope.id)}`];
      if (f.status) where.push(`e.status = ${p.add(f.status)}`);
      addLogFilters(where, p, f, {
        id: 'e.id',
        time: 'e.at',
        search: ['e.status', 't.terminal_no', 's.title', 'c.name'],
        terminal: 't',
      });
      const rows = await database.query<{
        id: number | string;
        site_id: number;
        title: string;
        number: string;
        terminal_id: number;
        status: string;
        at: Date | string;
        customer_name: string;
        timezone: string;
      }>(
        `select e.id, e.site_id, s.title, t.terminal_no as number, e.terminal_id, e.status, e.at, c.name as customer_name,
                s.timezone
           from connectivity_events e
           join terminals t on t.id = e.terminal_id
           join sites s on s.id = e.site_id
           join companies c on c.id = e.company_id
          where ${where.join(' and ')}
          order by e.id desc
          limit ${p.add(f.limit)}`,
        p.values,
      );
      return rows.map((r) => ({
        id: num(r.id),
        cursor: String(r.id),
        site_id: r.site_id,
        title: r.title,
        number: r.number,
        terminal_id: r.terminal_id,
        status: r.status === 'on' ? 'on' : 'off',
        date: iso(r.at)!,
        customer_name: r.customer_name,
        timezone: r.timezone,
      }));
    },

    async reboots(
      scope: ReadScope,
      f: LogFilters & { states?: readonly string[] },
    ): Promise<RebootLogEntry[]> {
      const rows = await commands(scope, ['reboot'], f);
      return rows.map((r) => ({
        ...toCommand(r),
        cursor: String(r.id),
        site_title: r.site_title,
        status: commandStatusText(r.state),
        timezone: r.timezone,
      }));
    },

    async pumpActivations(
      scope: ReadScope,
      f: LogFilters & { states?: readonly string[]; pumpNo?: number },
    ): Promise<PumpActivationLogRow[]> {
      const rows = await commands(scope, ['pump_on', 'pump_off'], f);
      return rows.map((r) => {
        const c = toCommand(r);
        return {
          id: c.id,
          cursor: String(r.id),
          pump_id: c.pump_id ?? 0,
          pump_no: c.pump_no ?? 0,
          kind: c.kind as 'pump_on' | 'pump_off',
          state: c.state,
          requested_by: c.requested_by,
          created_at: c.created_at,
          completed_at: iso(r.completed_at),
          site: r.site_title,
          site_id: c.site_id,
          terminal_id: c.terminal_id,
          terminal_number: c.terminal_number,
          detail: c.detail,
          timezone: r.timezone,
        };
      });
    },

    async pumpStatus(
      siteId: number,
      f: LogFilters & { pumpNo?: number; abnormal?: boolean },
    ): Promise<PumpStatusLogRow[]> {
      const p = new Params();
      const where = [`e.site_id = ${p.add(siteId)}`];
      if (f.pumpNo !== undefined) where.push(`p.pump_no = ${p.add(f.pumpNo)}`);
      if (f.abnormal) where.push(`e.code <> ${PUMP_STATUS_NORMAL}`);
      addLogFilters(where, p, f, { id: 'e.id', time: 'e.created_at', search: ['e.text', 'e.code::text'] });
      const rows = await database.query<{
        id: number | string;
        pump_id: number;
        pump_no: number;
        created_at: Date | string;
        text: string;
        code: number;
        reported_status: number;
        timezone: string;
      }>(
        `select e.id, e.pump_id, p.pump_no, e.created_at, e.text, e.code, e.reported_status, s.timezone
           from pump_status_entries e join pumps p on p.id = e.pump_id join sites s on s.id = e.site_id
          where ${where.join(' and ')}
          order by e.id desc
          limit ${p.add(f.limit)}`,
        p.values,
      );
      return rows.map((r) => ({
        id: num(r.id),
        cursor: String(r.id),
        pump_id: r.pump_id,
        pump_no: r.pump_no,
        created_at: iso(r.created_at)!,
        text: r.text,
        status: Number(r.code),
        reported_status: Number(r.reported_status),
        timezone: r.timezone,
      }));
    },

    async shocks(scope: ReadScope, f: LogFilters & { min?: number }): Promise<ShockLogEntry[]> {
      const p = new Params();
      const where = [`${scopeColumn(scope, 'x')} = ${p.add(scope.id)}`];
      if (f.min !== undefined) where.push(`x.reading >= ${p.add(f.min)}`);
      addLogFilters(where, p, f, {
        id: 'x.id',
        time: 'x.created_at',
        search: ['t.terminal_no', 't.card_acceptor_name', 's.title', 'x.reading::text'],
        terminal: 't',
      });
      const rows = await database.query<{
        id: number | string;
        reading: number;
        created_at: Date | string;
        site_id: number;
        company_id: number;
        card_acceptor_name: string;
        terminal_no: string;
        terminal_id: number;
        site_title: string;
        site_number: string;
        timezone: string;
      }>(
        `select x.id, x.reading, x.created_at, x.site_id, x.company_id, t.card_acceptor_name, t.terminal_no,
                x.terminal_id, s.title as site_title, s.number as site_number, s.timezone
           from shocks x join terminals t on t.id = x.terminal_id join sites s on s.id = x.site_id
          where ${where.join(' and ')}
          order by x.id desc
          limit ${p.add(f.limit)}`,
        p.values,
      );
      return rows.map((r) => ({
        id: num(r.id),
        cursor: String(r.id),
        reading: Number(r.reading),
        created_at: iso(r.created_at)!,
        terminal: {
          site: r.site_id,
          card_acceptor_name: r.card_acceptor_name,
          terminal_id: r.terminal_no,
          id: r.terminal_id,
        },
        company_id: r.company_id,
        site_title: r.site_title,
        site_number: r.site_number,
        timezone: r.timezone,
      }));
    },

    /** Telemetry rows of a site that carry the given reading. */
    async telemetry(siteId: number, kind: TelemetryKind, f: LogFilters): Promise<TelemetryLogRow[]> {
      const p = new Params();
      const where = [`x.site_id = ${p.add(siteId)}`, TELEMETRY_PRESENT[kind]];
      addLogFilters(where, p, f, { id: 'x.id', time: 'x.at', search: ['t.terminal_no'], terminal: 't' });
      const rows = await database.query<TelemetryDbRow>(
        `select x.id, x.at, x.terminal_id, t.terminal_no, s.title as site_title, s.number as site_number, s.timezone,
                x.battery_life, x.flash_left, x.temperature_main_board, x.temperature_inside_cabinet,
                x.humidity_inside_cabinet
           from telemetry x join terminals t on t.id = x.terminal_id join sites s on s.id = x.site_id
          where ${where.join(' and ')}
          order by x.id desc
          limit ${p.add(f.limit)}`,
        p.values,
      );
      return rows.map((r) => ({
        id: num(r.id),
        cursor: String(r.id),
        created_at: iso(r.at)!,
        terminal: { terminal_id: r.terminal_no, id: r.terminal_id },
        customer: r.site_title,
        site_number: r.site_number,
        timezone: r.timezone,
        battery_life: r.battery_life,
        flash_left: r.flash_left,
        temperature_main_board: r.temperature_main_board,
        temperature_inside_cabinet: r.temperature_inside_cabinet,
        humidity_inside_cabinet: r.humidity_inside_cabinet,
      }));
    },
  };
}
export type LogRepository = ReturnType<typeof createLogRepository>;
