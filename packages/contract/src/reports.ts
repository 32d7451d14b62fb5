import { z } from 'zod';
import { ListPageSchema } from './common.ts';
import { dateFormat } from './formatters.ts';
import { isoInstant } from './instant.ts';
import { SCOPE_KINDS } from './scope.ts';
import { EMAIL_MAX, EMAIL_PATTERN } from './validation-rules.ts';

/**
 * Availability and service reports (docs/reports.md): how long the terminals of a scope were reachable over a
 * period, and how alerts were handled. Every duration is whole seconds.
 */

/** The period a report covers when `from` and `to` are left out: the last 30 days. */
export const REPORT_DEFAULT_RANGE_MS = 30 * 86_400_000;
/** Event type of the offline alert: its intervals are the downtime. */
export const OFFLINE_EVENT_TYPE = 3;

export const REPORT_GROUPS = ['site', 'terminal'] as const;
export type ReportGroup = (typeof REPORT_GROUPS)[number];
export const REPORT_FORMATS = ['json', 'csv', 'pdf'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];
export const REPORT_KINDS = ['availability', 'alerts'] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];

export const REPORT_TEXTS = {
  from: 'from must be an ISO 8601 date-time, e.g. 2026-11-01T00:00:00Z',
  to: 'to must be an ISO 8601 date-time, e.g. 2026-12-01T00:00:00Z',
  toAfter: 'to must be after from',
  groupBy: `group_by must be one of ${REPORT_GROUPS.join(', ')}`,
  format: `format must be one of ${REPORT_FORMATS.join(', ')}`,
  report: `report must be one of ${REPORT_KINDS.join(', ')}`,
  every: 'every must be week or month',
  scheduleFormat: 'format must be pdf or csv',
  scope: `scope must be {kind: ${SCOPE_KINDS.join('|')}, id}`,
  recipients: 'recipients must list 1 to 20 email addresses',
} as const;

const instant = (message: string) => isoInstant(message, 1900, 9999);

const periodFields = {
  from: instant(REPORT_TEXTS.from)
    .optional()
    .describe('Start (ISO 8601, inclusive); default `to` minus 30 days'),
  to: instant(REPORT_TEXTS.to).optional().describe('End (ISO 8601, exclusive); default now'),
};

const toAfterFrom = (q: { from?: string; to?: string }, ctx: z.RefinementCtx) => {
  if (q.from !== undefined && q.to !== undefined && Date.parse(q.to) <= Date.parse(q.from))
    ctx.addIssue({ code: 'custom', path: ['to'], message: REPORT_TEXTS.toAfter });
};

export const AvailabilityQuerySchema = z
  .object({
    ...periodFields,
    group_by: z
      .enum(REPORT_GROUPS, { error: REPORT_TEXTS.groupBy })
      .default('site')
      .describe('One row per site (default) or per terminal'),
    format: z
      .enum(REPORT_FORMATS, { error: REPORT_TEXTS.format })
      .default('json')
      .describe('json, csv or pdf'),
  })
  .superRefine(toAfterFrom);
export type AvailabilityQuery = z.output<typeof AvailabilityQuerySchema>;

export const AlertsReportQuerySchema = z
  .object({
    ...periodFields,
    format: z
      .enum(REPORT_FORMATS, { error: REPORT_TEXTS.format })
      .default('json')
      .describe('json, csv or pdf'),
  })
  .superRefine(toAfterFrom);
export type AlertsReportQuery = z.output<typeof AlertsReportQuerySchema>;

/** The period a report covers: `to` defaults to now, `from` to 30 days before `to`. */
export function reportPeriod(q: { from?: string; to?: string }, now: Date): { from: Date; to: Date } {
  const to = q.to !== undefined ? new Date(q.to) : now;
  const from = q.from !== undefined ? new Date(q.from) : new Date(to.getTime() - REPORT_DEFAULT_RANGE_MS);
  return { from, to };
}

