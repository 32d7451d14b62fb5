import { SEVERITIES } from '@forecourt/contract/events';
import type { Alert, AlertSite, AlertState } from '@forecourt/contract/fleet';
import { eventName } from '@forecourt/contract/formatters';
import type { Database } from '../db/client.ts';
import type { alerts } from '../db/schema/events.ts';
import type { companies, sites, terminals } from '../db/schema/org.ts';
import { severityRankSql } from './alert-sql.ts';
import {
  addLogFilters,
  iso,
  type LogFilters,
  num,
  Params,
  type ReadScope,
  scopeColumn,
} from './read-scope.ts';
import type { Row, SqlRow } from './rows.ts';
import type { Tx } from './unit-of-work.ts';

export interface AlertRow extends Alert {
  id: number;
  terminal_id: number;
  cursor: string;
  /** IANA zone of the alert's site. */
  timezone: string;
}

type DbRow = Row<
  typeof alerts,
  | 'id'
  | 'text'
  | 'started_at'
  | 'created_at'
  | 'event_type'
  | 'terminal_id'
  | 'site_id'
  | 'company_id'
  | 'severity'
  | 'state'
  | 'cleared_at'
  | 'acknowledged_at'
  | 'acknowledged_by'
  | 'note'
  | 'rule_id'
  | 'silenced'
  | 'maintenance_id'
> &
  Row<typeof sites, 'timezone'> & {
    number: SqlRow<typeof terminals>['terminal_no'];
    site_name: SqlRow<typeof sites>['title'];
    customer_name: SqlRow<typeof companies>['name'];
  };

export interface AlertFilters extends LogFilters {
  eventTypes?: readonly number[];
  state?: AlertState;
  acknowledged?: boolean;
  /** Raised in a maintenance window (true) or not (false). */
  silenced?: boolean;
  /** Raised by this alert rule. */
  ruleId?: number;
  /** 'severity': worst first, newest first within a severity (no paging). Default newest first. */
  sort?: 'newest' | 'severity';
}

const SELECT = `select a.id, a.text, a.started_at, a.created_at, a.event_type, a.terminal_id, a.site_id, a.company_id,
                a.severity, a.state, a.cleared_at, a.acknowledged_at, a.acknowledged_by, a.note,
                a.rule_id, a.silenced, a.maintenance_id,
                t.terminal_no as number, s.title as site_name, c.name as customer_name, s.timezone
           from alerts a
           join terminals t on t.id = a.terminal_id
           join sites s on s.id = a.site_id
           join companies c on c.id = a.company_id`;

function toRow(r: DbRow): AlertRow {
  return {
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
    severity: r.severity,
    state: r.state,
    cleared_at: iso(r.cleared_at),
    acknowledged_at: iso(r.acknowledged_at),
    acknowledged_by: r.acknowledged_by,
    note: r.note,
    rule_id: r.rule_id === null ? null : num(r.rule_id),
    silenced: r.silenced === true,
    maintenance_id: r.maintenance_id === null ? null : num(r.maintenance_id),
  };
}

/** The lifecycle filters (state, acknowledged, silenced) on alias `a`. */
function addLifecycleFilters(
  where: string[],
  p: Params,
  f: Pick<AlertFilters, 'state' | 'acknowledged' | 'silenced' | 'ruleId'>,
) {
  if (f.state) where.push(`a.state = ${p.add(f.state)}`);
  if (f.acknowledged === true) where.push('a.acknowledged_at is not null');
  if (f.acknowledged === false) where.push('a.acknowledged_at is null');
  if (f.silenced === true) where.push('a.silenced');
  if (f.silenced === false) where.push('not a.silenced');
  if (f.ruleId !== undefined) where.push(`a.rule_id = ${p.add(f.ruleId)}`);
}

/** Who acknowledges: recorded on the alert and in the audit log. */
export interface Acknowledger {
  userId: number;
  username: string;
}

