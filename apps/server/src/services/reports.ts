import { EVENT_TYPES, severityOf } from '@forecourt/contract/events';
import {
  type AlertsReportQuery,
  type AlertsReportRow,
  type AvailabilityQuery,
  type AvailabilityReport,
  knownZone,
  localDate,
  nextBoundary,
  periodEndingBy,
  type ReportSchedule,
  type ReportScheduleCreate,
  reportPeriod,
} from '@forecourt/contract/reports';
import type { FastifyBaseLogger } from 'fastify';
import { canReach } from '../plugins/scope.ts';
import type { Repositories } from '../repositories/index.ts';
import type { Principal } from '../repositories/principal-repository.ts';
import type { ReadScope } from '../repositories/read-scope.ts';
import type { ScheduleRecord } from '../repositories/report-schedule-repository.ts';
import { auditOf } from './actor.ts';
import { invalid, missing, notYours } from './domain-errors.ts';
import type { Mailer } from './mailer.ts';
import { type ReportFile, type ReportHeading, reportFile } from './report-files.ts';

export interface ReportServiceOptions {
  repos: Repositories;
  mailer: Mailer;
  log: FastifyBaseLogger;
  /** How often the leader looks for due schedules (ms). */
  intervalMs?: number;
}

/** A failed scheduled run is tried again this much later (but never past its next regular run). */
const RETRY_MS = 15 * 60_000;

const publicSchedule = (s: ScheduleRecord): ReportSchedule => ({
  id: s.id,
  report: s.report,
  scope: s.scope,
  every: s.every,
  format: s.format,
  recipients: s.recipients,
  next_run_at: s.next_run_at,
  last_run_at: s.last_run_at,
  created_by: s.created_by,
  created_at: s.created_at,
});

/** The audit entry of `p`'s change to report schedule `id`, under the schedule's agent. */
const scheduleAudit = (
  p: Principal,
  agentId: number,
  action: string,
  id: number,
  before: unknown,
  after: unknown,
) =>
  auditOf({ userId: p.userId, username: p.username, agentId }, action, 'report_schedule', id, before, after);

/**
 * Availability and service reports (docs/reports.md): the reports themselves (one SQL statement each, in the
 * report read model), their CSV and PDF files, and the schedules that mail them every week or month. Scheduled runs
 * are claimed from PostgreSQL by the leader (a lease, so a node that dies mid-run is replaced), for the period that
 * has just ended; a run missed while no node was up runs once when one is back.
 */