const measures = {
  period_s: z.number().int().describe('Seconds of the terminals’ lives inside the period, summed'),
  excluded_s: z.number().int().describe('Seconds of those covered by maintenance windows'),
  downtime_s: z.number().int().describe('Seconds offline outside maintenance windows'),
  availability: z
    .number()
    .describe('1 − downtime_s / (period_s − excluded_s), 4 decimals; 1 when nothing is left to measure'),
  incidents: z.number().int().describe('Offline alerts started in the period'),
  mtta_s: z.number().int().nullable().describe('Mean seconds to acknowledgement of those acknowledged'),
  mttr_s: z.number().int().nullable().describe('Mean seconds to clearing of those cleared'),
};

export const AvailabilityRowSchema = z.object({
  id: z.number().int().describe('Site id, or terminal id with group_by=terminal'),
  name: z.string().describe('Site title, or terminal number'),
  site_id: z.number().int(),
  ...measures,
});
export type AvailabilityRow = z.infer<typeof AvailabilityRowSchema>;

export const AvailabilityTotalSchema = z.object({
  id: z.null(),
  name: z.string(),
  site_id: z.null(),
  ...measures,
});
export type AvailabilityTotal = z.infer<typeof AvailabilityTotalSchema>;

export const AvailabilityReportSchema = z.object({
  from: z.string(),
  to: z.string(),
  rows: z.array(AvailabilityRowSchema).describe('Worst availability first'),
  total: AvailabilityTotalSchema,
});
export type AvailabilityReport = z.infer<typeof AvailabilityReportSchema>;

export const AlertsReportRowSchema = z.object({
  event_type: z.number().int(),
  name: z.string(),
  severity: z.string(),
  count: z.number().int().describe('Alerts started in the period, silenced ones included'),
  silenced: z.number().int(),
  acknowledged: z.number().int(),
  cleared: z.number().int(),
  mtta_s: z.number().int().nullable(),
  mttr_s: z.number().int().nullable(),
  p90_ttr_s: z.number().int().nullable().describe('90th percentile of seconds to clearing (nearest rank)'),
});
export type AlertsReportRow = z.infer<typeof AlertsReportRowSchema>;

/** `availability` rounded to 4 decimals from whole seconds (1 when nothing is left to measure). */
export function availabilityOf(period_s: number, excluded_s: number, downtime_s: number): number {
  const measured = period_s - excluded_s;
  if (measured <= 0) return 1;
  return Math.round(((measured - downtime_s) * 10_000) / measured) / 10_000;
}

// Schedules

const scopeSchema = z
  .object(
    {
      kind: z.enum(SCOPE_KINDS, { error: REPORT_TEXTS.scope }),
      id: z.number({ error: REPORT_TEXTS.scope }).int(REPORT_TEXTS.scope).positive(REPORT_TEXTS.scope),
    },
    { error: REPORT_TEXTS.scope },
  )
  .strict();

export const ReportScheduleCreateSchema = z
  .object({
    report: z.enum(REPORT_KINDS, { error: REPORT_TEXTS.report }),
    scope: scopeSchema,
    every: z.enum(['week', 'month'], { error: REPORT_TEXTS.every }),
    format: z.enum(['pdf', 'csv'], { error: REPORT_TEXTS.scheduleFormat }).default('pdf'),
    recipients: z
      .array(
        z
          .string({ error: REPORT_TEXTS.recipients })
          .trim()
          .max(EMAIL_MAX, REPORT_TEXTS.recipients)
          .regex(EMAIL_PATTERN, REPORT_TEXTS.recipients),
        { error: REPORT_TEXTS.recipients },
      )
      .min(1, REPORT_TEXTS.recipients)
      .max(20, REPORT_TEXTS.recipients),
  })
  .strict();
export type ReportScheduleCreate = z.output<typeof ReportScheduleCreateSchema>;
export type ReportScheduleCreateInput = z.input<typeof ReportScheduleCreateSchema>;

