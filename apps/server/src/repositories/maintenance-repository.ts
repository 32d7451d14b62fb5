import type { MaintenanceWindow, Recurrence } from '@forecourt/contract/maintenance';
import type { Database } from '../db/client.ts';
import { queueAlertMailsSql } from './alert-sql.ts';
import type { ChangeInput } from './change-repository.ts';
import { iso, num, Params } from './read-scope.ts';
import type { Place, RuleActor, Visibility } from './rule-repository.ts';
import {
  type StoredTargetRow,
  storedTargetOf,
  targetParams,
  targetReachesSql,
  visibleToSql,
  windowCoversSql,
} from './rule-sql.ts';
import type { Tx } from './unit-of-work.ts';

export interface WindowRecord extends MaintenanceWindow {
  place: Place;
}

export interface WindowFields {
  scopeKind: string;
  scopeId: number;
  tags: string[];
  place: Place;
  startsAt: Date;
  endsAt: Date;
  recurrence: Recurrence | null;
  reason: string;
}

interface DbWindow extends StoredTargetRow {
  id: number;
  starts_at: Date | string;
  ends_at: Date | string;
  weekdays: number[] | null;
  start_local: string | null;
  duration_min: number | null;
  reason: string;
  created_by: string;
  created_at: Date | string;
  active: boolean;
}

const COLS = `w.id, w.scope_kind, w.scope_id, w.tags, w.agent_id, w.company_id, w.site_id, w.starts_at, w.ends_at,
              w.weekdays, w.start_local, w.duration_min, w.reason, w.created_by, w.created_at`;

/** In force at `at` (an SQL expression): it covers at least one terminal of its target, in that terminal's zone. */
const activeSql = (at: string) =>
  `exists (select 1 from (select distinct s.timezone from terminals t join sites s on s.id = t.site_id
                           where ${targetReachesSql('w', 't')}) z
            where ${windowCoversSql('w', 'z.timezone', at)})`;

function toWindow(r: DbWindow): WindowRecord {
  const { target, place } = storedTargetOf(r);
  return {
    id: num(r.id),
    target,
    starts_at: iso(r.starts_at)!,
    ends_at: iso(r.ends_at)!,
    recurrence:
      r.weekdays && r.start_local && r.duration_min
        ? { weekdays: r.weekdays.map(Number), start: r.start_local, duration_min: num(r.duration_min) }
        : null,
    reason: r.reason,
    created_by: r.created_by,
    created_at: iso(r.created_at)!,
    active: r.active === true,
    place,
  };
}

/**
 * Maintenance windows (docs/rules-and-maintenance.md). Alerts raised while a window covers their terminal are
 * stored silenced by the alerts table's insert trigger (migration 0009), so every way an alert is raised honours
 * windows; `release` ends the silence of the alerts still active once their window no longer covers them, and queues
 * their mails then.
 */