export function createReportService(opts: ReportServiceOptions) {
  const { repos, log } = opts;
  let ticking: Promise<number> | null = null;

  async function availability(
    scope: ReadScope,
    q: AvailabilityQuery,
    now: Date,
  ): Promise<AvailabilityReport> {
    const period = reportPeriod(q, now);
    const { rows, total } = await repos.reports.availability(scope, period, q.group_by, now);
    return { from: period.from.toISOString(), to: period.to.toISOString(), rows, total };
  }

  async function alerts(scope: ReadScope, q: AlertsReportQuery, now: Date): Promise<AlertsReportRow[]> {
    const rows = await repos.reports.alerts(scope, reportPeriod(q, now));
    return rows.map(({ event_type, ...r }) => ({
      event_type,
      name: EVENT_TYPES[event_type]?.name ?? `Event ${event_type}`,
      severity: severityOf(event_type),
      ...r,
    }));
  }

  async function heading(report: ReportHeading['report'], scope: ReadScope, from: Date, to: Date) {
    return {
      report,
      scope: { ...scope, name: await repos.reports.scopeName(scope) },
      from: from.toISOString(),
      to: to.toISOString(),
    };
  }

  /** The file of a report (CSV or PDF) over a period. */
  async function file(
    report: ReportHeading['report'],
    scope: ReadScope,
    q: { from?: string; to?: string; group_by?: 'site' | 'terminal' },
    format: 'csv' | 'pdf',
    now: Date,
  ): Promise<ReportFile> {
    const period = reportPeriod(q, now);
    const h = await heading(report, scope, period.from, period.to);
    if (report === 'availability') {
      const group = q.group_by ?? 'site';
      const data = await availability(scope, { ...q, group_by: group, format }, now);
      return reportFile(h, format, { availability: data, group });
    }
    return reportFile(h, format, { alerts: await alerts(scope, { ...q, format }, now) });
  }

  /** May `p` see (and delete, and run) schedule `s`: its own, or any of its agent's fleet for an agent. */
  const sees = (p: Principal, s: ScheduleRecord) =>
    s.ownerId === p.userId || (p.agentId !== null && s.place.agentId === p.agentId);

  async function visibleSchedule(p: Principal, id: number): Promise<ScheduleRecord> {
    const s = await repos.reportSchedules.byId(id);
    if (!s) throw missing('report schedule', id);
    if (!sees(p, s)) throw notYours();
    return s;
  }

  /** The time zone whose midnights bound a schedule's periods (docs/reports.md). */
  const zoneOf = async (scope: ReadScope) => knownZone(await repos.reports.scheduleZone(scope));

  /** Makes and mails one claimed schedule's report for the period just ended; answers the error, if any. */
  async function runOne(s: ScheduleRecord, now: Date, zone: string): Promise<string | null> {
    const owner = await repos.principals.load(s.ownerId);
    const loc = await repos.org.locate(s.scope.kind, s.scope.id);
    if (!owner || owner.disabled || !loc || !canReach(owner, s.scope.kind, s.scope.id, loc))
      return 'The schedule’s owner no longer reads its scope: nothing was sent.';
    const period = periodEndingBy(s.every, now, zone);
    const f = await file(
      s.report,
      s.scope,
      { from: period.from.toISOString(), to: period.to.toISOString(), group_by: 'site' },
      s.format,
      now,
    );
    const what = s.report === 'availability' ? 'Availability report' : 'Alert report';
    const name = await repos.reports.scopeName(s.scope);
    const range = `${localDate(period.from, zone)} to ${localDate(new Date(period.to.getTime() - 1), zone)}`;
    await opts.mailer.send({
      to: s.recipients.join(', '),
      subject: `[Forecourt] ${what}: ${name}, ${range}`,
      text: [
        `${what} of ${s.scope.kind} ${name} for ${range} (${zone}), attached as ${f.filename}.`,
        '',
        `Scheduled every ${s.every} by ${s.created_by} in Forecourt (Reports).`,
      ].join('\n'),
      attachments: [{ filename: f.filename, content: f.body, contentType: f.contentType }],
    });
    return null;
  }

  async function tickOnce(now: Date, onlyId?: number): Promise<number> {
    let ran = 0;
    for (;;) {
      const claimed = await repos.reportSchedules.claimDue(now, 5, onlyId);
      if (!claimed.length) return ran;
      for (const s of claimed) {
        const regular = Date.parse(s.next_run_at) <= now.getTime();
        const zone = await zoneOf(s.scope).catch(() => 'UTC');
        const next = regular ? nextBoundary(s.every, now, zone) : new Date(s.next_run_at);
        let error: string | null;
        try {
          error = await runOne(s, now, zone);
        } catch (err) {
          log.warn({ err, schedule: s.id }, 'scheduled report failed; will retry');
          error = err instanceof Error ? err.message : String(err);
        }
        const failedToSend = error !== null && !error.startsWith('The schedule’s owner');
        await repos.reportSchedules.complete(s.id, {
          ranAt: now,
          nextRunAt:
            failedToSend && regular ? new Date(Math.min(now.getTime() + RETRY_MS, next.getTime())) : next,
          error,
        });
        ran++;
      }
      if (onlyId !== undefined) return ran;
    }
  }

  const service = {
    availability,
    alerts,
    file,

    schedules: {
      async list(p: Principal, o: { limit: number; before?: string }): Promise<ReportSchedule[]> {
        const rows = await repos.reportSchedules.list({ userId: p.userId, agentId: p.agentId }, o);
        return rows.map(publicSchedule);
      },

      /** Every role schedules reports of a scope it reads. */
      async create(p: Principal, body: ReportScheduleCreate, now: Date): Promise<ReportSchedule> {
        const { kind, id } = body.scope;
        const loc = await repos.org.locate(kind, id);
        if (!loc) throw invalid(`scope.id: no ${kind} with id ${id}`);
        if (!canReach(p, kind, id, loc)) throw notYours();
        const zone = await zoneOf(body.scope);
        return repos.work.run(async (tx) => {
          const s = await repos.reportSchedules.insert(tx, {
            report: body.report,
            scopeKind: kind,
            scopeId: id,
            place: { agentId: loc.agentId, companyId: loc.companyId, siteId: loc.siteId },
            every: body.every,
            format: body.format,
            recipients: [...new Set(body.recipients.map((r) => r.trim()))],
            nextRunAt: nextBoundary(body.every, now, zone),
            createdBy: p.username,
            createdById: p.userId,
          });
          const shown = publicSchedule(s);
          await tx.audit(scheduleAudit(p, loc.agentId, 'create', s.id, null, shown));
          await tx.changed({
            kind: 'fleet',
            agentId: loc.agentId,
            companyId: loc.companyId,
            siteId: loc.siteId,
          });
          return shown;
        });
      },

      async remove(p: Principal, id: number): Promise<ReportSchedule> {
        const s = await visibleSchedule(p, id);
        await repos.work.run(async (tx) => {
          await repos.reportSchedules.remove(tx, id);
          await tx.audit(scheduleAudit(p, s.place.agentId, 'delete', id, publicSchedule(s), null));
          await tx.changed({ kind: 'fleet', ...s.place });
        });
        return publicSchedule(s);
      },

      /** Asks for a run now (kept in PostgreSQL, so it happens even if this node stops) and starts it here. */
      async run(p: Principal, id: number): Promise<void> {
        const s = await visibleSchedule(p, id);
        await repos.work.run(async (tx) => {
          await repos.reportSchedules.requestRun(tx, id);
          await tx.audit(scheduleAudit(p, s.place.agentId, 'run', id, null, null));
        });
        void tickOnce(new Date(), id).catch((err) => log.error({ err, schedule: id }, 'report run failed'));
      },
    },

    /** Runs the schedules due at `now` (default the clock): answers how many ran. */
    async tick(now: Date = new Date()): Promise<number> {
      while (ticking) await ticking.catch(() => 0);
      const run = tickOnce(now);
      ticking = run;
      try {
        return await run;
      } finally {
        ticking = null;
      }
    },

    /** The leader's job: looks for due schedules every `intervalMs` (default a minute) and at once. */
    start(): () => Promise<void> {
      const look = () => {
        if (ticking) return;
        service.tick().catch((err) => log.error({ err }, 'report schedules failed'));
      };
      const first = setTimeout(look, 1_000);
      const timer = setInterval(look, opts.intervalMs ?? 60_000);
      first.unref();
      timer.unref();
      return async () => {
        clearTimeout(first);
        clearInterval(timer);
        await ticking?.catch(() => {});
      };
    },
  };
  return service;
}
export type ReportService = ReturnType<typeof createReportService>;