export const ReportScheduleSchema = z.object({
  id: z.number().int(),
  report: z.enum(REPORT_KINDS),
  scope: z.object({ kind: z.enum(SCOPE_KINDS), id: z.number().int() }),
  every: z.enum(['week', 'month']),
  format: z.enum(['pdf', 'csv']),
  recipients: z.array(z.string()),
  next_run_at: z.string().describe('When it runs next, for the week or month ending then (UTC)'),
  last_run_at: z.string().nullable(),
  created_by: z.string(),
  created_at: z.string(),
});
export type ReportSchedule = z.infer<typeof ReportScheduleSchema>;

export const ReportScheduleListQuerySchema = z.object({
  ...ListPageSchema.shape,
});

/** The wall clock of `zone` at `at`: year, month (0-11), day, hour, minute, second. */
function wallClock(at: Date, zone: string) {
  const parts = dateFormat('en-US', 'wallClock', zone).formatToParts(at);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return {
    y: get('year'),
    m: get('month') - 1,
    d: get('day'),
    utc: Date.UTC(get('year'), get('month') - 1, get('day'), get('hour') % 24, get('minute'), get('second')),
  };
}

/** `zone` when the runtime knows it as an IANA time zone, else UTC. */
export function knownZone(zone: string | null | undefined): string {
  if (!zone) return 'UTC';
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return zone;
  } catch {
    return 'UTC';
  }
}

/**
 * The instant local midnight starts day `d` of month `m` (0-11, overflowing as Date.UTC does) of year `y` in `zone`.
 * A midnight skipped by a clock change is the first instant of that local day.
 */
export function zonedMidnight(y: number, m: number, d: number, zone: string): Date {
  const local = Date.UTC(y, m, d);
  // The zone's offset near that instant, checked once more at the answer (a clock change in between).
  let at = local - (wallClock(new Date(local), zone).utc - local);
  const offset = wallClock(new Date(at), zone).utc - at;
  if (at + offset !== local) at = local - offset;
  // A skipped midnight: the wall clock reads the day before; the day starts at the first whole hour after.
  while (wallClock(new Date(at), zone).utc < local) at += 3_600_000;
  return new Date(at);
}

/** The local calendar date (YYYY-MM-DD) of `at` in `zone`. */
export function localDate(at: Date, zone: string): string {
  const c = wallClock(at, zone);
  return new Date(Date.UTC(c.y, c.m, c.d)).toISOString().slice(0, 10);
}

/**
 * The boundaries a schedule runs at, in the schedule's time zone (docs/reports.md: a site's own, a company's most
 * used, UTC for an agent): Monday 00:00 for `week`, the 1st 00:00 for `month`. `periodEndingBy` answers the latest
 * boundary at or before `at` and the period that ends there; `nextBoundary` the first after `at`.
 */
export function periodEndingBy(every: 'week' | 'month', at: Date, zone = 'UTC'): { from: Date; to: Date } {
  const c = wallClock(at, zone);
  if (every === 'month')
    return { from: zonedMidnight(c.y, c.m - 1, 1, zone), to: zonedMidnight(c.y, c.m, 1, zone) };
  const sinceMonday = (new Date(Date.UTC(c.y, c.m, c.d)).getUTCDay() + 6) % 7;
  return {
    from: zonedMidnight(c.y, c.m, c.d - sinceMonday - 7, zone),
    to: zonedMidnight(c.y, c.m, c.d - sinceMonday, zone),
  };
}

export function nextBoundary(every: 'week' | 'month', at: Date, zone = 'UTC'): Date {
  const c = wallClock(at, zone);
  if (every === 'month') return zonedMidnight(c.y, c.m + 1, 1, zone);
  const sinceMonday = (new Date(Date.UTC(c.y, c.m, c.d)).getUTCDay() + 6) % 7;
  return zonedMidnight(c.y, c.m, c.d - sinceMonday + 7, zone);
}