export function createMaintenanceRepository(database: Database) {
  /** Un-silences the active alerts (of one window, or all) whose window no longer covers their terminal. */
  async function release(q: Tx, now: Date, windowId: number | null): Promise<ChangeInput[]> {
    const rows = await q<{ agent_id: number; company_id: number; site_id: number; terminal_id: number }>(
      `with freed as (
         update alerts a set silenced = false
          where a.silenced and a.state = 'active' and ($2::int is null or a.maintenance_id = $2)
            and not exists (
              select 1 from maintenance_windows w join terminals t on t.id = a.terminal_id
                join sites s on s.id = t.site_id
               where w.id = a.maintenance_id and ${windowCoversSql('w', 's.timezone', '$1::timestamptz')})
         returning a.id, a.terminal_id, a.site_id, a.company_id, a.agent_id, a.severity, a.silenced
       ), mails as (
         ${queueAlertMailsSql('freed')}
       )
       select distinct agent_id, company_id, site_id, terminal_id from freed`,
      [now, windowId],
    );
    return rows.map((r) => ({
      kind: 'alert' as const,
      agentId: r.agent_id,
      companyId: r.company_id,
      siteId: r.site_id,
      terminalId: r.terminal_id,
    }));
  }

  const fieldParams = (f: WindowFields) => [
    ...targetParams(f),
    f.startsAt,
    f.endsAt,
    f.recurrence?.weekdays ?? null,
    f.recurrence?.start ?? null,
    f.recurrence?.duration_min ?? null,
    f.reason,
  ];

  return {
    async list(
      v: Visibility,
      o: { limit: number; before?: string; active?: boolean },
      now: Date,
    ): Promise<WindowRecord[]> {
      const p = new Params();
      const at = `${p.add(now)}::timestamptz`;
      const where = [visibleToSql('w', p.add(v.agentId), p.add(v.companyIds), p.add(v.siteIds))];
      if (o.before) where.push(`w.id < ${p.add(o.before)}::int`);
      if (o.active === true) where.push(`w.starts_at <= ${at} and w.ends_at > ${at} and ${activeSql(at)}`);
      if (o.active === false)
        where.push(`not (w.starts_at <= ${at} and w.ends_at > ${at} and ${activeSql(at)})`);
      const rows = await database.query<DbWindow>(
        `select ${COLS}, (w.starts_at <= ${at} and w.ends_at > ${at} and ${activeSql(at)}) as active
           from maintenance_windows w where ${where.join(' and ')}
          order by w.id desc limit ${p.add(o.limit)}`,
        p.values,
      );
      return rows.map(toWindow);
    },

    async byId(
      id: number,
      v: Visibility,
      now: Date,
    ): Promise<{ window: WindowRecord; visible: boolean } | null> {
      const rows = await database.query<DbWindow & { visible: boolean }>(
        `select ${COLS}, ${visibleToSql('w', '$3', '$4', '$5')} as visible,
                (w.starts_at <= $2 and w.ends_at > $2 and ${activeSql('$2::timestamptz')}) as active
           from maintenance_windows w where w.id = $1`,
        [id, now, v.agentId, v.companyIds, v.siteIds],
      );
      const r = rows[0];
      return r ? { window: toWindow(r), visible: r.visible } : null;
    },

    /** Whether window `id` covers terminal `terminalId` at `at` (in the terminal's site's time zone). */
    async covers(id: number, terminalId: number, at: Date): Promise<boolean> {
      const rows = await database.query<{ covers: boolean }>(
        `select ${windowCoversSql('w', 's.timezone', '$3::timestamptz')} and ${targetReachesSql('w', 't')} as covers
           from maintenance_windows w, terminals t join sites s on s.id = t.site_id
          where w.id = $1 and t.id = $2`,
        [id, terminalId, at],
      );
      return rows[0]?.covers === true;
    },

    async insert(tx: Tx, actor: RuleActor, f: WindowFields, now: Date): Promise<WindowRecord> {
      const rows = await tx<DbWindow>(
        `insert into maintenance_windows as w (scope_kind, scope_id, tags, agent_id, company_id, site_id, starts_at,
                                                ends_at, weekdays, start_local, duration_min, reason, created_by,
                                                created_by_id)
         values ($1, $2, $3::text[], $4, $5, $6, $7, $8, $9::smallint[], $10, $11, $12, $13, $14)
         returning ${COLS}, (w.starts_at <= $15 and w.ends_at > $15) as active`,
        [...fieldParams(f), actor.username, actor.userId, now],
      );
      return toWindow(rows[0]!);
    },

    async update(tx: Tx, id: number, f: WindowFields): Promise<WindowRecord> {
      const rows = await tx<DbWindow>(
        `update maintenance_windows w set scope_kind = $2, scope_id = $3, tags = $4::text[], agent_id = $5,
                company_id = $6, site_id = $7, starts_at = $8, ends_at = $9, weekdays = $10::smallint[],
                start_local = $11, duration_min = $12, reason = $13
          where w.id = $1
          returning ${COLS}, false as active`,
        [id, ...fieldParams(f)],
      );
      return toWindow(rows[0]!);
    },

    /** Ends a window now (or, not yet begun, before it starts): it stays listed with its real end. */
    async endNow(tx: Tx, id: number, now: Date): Promise<void> {
      await tx(
        `update maintenance_windows set ends_at = greatest(least(ends_at, $2), starts_at), ended_early_at = $2
          where id = $1`,
        [id, now],
      );
    },

    /** Un-silences the active alerts of one window that no longer covers their terminal; answers their changes. */
    releaseWindow: (tx: Tx, now: Date, windowId: number) => release(tx, now, windowId),

    /**
     * The sweep's part: un-silences the active alerts (of every window) that their window no longer covers, queueing
     * their mails; answers the alert changes of their terminals.
     */
    release: (tx: Tx, now: Date) => release(tx, now, null),
  };
}
export type MaintenanceRepository = ReturnType<typeof createMaintenanceRepository>;
