import { doublePrecision, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { ts } from './columns.ts';

/** Per signal of @forecourt/contract/telemetry-history: how many readings, their sum, min and max. */
const signalColumns = (name: string) => ({
  [`${name}_n`]: integer(`${name}_n`).notNull().default(0),
  [`${name}_sum`]: doublePrecision(`${name}_sum`),
  [`${name}_min`]: doublePrecision(`${name}_min`),
  [`${name}_max`]: doublePrecision(`${name}_max`),
});

/**
 * One row per terminal and hour (UTC): per signal how many readings, their sum (so an average over many hours is
 * exact), min and max. Partitioned by month on `hour` (migration 0007); written only by the leader's roll-up job
 * (docs/decisions/0017-telemetry-history.md).
 */
export const telemetryHourly = pgTable(
  'telemetry_hourly',
  {
    terminalId: integer('terminal_id').notNull(),
    hour: ts('hour').notNull(),
    ...signalColumns('battery_life'),
    ...signalColumns('flash_left'),
    ...signalColumns('temperature_main_board'),
    ...signalColumns('temperature_inside_cabinet'),
    ...signalColumns('humidity_inside_cabinet'),
  },
  (t) => [primaryKey({ columns: [t.terminalId, t.hour] })],
);

/**
 * Hours of a terminal that got readings after the roll-up may have passed them (a device sending a backlog): written
 * with the readings, in their transaction, and rolled up again by the next run.
 */
export const telemetryRollupPending = pgTable(
  'telemetry_rollup_pending',
  {
    terminalId: integer('terminal_id').notNull(),
    hour: ts('hour').notNull(),
  },
  (t) => [primaryKey({ columns: [t.terminalId, t.hour] })],
);

/** Where the roll-up stands: every hour before `rolled_until` is rolled up (one row, key 'telemetry'). */
export const rollupState = pgTable('rollup_state', {
  key: text('key').primaryKey(),
  rolledUntil: ts('rolled_until').notNull(),
});
