import type { Severity } from '@forecourt/contract/events';
import type { AlertState } from '@forecourt/contract/fleet';
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  smallint,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { ts } from './columns.ts';

/** Scope columns (agent, company, site) are copied onto every event row so scoped, newest-first reads use one index. */
export const alerts = pgTable(
  'alerts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    terminalId: integer('terminal_id').notNull(),
    siteId: integer('site_id').notNull(),
    companyId: integer('company_id').notNull(),
    agentId: integer('agent_id').notNull(),
    eventType: smallint('event_type').notNull(),
    text: text('text').notNull(),
    startedAt: ts('started_at').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    /** critical | major | minor | info, from the catalogue when raised (docs/event-types.md). */
    severity: text('severity').$type<Severity>().notNull().default('minor'),
    /** active | cleared (docs/product.md#alert-lifecycle). */
    state: text('state').$type<AlertState>().notNull().default('active'),
    clearedAt: ts('cleared_at'),
    acknowledgedAt: ts('acknowledged_at'),
    acknowledgedBy: text('acknowledged_by'),
    acknowledgedById: integer('acknowledged_by_id'),
    note: text('note'),
    /** The alert rule that raised it (event type 100), else null. */
    ruleId: integer('rule_id'),
    /** Raised while a maintenance window covered the terminal (docs/rules-and-maintenance.md). */
    silenced: boolean('silenced').notNull().default(false),
    maintenanceId: integer('maintenance_id'),
  },
  (t) => [
    // One active alert per rule and terminal, whichever node fires it.
    uniqueIndex('alerts_rule_active_uq')
      .on(t.ruleId, t.terminalId)
      .where(sql`state = 'active' and rule_id is not null`),
    index('alerts_silenced_active_idx').on(t.maintenanceId).where(sql`silenced and state = 'active'`),
    index('alerts_agent_idx').on(t.agentId, t.id.desc()),
    // Active alerts: clearing (terminal, type), the widgets, the bell and the by-site view.
    index('alerts_active_terminal_idx').on(t.terminalId, t.eventType).where(sql`state = 'active'`),
    index('alerts_active_agent_idx').on(t.agentId, t.id.desc()).where(sql`state = 'active'`),
    index('alerts_active_company_idx').on(t.companyId, t.id.desc()).where(sql`state = 'active'`),
    index('alerts_active_site_idx').on(t.siteId, t.id.desc()).where(sql`state = 'active'`),
    index('alerts_company_idx').on(t.companyId, t.id.desc()),
    index('alerts_site_idx').on(t.siteId, t.id.desc()),
    index('alerts_agent_type_idx').on(t.agentId, t.eventType, t.id.desc()),
    index('alerts_company_type_idx').on(t.companyId, t.eventType, t.id.desc()),
    index('alerts_site_type_idx').on(t.siteId, t.eventType, t.id.desc()),
  ],
);

/**
 * Raw readings, partitioned by day on `at` (PostgreSQL declarative partitioning, created by migration 0007 and kept
 * by the leader: docs/decisions/0017-telemetry-history.md). Drizzle cannot express PARTITION BY; the key includes
 * `at` because a partitioned table's primary key must.
 */
export const telemetry = pgTable(
  'telemetry',
  {
    id: bigserial('id', { mode: 'number' }).notNull(),
    terminalId: integer('terminal_id').notNull(),
    siteId: integer('site_id').notNull(),
    at: ts('at').notNull(),
    batteryLife: doublePrecision('battery_life'),
    flashLeft: doublePrecision('flash_left'),
    temperatureMainBoard: doublePrecision('temperature_main_board'),
    temperatureInsideCabinet: doublePrecision('temperature_inside_cabinet'),
    humidityInsideCabinet: doublePrecision('humidity_inside_cabinet'),
    lat: doublePrecision('lat'),
    lng: doublePrecision('lng'),
  },
  (t) => [
    primaryKey({ columns: [t.id, t.at] }),
    index('telemetry_site_idx').on(t.siteId, t.id.desc()),
    index('telemetry_terminal_at_idx').on(t.terminalId, t.at),
  ],
);