/** Alerts of an agent, company or site: newest first, with the terminal number, site and company names. */
export function createAlertRepository(database: Database) {
  return {
    async list(scope: ReadScope, f: AlertFilters): Promise<AlertRow[]> {
      const p = new Params();
      const where = [`${scopeColumn(scope, 'a')} = ${p.add(scope.id)}`];
      if (f.eventTypes?.length)
        where.push(`a.event_type = any(${p.add(`{${f.eventTypes.join(',')}}`)}::int[])`);
      addLifecycleFilters(where, p, f);
      addLogFilters(where, p, f, {
        id: 'a.id',
        time: 'a.started_at',
        search: ['a.text', 't.terminal_no', 's.title', 'c.name'],
        terminal: 't',
      });
      const order = f.sort === 'severity' ? `${severityRankSql('a.severity')}, a.id desc` : 'a.id desc';
      const rows = await database.query<DbRow>(
        `${SELECT}
          where ${where.join(' and ')}
          order by ${order}
          limit ${p.add(f.limit)}`,
        p.values,
      );
      return rows.map(toRow);
    },

    async byId(id: number): Promise<AlertRow | null> {
      const rows = await database.query<DbRow>(`${SELECT} where a.id = $1`, [id]);
      return rows[0] ? toRow(rows[0]) : null;
    },

    /**
     * How many alerts of the scope match the lifecycle filters (the bell). Alerts silenced by a maintenance window
     * are left out unless `silenced: true` asks for them.
     */
    async count(
      scope: ReadScope,
      f: Pick<AlertFilters, 'state' | 'acknowledged' | 'eventTypes' | 'silenced' | 'ruleId'>,
    ) {
      const p = new Params();
      const where = [`${scopeColumn(scope, 'a')} = ${p.add(scope.id)}`];
      if (f.eventTypes?.length)
        where.push(`a.event_type = any(${p.add(`{${f.eventTypes.join(',')}}`)}::int[])`);
      addLifecycleFilters(where, p, { ...f, silenced: f.silenced ?? false });
      const rows = await database.query<{ n: number | string }>(
        `select count(*) as n from alerts a where ${where.join(' and ')}`,
        p.values,
      );
      return num(rows[0]?.n ?? 0);
    },

    /** One row per site of the scope with active alerts: worst severity first, then most unacknowledged. */
    async bySite(scope: ReadScope, limit: number): Promise<AlertSite[]> {
      const rank = severityRankSql('a.severity');
      const rows = await database.query<{
        site_id: SqlRow<typeof sites>['id'];
        title: SqlRow<typeof sites>['title'];
        number: SqlRow<typeof sites>['number'];
        active: number | string;
        unacknowledged: number | string;
        worst: number;
        latest_at: Date | string;
      }>(
        `select s.id as site_id, s.title, s.number, count(*) as active,
                count(*) filter (where a.acknowledged_at is null) as unacknowledged,
                min(${rank}) as worst, max(a.started_at) as latest_at
           from alerts a join sites s on s.id = a.site_id
          where ${scopeColumn(scope, 'a')} = $1 and a.state = 'active' and not a.silenced
          group by s.id, s.title, s.number
          order by worst, unacknowledged desc, active desc, latest_at desc, s.id
          limit $2`,
        [scope.id, limit],
      );
      return rows.map((r) => ({
        site_id: r.site_id,
        title: r.title,
        number: r.number,
        active: num(r.active),
        unacknowledged: num(r.unacknowledged),
        worst_severity: SEVERITIES[Math.min(num(r.worst), SEVERITIES.length - 1)]!,
        latest_at: iso(r.latest_at)!,
      }));
    },

    /**
     * Acknowledges an alert unless someone already did (the first who, when and note stay), recording the
     * acknowledgement in the audit log and its 'alert' change for the live feed. Answers whether this call
     * acknowledged it.
     */
    /**
     * Acknowledges an alert not acknowledged yet: answers its place (for the audit entry and the change), or null
     * when it is unknown or was acknowledged before (the first who, when and note stay).
     */
    async acknowledge(
      tx: Tx,
      id: number,
      by: Acknowledger,
      note: string | null,
      now: Date,
    ): Promise<Row<typeof alerts, 'id' | 'terminal_id' | 'site_id' | 'company_id' | 'agent_id'> | null> {
      const rows = await tx<Row<typeof alerts, 'id' | 'terminal_id' | 'site_id' | 'company_id' | 'agent_id'>>(
        `update alerts set acknowledged_at = $2, acknowledged_by = $3, acknowledged_by_id = $4, note = $5
          where id = $1 and acknowledged_at is null
          returning id, terminal_id, site_id, company_id, agent_id`,
        [id, now, by.username, by.userId, note],
      );
      return rows[0] ?? null;
    },

    /** Ends a terminal's active alerts (it was decommissioned); the log keeps them. Answers how many ended. */
    async clearOfTerminal(tx: Tx, terminalId: number): Promise<number> {
      const rows = await tx(
        `update alerts set state = 'cleared', cleared_at = now() where terminal_id = $1 and state = 'active'
         returning id`,
        [terminalId],
      );
      return rows.length;
    },
  };
}
export type AlertRepository = ReturnType<typeof createAlertRepository>;
