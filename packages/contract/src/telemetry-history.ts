import { z } from 'zod';

/** The readings a terminal's history charts (the numeric telemetry of a terminal, not its position). */
export const TELEMETRY_SIGNALS = [
  'battery_life',
  'flash_left',
  'temperature_main_board',
  'temperature_inside_cabinet',
  'humidity_inside_cabinet',
] as const;
export type TelemetrySignal = (typeof TELEMETRY_SIGNALS)[number];

/** Bounds of `points` and of the range one chart may ask for (docs/product.md#telemetry-history). */
export const HISTORY_POINTS = { min: 10, max: 2000, default: 500 } as const;
export const HISTORY_DEFAULT_RANGE_MS = 24 * 3_600_000;
/** "At most 2 years apart": two years of 366 days, so a range across a leap day still fits. */
export const HISTORY_MAX_RANGE_MS = 2 * 366 * 86_400_000;

const instant = (name: string) =>
  z.string({ error: `${name} must be an ISO 8601 date-time, e.g. 2026-11-27T12:00:00Z` }).pipe(
    z.iso.datetime({
      offset: true,
      error: `${name} must be an ISO 8601 date-time, e.g. 2026-11-27T12:00:00Z`,
    }),
  );

export const TelemetryHistoryQuerySchema = z
  .object({
    signal: z
      .enum(TELEMETRY_SIGNALS, { error: `signal must be one of ${TELEMETRY_SIGNALS.join(', ')}` })
      .describe(`The reading to chart: ${TELEMETRY_SIGNALS.join(', ')}`),
    from: instant('from').optional().describe('Start (ISO 8601, inclusive); default `to` minus 24 hours'),
    to: instant('to').optional().describe('End (ISO 8601, exclusive); default now'),
    points: z
      .string()
      .regex(/^\d+$/, `points must be a whole number from ${HISTORY_POINTS.min} to ${HISTORY_POINTS.max}`)
      .transform(Number)
      .pipe(
        z
          .number()
          .min(
            HISTORY_POINTS.min,
            `points must be a whole number from ${HISTORY_POINTS.min} to ${HISTORY_POINTS.max}`,
          )
          .max(
            HISTORY_POINTS.max,
            `points must be a whole number from ${HISTORY_POINTS.min} to ${HISTORY_POINTS.max}`,
          ),
      )
      .optional()
      .describe(
        `At most this many buckets (${HISTORY_POINTS.min}–${HISTORY_POINTS.max}, default ${HISTORY_POINTS.default})`,
      ),
  })
  .superRefine((q, ctx) => {
    if (q.from === undefined || q.to === undefined) return;
    const from = Date.parse(q.from);
    const to = Date.parse(q.to);
    if (to <= from) ctx.addIssue({ code: 'custom', path: ['to'], message: 'to must be after from' });
    else if (to - from > HISTORY_MAX_RANGE_MS)
      ctx.addIssue({ code: 'custom', path: ['to'], message: 'to must be at most 2 years after from' });
  });
export type TelemetryHistoryQuery = z.infer<typeof TelemetryHistoryQuerySchema>;

export const TelemetryBucketSchema = z.object({
  at: z.string().describe('Bucket start (ISO 8601); with step_s 0, the time of the reading'),
  avg: z.number().describe('Mean of the readings in the bucket'),
  min: z.number().describe('Lowest reading in the bucket'),
  max: z.number().describe('Highest reading in the bucket'),
  n: z.number().int().describe('How many readings the bucket holds (1 with step_s 0)'),
});
export type TelemetryBucket = z.infer<typeof TelemetryBucketSchema>;

export const TelemetryHistorySchema = z.object({
  signal: z.enum(TELEMETRY_SIGNALS).describe('The reading charted'),
  from: z.string().describe('Start of the range (ISO 8601)'),
  to: z.string().describe('End of the range (ISO 8601)'),
  step_s: z
    .number()
    .int()
    .describe('Width of each bucket in seconds; 0 when every reading of the range is listed as it is'),
  points: z
    .array(TelemetryBucketSchema)
    .describe('Oldest first, at most `points` of them; buckets without readings are left out'),
});
export type TelemetryHistory = z.infer<typeof TelemetryHistorySchema>;
