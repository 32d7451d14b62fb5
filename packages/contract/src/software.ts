import { z } from 'zod';
import { TargetAnswerSchema } from './alert-rules.ts';
import { ListPageSchema } from './common.ts';
import { TargetSchema } from './targets.ts';

/**
 * Software packages and rollouts (docs/rollouts.md): an agent uploads a package, then rolls it out to a target in
 * waves (cumulative percentages), each wave inside each site's local window, pausing by itself when too many of a
 * wave's terminals fail. The pure rules (wave sizes, the local window, the failure share) live here with their tests.
 */

export const PACKAGE_KINDS = ['software', 'config'] as const;
export type PackageKind = (typeof PACKAGE_KINDS)[number];

export const ROLLOUT_STATES = ['running', 'paused', 'completed', 'cancelled'] as const;
export type RolloutState = (typeof ROLLOUT_STATES)[number];

/** What became of one terminal of a rollout. */
export const ROLLOUT_STATUSES = ['pending', 'sent', 'installing', 'done', 'failed', 'skipped'] as const;
export type RolloutStatus = (typeof ROLLOUT_STATUSES)[number];
/** Statuses after which a terminal counts as finished for its wave. */
export const FINISHED_STATUSES: readonly RolloutStatus[] = ['done', 'failed', 'skipped'];

export const DEFAULT_WAVES = [1, 10, 100];
export const DEFAULT_WAVE_WAIT_S = 900;
export const DEFAULT_MAX_FAILURE_PCT = 5;
export const MAX_WAVE_WAIT_S = 604_800;

export const SOFTWARE_TEXTS = {
  name: 'name must be text of 1 to 120 characters',
  version: 'version must be text of 1 to 64 printable characters (what terminals report as software_version)',
  kind: "kind must be 'software' or 'config'",
  file: 'file is required: the package, as the multipart field `file`',
  oneFile: 'file: send one file per package',
  tooLarge: (mb: number) => `file is larger than ${mb} MiB (PACKAGE_MAX_MB)`,
  multipart: 'the body must be multipart/form-data with the fields file, name, version and kind',
  packageId: 'package_id must be the id of a package',
  waves: 'waves must be a list of cumulative percentages, ascending, each above 0, ending at 100',
  waveWait: `wave_wait_s must be a whole number of seconds from 0 to ${MAX_WAVE_WAIT_S}`,
  window: 'window must be null or {start: "HH:MM", end: "HH:MM"} (local time of each site)',
  windowStart: 'window.start must be a local time HH:MM, e.g. 22:00',
  windowEnd: 'window.end must be a local time HH:MM, e.g. 05:00',
  maxFailure: 'max_failure_pct must be a number from 0 to 100',
  agentsOnly: 'Only agents manage software and rollouts.',
  notResumable: (state: string) => `This rollout is ${state}: it cannot be resumed.`,
  notPausable: (state: string) => `This rollout is ${state}: it cannot be paused.`,
  notCancellable: (state: string) => `This rollout is ${state}: it cannot be cancelled.`,
  packageInUse: (ids: number[]) =>
    `This package is being rolled out (rollout ${ids.join(', ')}): cancel the rollout first.`,
} as const;

export const SoftwarePackageSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    version: z.string().describe('What terminals report in `software_version` once they run it'),
    kind: z.enum(PACKAGE_KINDS),
    size: z.number().int().describe('Bytes'),
    sha256: z.string().describe('Hex digest of the file'),
    created_by: z.string().optional(),
    created_at: z.string(),
  })
  .describe('A software or configuration package');
export type SoftwarePackage = z.infer<typeof SoftwarePackageSchema>;

/** The text fields of an upload (the file travels beside them). */
export const PackageFieldsSchema = z.object({
  name: z
    .string({ error: SOFTWARE_TEXTS.name })
    .trim()
    .min(1, SOFTWARE_TEXTS.name)
    .max(120, SOFTWARE_TEXTS.name),
  version: z
    .string({ error: SOFTWARE_TEXTS.version })
    .trim()
    .min(1, SOFTWARE_TEXTS.version)
    .max(64, SOFTWARE_TEXTS.version)
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this refuses
    .regex(/^[^\u0000-\u001f\u007f]+$/, SOFTWARE_TEXTS.version)
    .describe('The version terminals will report (software_version) once they run it'),
  kind: z.enum(PACKAGE_KINDS, { error: SOFTWARE_TEXTS.kind }).default('software'),
});
export type PackageFields = z.output<typeof PackageFieldsSchema>;

