import { z } from 'zod';
import { TargetAnswerSchema } from './alert-rules.ts';
import { ListPageSchema } from './common.ts';
import { isoInstant } from './instant.ts';
import { TargetSchema } from './targets.ts';

/**
 * Maintenance windows (docs/rules-and-maintenance.md): planned work on a target, one-off or weekly in each site's
 * own time zone. While a window covers a terminal, the alerts raised there are stored silenced.
 */

/** A window may not start more than this long before it is declared. */
export const RETROACTIVE_GRACE_MS = 60_000;
/** A weekly occurrence lasts at most a week. */
export const MAX_DURATION_MIN = 7 * 24 * 60;

export const MAINTENANCE_TEXTS = {
  startsAt: 'starts_at must be an ISO 8601 date-time with offset, e.g. 2026-12-01T02:00:00Z',
  endsAt: 'ends_at must be an ISO 8601 date-time with offset, e.g. 2026-12-01T04:00:00Z',
  endsAfter: 'ends_at must be after starts_at',
  retroactive: 'starts_at may not be more than a minute in the past: declare planned work before it starts',
  weekdays: 'recurrence.weekdays must list days from 1 (Monday) to 7 (Sunday)',
  start: 'recurrence.start must be a local time HH:MM, e.g. 02:00',
  duration: `recurrence.duration_min must be a whole number of minutes from 1 to ${MAX_DURATION_MIN}`,
  recurrence: 'recurrence must be null or {weekdays, start, duration_min}',
  reason: 'reason must be at most 500 characters',
  ended: 'This window has ended: it can no longer be changed.',
} as const;

const instant = (message: string) => isoInstant(message, 2000, 2099);

export const RecurrenceSchema = z
  .object(
    {
      weekdays: z
        .array(
          z
            .number({ error: MAINTENANCE_TEXTS.weekdays })
            .int(MAINTENANCE_TEXTS.weekdays)
            .min(1, MAINTENANCE_TEXTS.weekdays)
            .max(7, MAINTENANCE_TEXTS.weekdays),
          { error: MAINTENANCE_TEXTS.weekdays },
        )
        .min(1, MAINTENANCE_TEXTS.weekdays)
        .max(7, MAINTENANCE_TEXTS.weekdays)
        .transform((d) => [...new Set(d)].sort((a, b) => a - b))
        .describe('ISO weekdays, Monday = 1 … Sunday = 7'),
      start: z
        .string({ error: MAINTENANCE_TEXTS.start })
        .regex(/^([01]\d|2[0-3]):[0-5]\d$/, MAINTENANCE_TEXTS.start)
        .describe("Local time at each site, 'HH:MM'"),
      duration_min: z
        .number({ error: MAINTENANCE_TEXTS.duration })
        .int(MAINTENANCE_TEXTS.duration)
        .min(1, MAINTENANCE_TEXTS.duration)
        .max(MAX_DURATION_MIN, MAINTENANCE_TEXTS.duration)
        .describe('Minutes; may run past midnight into the next day'),
    },
    { error: MAINTENANCE_TEXTS.recurrence },
  )
  .strict();
export type Recurrence = z.output<typeof RecurrenceSchema>;

const reason = z
  .string({ error: MAINTENANCE_TEXTS.reason })
  .trim()
  .max(500, MAINTENANCE_TEXTS.reason)
  .describe('What the work is');

export const MaintenanceCreateSchema = z
  .object({
    target: TargetSchema,
    starts_at: instant(MAINTENANCE_TEXTS.startsAt).describe('Start (one-off) or first day (weekly)'),
    ends_at: instant(MAINTENANCE_TEXTS.endsAt).describe('End (one-off) or last moment (weekly)'),
    recurrence: RecurrenceSchema.nullable().default(null),
    reason: reason.default(''),
  })
  .strict()
  .superRefine((w, ctx) => {
    if (Date.parse(w.ends_at) <= Date.parse(w.starts_at))
      ctx.addIssue({ code: 'custom', path: ['ends_at'], message: MAINTENANCE_TEXTS.endsAfter });
  });
export type MaintenanceCreate = z.output<typeof MaintenanceCreateSchema>;
export type MaintenanceCreateInput = z.input<typeof MaintenanceCreateSchema>;

export const MaintenancePatchSchema = z
  .object({
    target: TargetSchema.optional(),
    starts_at: instant(MAINTENANCE_TEXTS.startsAt).optional(),
    ends_at: instant(MAINTENANCE_TEXTS.endsAt).optional(),
    recurrence: RecurrenceSchema.nullable().optional(),
    reason: reason.optional(),
  })
  .strict();
export type MaintenancePatch = z.output<typeof MaintenancePatchSchema>;

export const MaintenanceWindowSchema = z
  .object({
    id: z.number().int(),
    target: TargetAnswerSchema,
    starts_at: z.string(),
    ends_at: z.string().describe('The real end: moved to the moment it was ended early'),
    recurrence: z
      .object({ weekdays: z.array(z.number().int()), start: z.string(), duration_min: z.number().int() })
      .nullable(),
    reason: z.string(),
    created_by: z.string(),
    created_at: z.string(),
    active: z.boolean().describe('Covering at least one terminal now'),
  })
  .describe('A maintenance window');
export type MaintenanceWindow = z.infer<typeof MaintenanceWindowSchema>;

export const MaintenanceListQuerySchema = z.object({
  active: z
    .union([z.boolean(), z.enum(['true', 'false', '1', '0'])], { error: 'active must be true or false' })
    .transform((v) => v === true || v === 'true' || v === '1')
    .optional()
    .describe('true: only windows in force now; false: only those not'),
  ...ListPageSchema.shape,
});