export const shocks = pgTable(
  'shocks',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    terminalId: integer('terminal_id').notNull(),
    siteId: integer('site_id').notNull(),
    companyId: integer('company_id').notNull(),
    agentId: integer('agent_id').notNull(),
    reading: doublePrecision('reading').notNull(),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [
    index('shocks_company_idx').on(t.companyId, t.id.desc()),
    index('shocks_site_idx').on(t.siteId, t.id.desc()),
    index('shocks_agent_idx').on(t.agentId, t.id.desc()),
  ],
);

export const pumpStatusEntries = pgTable(
  'pump_status_entries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    pumpId: integer('pump_id').notNull(),
    siteId: integer('site_id').notNull(),
    terminalId: integer('terminal_id').notNull(),
    /** What the pump reported: 0 off, 1 on. */
    reportedStatus: smallint('reported_status').notNull(),
    /** Status code; 4000 is normal. */
    code: integer('code').notNull(),
    text: text('text').notNull(),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [
    index('pump_status_site_idx').on(t.siteId, t.id.desc()),
    index('pump_status_pump_idx').on(t.pumpId, t.id.desc()),
  ],
);

export const transactions = pgTable(
  'transactions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    terminalId: integer('terminal_id').notNull(),
    siteId: integer('site_id').notNull(),
    at: ts('at').notNull(),
    volumeL: numeric('volume_l', { precision: 12, scale: 3, mode: 'number' }).notNull(),
    amount: numeric('amount', { precision: 14, scale: 2, mode: 'number' }).notNull(),
  },
  (t) => [index('transactions_site_at_idx').on(t.siteId, t.at)],
);

/** Every on/off change of a terminal: the connectivity log. */
export const connectivityEvents = pgTable(
  'connectivity_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    terminalId: integer('terminal_id').notNull(),
    siteId: integer('site_id').notNull(),
    companyId: integer('company_id').notNull(),
    agentId: integer('agent_id').notNull(),
    status: text('status').notNull(),
    at: ts('at').notNull(),
  },
  (t) => [
    index('connectivity_events_agent_idx').on(t.agentId, t.id.desc()),
    index('connectivity_events_company_idx').on(t.companyId, t.id.desc()),
    index('connectivity_events_site_idx').on(t.siteId, t.id.desc()),
  ],
);

/**
 * Alert mails waiting or sent: one row per recipient and alert, written with the alert (docs/product.md#alert-mail).
 * A background job sends them, at most one mail per user and site per window.
 */
export const alertMails = pgTable(
  'alert_mails',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id').notNull(),
    siteId: integer('site_id').notNull(),
    alertId: bigint('alert_id', { mode: 'number' }).notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    sentAt: ts('sent_at'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: ts('next_attempt_at').notNull().defaultNow(),
    lastError: text('last_error'),
  },
  (t) => [index('alert_mails_pending_idx').on(t.userId, t.siteId).where(sql`sent_at is null`)],
);

/** Per user and site: when the last alert mail went, and which node holds the right to send the next. */
export const alertMailSites = pgTable(
  'alert_mail_sites',
  {
    userId: integer('user_id').notNull(),
    siteId: integer('site_id').notNull(),
    lastSentAt: ts('last_sent_at'),
    claimedUntil: ts('claimed_until'),
  },
  (t) => [primaryKey({ columns: [t.userId, t.siteId] })],
);

/** Administrative changes, device-token provisioning and alert acknowledgements (docs/product.md#audit). */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: ts('at').notNull().defaultNow(),
    userId: integer('user_id'),
    username: text('username'),
    /** The agent whose fleet changed: the audit screen shows an agent its own entries. */
    agentId: integer('agent_id'),
    action: text('action').notNull(),
    entity: text('entity').notNull(),
    entityId: bigint('entity_id', { mode: 'number' }),
    before: jsonb('before'),
    after: jsonb('after'),
  },
  (t) => [
    index('audit_log_entity_idx').on(t.entity, t.id.desc()),
    index('audit_log_agent_idx').on(t.agentId, t.id.desc()),
  ],
);