const LOCAL_TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

export const RolloutWindowSchema = z
  .object(
    {
      start: z.string({ error: SOFTWARE_TEXTS.windowStart }).regex(LOCAL_TIME, SOFTWARE_TEXTS.windowStart),
      end: z.string({ error: SOFTWARE_TEXTS.windowEnd }).regex(LOCAL_TIME, SOFTWARE_TEXTS.windowEnd),
    },
    { error: SOFTWARE_TEXTS.window },
  )
  .strict()
  .describe("Each site's local time; `end` before `start` crosses midnight; equal: the whole day");
export type RolloutWindow = z.infer<typeof RolloutWindowSchema>;

export const RolloutCreateSchema = z
  .object({
    package_id: z
      .number({ error: SOFTWARE_TEXTS.packageId })
      .int(SOFTWARE_TEXTS.packageId)
      .positive(SOFTWARE_TEXTS.packageId)
      .max(2_147_483_647, SOFTWARE_TEXTS.packageId),
    target: TargetSchema,
    waves: z
      .array(z.number({ error: SOFTWARE_TEXTS.waves }), { error: SOFTWARE_TEXTS.waves })
      .min(1, SOFTWARE_TEXTS.waves)
      .max(100, SOFTWARE_TEXTS.waves)
      .refine((w) => wavesProblem(w) === null, SOFTWARE_TEXTS.waves)
      .default(DEFAULT_WAVES)
      .describe('Cumulative percentages of the target, ascending, ending at 100 (default [1, 10, 100])'),
    wave_wait_s: z
      .number({ error: SOFTWARE_TEXTS.waveWait })
      .int(SOFTWARE_TEXTS.waveWait)
      .min(0, SOFTWARE_TEXTS.waveWait)
      .max(MAX_WAVE_WAIT_S, SOFTWARE_TEXTS.waveWait)
      .default(DEFAULT_WAVE_WAIT_S)
      .describe(
        'Seconds a terminal has to finish, and at least between the starts of two waves (default 900)',
      ),
    window: RolloutWindowSchema.nullable().default(null),
    max_failure_pct: z
      .number({ error: SOFTWARE_TEXTS.maxFailure })
      .min(0, SOFTWARE_TEXTS.maxFailure)
      .max(100, SOFTWARE_TEXTS.maxFailure)
      .default(DEFAULT_MAX_FAILURE_PCT)
      .describe("The rollout pauses by itself when more of a wave's finished terminals failed (default 5)"),
  })
  .strict();
export type RolloutCreate = z.output<typeof RolloutCreateSchema>;
export type RolloutCreateInput = z.input<typeof RolloutCreateSchema>;

export const RolloutCountsSchema = z.object({
  pending: z.number().int(),
  sent: z.number().int(),
  installing: z.number().int(),
  done: z.number().int(),
  failed: z.number().int(),
  skipped: z.number().int(),
});
export type RolloutCounts = z.infer<typeof RolloutCountsSchema>;

export const RolloutSchema = z
  .object({
    id: z.number().int(),
    package_id: z.number().int(),
    package: z.object({ name: z.string(), version: z.string() }).nullable().optional(),
    target: TargetAnswerSchema,
    state: z.enum(ROLLOUT_STATES),
    wave: z.number().int().describe('The current wave: 1 for the first'),
    counts: RolloutCountsSchema,
    wave_counts: z
      .array(RolloutCountsSchema.extend({ wave: z.number().int(), percent: z.number() }))
      .optional()
      .describe('The counts of each wave'),
    waves: z.array(z.number()),
    wave_wait_s: z.number().int(),
    window: z.object({ start: z.string(), end: z.string() }).nullable(),
    max_failure_pct: z.number(),
    paused_reason: z.string().nullable(),
    wave_started_at: z.string().nullable().optional(),
    created_by: z.string(),
    created_at: z.string(),
    updated_at: z.string().optional(),
  })
  .describe('A rollout of a package to a target, in waves');
export type Rollout = z.infer<typeof RolloutSchema>;

