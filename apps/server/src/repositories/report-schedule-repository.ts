import type { ReportSchedule } from '@forecourt/contract/reports';
import type { ScopeKind } from '@forecourt/contract/scope';
import type { Database } from '../db/client.ts';
import type { reportSchedules } from '../db/schema/index.ts';
import { iso, num } from './read-scope.ts';
import type { Row } from './rows.ts';
import type { Tx } from './unit-of-work.ts';

type DbSchedule = Row<
  typeof reportSchedules,
  | 'id'
  | 'report'
  | 'scope_kind'
  | 'scope_id'
  | 'agent_id'
  | 'company_id'
  | 'site_id'
  | 'every'
  | 'format'
  | 'recipients'
  | 'next_run_at'
  | 'run_requested'
  | 'last_run_at'
  | 'created_by'
  | 'created_by_id'
  | 'created_at'
>;

const COLS = `s.id, s.report, s.scope_kind, s.scope_id, s.agent_id, s.company_id, s.site_id, s.every, s.format,
              s.recipients, s.next_run_at, s.run_requested, s.last_run_at, s.created_by, s.created_by_id, s.created_at`;

/** A schedule with what the server keeps about it besides its public shape. */
export interface ScheduleRecord extends ReportSchedule {
  place: { agentId: number; companyId: number | null; siteId: number | null };
  ownerId: number;
  runRequested: boolean;
}

const toRecord = (r: DbSchedule): ScheduleRecord => ({
  id: num(r.id),
  report: r.report as ReportSchedule['report'],
  scope: { kind: r.scope_kind as ScopeKind, id: num(r.scope_id) },
  every: r.every as ReportSchedule['every'],
  format: r.format as ReportSchedule['format'],
  recipients: r.recipients,
  next_run_at: iso(r.next_run_at)!,
  last_run_at: iso(r.last_run_at),
  created_by: r.created_by,
  created_at: iso(r.created_at)!,
  place: { agentId: num(r.agent_id), companyId: r.company_id, siteId: r.site_id },
  ownerId: num(r.created_by_id),
  runRequested: r.run_requested,
});

export interface ScheduleFields {
  report: string;
  scopeKind: string;
  scopeId: number;
  place: { agentId: number; companyId: number | null; siteId: number | null };
  every: string;
  format: string;
  recipients: string[];
  nextRunAt: Date;
  createdBy: string;
  createdById: number;
}

/** How long a node may hold a claimed schedule while it makes and mails the report; another node retries after. */
const LEASE = `interval '10 minutes'`;

/**
 * Report schedules (docs/reports.md). Creating and deleting one are units of work of the reports service; claiming
 * and completing runs are the leader's bookkeeping (a lease, like the alert mail queue), not audited.
 */
export function createReportScheduleRepository(database: Database) {
  return {
    /** The schedules of one user (or, `agentId` given, every schedule of that agent's fleet), newest first. */
    async list(
      who: { userId: number; agentId: number | null },
      o: { limit: number; before?: string },
    ): Promise<ScheduleRecord[]> {
      const rows = await database.query<DbSchedule>(
        `select ${COLS} from report_schedules s
          where s.deleted_at is null and (s.created_by_id = $1 or s.agent_id = $2)
            and ($3::int is null or s.id < $3::int)
          order by s.id desc limit $4`,
        [who.userId, who.agentId, o.before ?? null, o.limit],
      );
      return rows.map(toRecord);
    },

    async byId(id: number): Promise<ScheduleRecord | null> {
      const rows = await database.query<DbSchedule>(
        `select ${COLS} from report_schedules s where s.id = $1 and s.deleted_at is null`,
        [id],
      );
      return rows[0] ? toRecord(rows[0]) : null;
    },

    async insert(tx: Tx, f: ScheduleFields): Promise<ScheduleRecord> {
      const rows = await tx<DbSchedule>(
        `insert into report_schedules as s (report, scope_kind, scope_id, agent_id, company_id, site_id, every, format,
                                            recipients, next_run_at, created_by, created_by_id)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9::text[], $10, $11, $12)
         returning ${COLS}`,
        [
          f.report,
          f.scopeKind,
          f.scopeId,
          f.place.agentId,
          f.place.companyId,
          f.place.siteId,
          f.every,
          f.format,
          f.recipients,
          f.nextRunAt,
          f.createdBy,
          f.createdById,
        ],
      );
      return toRecord(rows[0]!);
    },

    async remove(tx: Tx, id: number): Promise<void> {
      await tx(`update report_schedules set deleted_at = now() where id = $1 and deleted_at is null`, [id]);
    },

    /** Asks for a run now: whichever node looks at the due schedules next (this one at once) makes it. */
    async requestRun(tx: Tx, id: number): Promise<void> {
      await tx(`update report_schedules set run_requested = true where id = $1 and deleted_at is null`, [id]);
    },

    /** Claims up to `limit` schedules due at `now` (or asked to run) that no other node holds. */
    async claimDue(now: Date, limit: number, onlyId?: number): Promise<ScheduleRecord[]> {
      const rows = await database.query<DbSchedule>(
        `update report_schedules s set claimed_until = $1::timestamptz + ${LEASE}
          where s.id in (select id from report_schedules
                          where deleted_at is null and (next_run_at <= $1 or run_requested)
                            and (claimed_until is null or claimed_until < $1)
                            and ($3::int is null or id = $3::int)
                          order by next_run_at limit $2
                          for update skip locked)
          returning ${COLS}`,
        [now, limit, onlyId ?? null],
      );
      return rows.map(toRecord);
    },

    /** A claimed run is over: the next one is due at `nextRunAt`; a failure is kept in `last_error`. */
    async complete(id: number, o: { ranAt: Date; nextRunAt: Date; error: string | null }): Promise<void> {
      await database.query(
        `update report_schedules set claimed_until = null, run_requested = false, last_run_at = $2,
                next_run_at = $3, last_error = $4
          where id = $1`,
        [id, o.ranAt, o.nextRunAt, o.error],
      );
    },
  };
}
export type ReportScheduleRepository = ReturnType<typeof createReportScheduleRepository>;
