import { sql } from 'drizzle-orm';
import {
  boolean,
  doublePrecision,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
} from 'drizzle-orm/pg-core';
import { authorColumns, localTs, targetColumns, ts } from './columns.ts';

export const alertRules = pgTable(
  'alert_rules',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    ...targetColumns(),
    signal: text('signal').notNull(),
    op: text('op').notNull(),
    threshold: doublePrecision('threshold').notNull(),
    forS: integer('for_s').notNull().default(0),
    clearThreshold: doublePrecision('clear_threshold'),
    severity: text('severity').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    ...authorColumns(),
    deletedAt: ts('deleted_at'),
  },
  (t) => [
    index('alert_rules_agent_idx').on(t.agentId, t.id.desc()),
    index('alert_rules_enabled_idx').on(t.signal).where(sql`enabled and deleted_at is null`),
  ],
);

/**
 * Per rule and terminal: the condition's state between readings, in PostgreSQL so that every node evaluates the same
 * state (rows are locked while a reading is evaluated: docs/decisions/0022-alert-rules-and-windows.md).
 */
export const ruleStates = pgTable(
  'rule_states',
  {
    terminalId: integer('terminal_id').notNull(),
    ruleId: integer('rule_id').notNull(),
    pendingSince: ts('pending_since'),
    firing: boolean('firing').notNull().default(false),
    lastAt: ts('last_at'),
    lastValue: doublePrecision('last_value'),
  },
  (t) => [
    primaryKey({ columns: [t.terminalId, t.ruleId] }),
    index('rule_states_pending_idx').on(t.pendingSince).where(sql`pending_since is not null and not firing`),
    index('rule_states_rule_idx').on(t.ruleId),
  ],
);

/**
 * Transactions per terminal and local hour of its site (wall-clock hour, no zone): the roll-up the `no_sales`
 * baseline is read from (the same hour of the week is `local_hour - 7 days`, whatever the clocks did).
 */
export const salesHours = pgTable(
  'sales_hours',
  {
    terminalId: integer('terminal_id').notNull(),
    localHour: localTs('local_hour').notNull(),
    n: integer('n').notNull(),
  },
  (t) => [primaryKey({ columns: [t.terminalId, t.localHour] })],
);

/** Per terminal: its last sale, and its `no_sales` baseline for one local hour (refreshed when the hour turns). */
export const salesTerminals = pgTable('sales_terminals', {
  terminalId: integer('terminal_id').primaryKey(),
  lastAt: ts('last_at'),
  baselineHour: localTs('baseline_hour'),
  baseline: doublePrecision('baseline').notNull().default(0),
});

export const maintenanceWindows = pgTable(
  'maintenance_windows',
  {
    id: serial('id').primaryKey(),
    ...targetColumns(),
    startsAt: ts('starts_at').notNull(),
    endsAt: ts('ends_at').notNull(),
    /** ISO weekdays (Monday = 1), null for a one-off window. */
    weekdays: smallint('weekdays').array(),
    /** Local start 'HH:MM' of a weekly window. */
    startLocal: text('start_local'),
    durationMin: integer('duration_min'),
    reason: text('reason').notNull().default(''),
    ...authorColumns(),
    /** Set when ended early (DELETE): `ends_at` is then that moment. */
    endedEarlyAt: ts('ended_early_at'),
  },
  (t) => [
    index('maintenance_windows_agent_idx').on(t.agentId, t.id.desc()),
    index('maintenance_windows_ends_idx').on(t.endsAt),
  ],
);