export const RolloutTerminalSchema = z.object({
  id: z.number().int().describe('Cursor of this row (paging)'),
  terminal: z.object({ id: z.number().int(), terminal_id: z.string() }),
  site: z.object({ id: z.number().int(), title: z.string() }),
  wave: z.number().int(),
  status: z.enum(ROLLOUT_STATUSES),
  from_version: z.string().nullable(),
  detail: z.string().nullable(),
  updated_at: z.string(),
});
export type RolloutTerminal = z.infer<typeof RolloutTerminalSchema>;

export const SoftwareListQuerySchema = ListPageSchema;
export const RolloutListQuerySchema = z.object({
  ...ListPageSchema.shape,
  state: z.enum(ROLLOUT_STATES, { error: `state must be one of ${ROLLOUT_STATES.join(', ')}` }).optional(),
});

const statusText = `status must be one of ${ROLLOUT_STATUSES.join(', ')}`;
export const RolloutTerminalsQuerySchema = z.object({
  ...ListPageSchema.shape,
  status: z
    .union(
      [
        z.enum(ROLLOUT_STATUSES, { error: statusText }),
        z.array(z.enum(ROLLOUT_STATUSES, { error: statusText })),
      ],
      {
        error: statusText,
      },
    )
    .transform((v) => (Array.isArray(v) ? v : [v]))
    .optional()
    .describe('Repeatable: only terminals in these statuses'),
});

/** The device command a wave sends: install this package. */
export const InstallCommandSchema = z.object({
  software_id: z.number().int(),
  version: z.string(),
  sha256: z.string(),
  size: z.number().int(),
  url: z.string().describe('Where the device downloads it (its device token; Range requests resume)'),
});
export type InstallCommand = z.infer<typeof InstallCommandSchema>;

// ---------- pure rules ----------

/** Why a list of cumulative wave percentages is not one, or null. */
export function wavesProblem(waves: readonly number[]): string | null {
  if (!waves.length) return SOFTWARE_TEXTS.waves;
  for (let i = 0; i < waves.length; i++) {
    const w = waves[i];
    if (!Number.isFinite(w) || w <= 0 || w > 100) return SOFTWARE_TEXTS.waves;
    if (i > 0 && w <= waves[i - 1]) return SOFTWARE_TEXTS.waves;
  }
  return waves[waves.length - 1] === 100 ? null : SOFTWARE_TEXTS.waves;
}

/**
 * How many of `total` terminals are in waves up to each one (cumulative): `ceil(total × percent / 100)`, so a wave
 * with a share above 0 reaches at least one terminal, and the last reaches them all.
 */
export function cumulativeWaveSizes(total: number, waves: readonly number[]): number[] {
  return waves.map((p, i) =>
    i === waves.length - 1 ? total : Math.max(0, Math.min(total, Math.ceil((total * p) / 100 - 1e-9))),
  );
}

/** The wave (1-based) of the terminal at `rank` (0-based) of `total`. */
export function waveOfRank(rank: number, sizes: readonly number[]): number {
  const i = sizes.findIndex((s) => rank < s);
  return i === -1 ? sizes.length : i + 1;
}

const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** Whether a local time (minutes after midnight) lies in the window: start inclusive, end exclusive; may cross midnight. */
export function inWindow(localMinutes: number, window: RolloutWindow | null): boolean {
  if (!window) return true;
  const start = minutesOf(window.start);
  const end = minutesOf(window.end);
  if (start === end) return true;
  return start < end
    ? localMinutes >= start && localMinutes < end
    : localMinutes >= start || localMinutes < end;
}

/** Whether a wave's failures pause the rollout: the failed share of its finished terminals exceeds `maxPct`. */
export function failureExceeds(failed: number, done: number, maxPct: number): boolean {
  const finished = failed + done;
  return finished > 0 && (failed * 100) / finished > maxPct;
}

/** The `paused_reason` of an automatic pause. */
export function autoPauseReason(wave: number, failed: number, done: number, maxPct: number): string {
  const pct = Math.round(((failed * 100) / (failed + done)) * 10) / 10;
  return `Wave ${wave}: ${failed} of ${failed + done} finished terminals failed (${pct}%), more than max_failure_pct ${maxPct}%`;
}

export const emptyCounts = (): RolloutCounts => ({
  pending: 0,
  sent: 0,
  installing: 0,
  done: 0,
  failed: 0,
  skipped: 0,
});
