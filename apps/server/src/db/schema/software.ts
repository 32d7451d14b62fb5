import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  customType,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { ts } from './columns.ts';

const bytea = customType<{ data: Uint8Array }>({ dataType: () => 'bytea' });

/**
 * Software and configuration packages (docs/rollouts.md). The file itself is in `software_chunks`, in PostgreSQL, so
 * every node serves it. A package is `ready` once its upload has been stored whole; until then it is listed nowhere.
 */
export const softwarePackages = pgTable(
  'software_packages',
  {
    id: serial('id').primaryKey(),
    agentId: integer('agent_id').notNull(),
    name: text('name').notNull(),
    version: text('version').notNull(),
    kind: text('kind').notNull(),
    size: bigint('size', { mode: 'number' }).notNull().default(0),
    sha256: text('sha256').notNull().default(''),
    /** `uploading` while the file streams in, `ready` once stored whole. */
    state: text('state').notNull().default('uploading'),
    createdBy: text('created_by').notNull(),
    createdById: integer('created_by_id'),
    createdAt: ts('created_at').notNull().defaultNow(),
    deletedAt: ts('deleted_at'),
  },
  (t) => [index('software_packages_agent_idx').on(t.agentId, t.id.desc())],
);

/** A package's bytes in 1 MiB pieces, in order (`seq` from 0): a download reads only the pieces its range needs. */
export const softwareChunks = pgTable(
  'software_chunks',
  {
    packageId: integer('package_id').notNull(),
    seq: integer('seq').notNull(),
    data: bytea('data').notNull(),
  },
  (t) => [primaryKey({ columns: [t.packageId, t.seq] })],
);

/**
 * A rollout of a package to a target, in waves (docs/rollouts.md). Its state moves on the leader's tick
 * (services/rollouts.ts); `wave` is the current wave (1-based), `wave_started_at` when it began.
 */
export const rollouts = pgTable(
  'rollouts',
  {
    id: serial('id').primaryKey(),
    agentId: integer('agent_id').notNull(),
    packageId: integer('package_id').notNull(),
    /** As the API takes it: `{scope: {kind, id}, tags}`, evaluated when a wave starts. */
    target: jsonb('target').notNull(),
    waves: jsonb('waves').notNull(),
    waveWaitS: integer('wave_wait_s').notNull(),
    windowStart: text('window_start'),
    windowEnd: text('window_end'),
    maxFailurePct: doublePrecision('max_failure_pct').notNull(),
    state: text('state').notNull().default('running'),
    wave: integer('wave').notNull().default(1),
    waveStartedAt: ts('wave_started_at').notNull().defaultNow(),
    pausedReason: text('paused_reason'),
    /** Failures of the current wave already accepted by a resume: only more of them pause it again. */
    acceptedFailures: integer('accepted_failures').notNull().default(0),
    createdBy: text('created_by').notNull(),
    createdById: integer('created_by_id'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    finishedAt: ts('finished_at'),
    /** Completed or cancelled: the tick still follows its terminals until then (installs under way, offline checks). */
    trackedUntil: ts('tracked_until'),
  },
  (t) => [
    index('rollouts_agent_idx').on(t.agentId, t.id.desc()),
    index('rollouts_open_idx').on(t.id).where(sql`state in ('running', 'paused')`),
  ],
);

/** One terminal of a rollout: its wave, what it ran before, and where it is (pending … done | failed | skipped). */
export const rolloutTerminals = pgTable(
  'rollout_terminals',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    rolloutId: integer('rollout_id').notNull(),
    terminalId: integer('terminal_id').notNull(),
    wave: integer('wave').notNull(),
    status: text('status').notNull().default('pending'),
    fromVersion: text('from_version'),
    detail: text('detail'),
    /** The install command sent (commands.id). */
    commandId: bigint('command_id', { mode: 'number' }),
    sentAt: ts('sent_at'),
    ackedAt: ts('acked_at'),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('rollout_terminals_uq').on(t.rolloutId, t.terminalId),
    index('rollout_terminals_status_idx').on(t.rolloutId, t.status, t.wave),
    index('rollout_terminals_command_idx').on(t.commandId),
  ],
);
