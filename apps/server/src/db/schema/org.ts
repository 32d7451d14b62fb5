import type { Severity } from '@forecourt/contract/events';
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
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { textArray, ts } from './columns.ts';

export const agents = pgTable('agents', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
});

export const companies = pgTable(
  'companies',
  {
    id: serial('id').primaryKey(),
    agentId: integer('agent_id')
      .notNull()
      .references(() => agents.id),
    name: text('name').notNull(),
    logo: text('logo'),
    createdAt: ts('created_at').notNull().defaultNow(),
    /** Decommissioned: gone from every read, kept for the logs and the audit (docs/product.md#fleet-administration). */
    decommissionedAt: ts('decommissioned_at'),
  },
  (t) => [
    index('companies_agent_idx').on(t.agentId),
    uniqueIndex('companies_agent_name_uq')
      .on(t.agentId, sql`lower(${t.name})`)
      .where(sql`decommissioned_at is null`),
  ],
);

export const sites = pgTable(
  'sites',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id),
    /** Denormalised from the company for scope queries. */
    agentId: integer('agent_id')
      .notNull()
      .references(() => agents.id),
    title: text('title').notNull(),
    number: text('number').notNull(),
    city: text('city'),
    lat: doublePrecision('lat'),
    lng: doublePrecision('lng'),
    timezone: text('timezone').notNull().default('Europe/London'),
    address: text('address'),
    createdAt: ts('created_at').notNull().defaultNow(),
    decommissionedAt: ts('decommissioned_at'),
  },
  (t) => [
    index('sites_company_idx').on(t.companyId),
    index('sites_agent_idx').on(t.agentId),
    uniqueIndex('sites_company_number_uq').on(t.companyId, t.number).where(sql`decommissioned_at is null`),
  ],
);

export const terminals = pgTable(
  'terminals',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id),
    companyId: integer('company_id').notNull(),
    agentId: integer('agent_id').notNull(),
    /** The displayed terminal number. */
    terminalNo: text('terminal_no').notNull(),
    cardAcceptorName: text('card_acceptor_name').notNull(),
    lat: doublePrecision('lat'),
    lng: doublePrecision('lng'),
    /** 'on' | 'off'; 'unknown' before the first heartbeat. */
    connectivity: text('connectivity').notNull().default('unknown'),
    connectivityChangedAt: ts('connectivity_changed_at').notNull().defaultNow(),
    lastSeenAt: ts('last_seen_at'),
    /** Latest telemetry, kept on the row so dashboards read one row per terminal. */
    batteryLife: doublePrecision('battery_life'),
    flashLeft: doublePrecision('flash_left'),
    temperatureMainBoard: doublePrecision('temperature_main_board'),
    temperatureInsideCabinet: doublePrecision('temperature_inside_cabinet'),
    humidityInsideCabinet: doublePrecision('humidity_inside_cabinet'),
    telemetryAt: ts('telemetry_at'),
    /** This terminal carries the commands of its site's pumps. */
    pumpController: boolean('pump_controller').notNull().default(false),
    /** Labels that targets select by (docs/targets.md); lowercased, at most 20. */
    tags: textArray('tags'),
    /** What the device last reported running; null until it reports. */
    softwareVersion: text('software_version'),
    createdAt: ts('created_at').notNull().defaultNow(),
    decommissionedAt: ts('decommissioned_at'),
  },
  (t) => [
    index('terminals_site_idx').on(t.siteId),
    index('terminals_tags_idx').using('gin', t.tags),
    index('terminals_company_idx').on(t.companyId),
    index('terminals_agent_idx').on(t.agentId),
    index('terminals_last_seen_idx').on(t.lastSeenAt),
    // A decommissioned terminal's number may be given to a new one.
    uniqueIndex('terminals_no_uq').on(t.terminalNo).where(sql`decommissioned_at is null`),
  ],
);

export const pumps = pgTable(
  'pumps',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id),
    /** The terminal that carries this pump's commands. */
    terminalId: integer('terminal_id')
      .notNull()
      .references(() => terminals.id),
    pumpNo: integer('pump_no').notNull(),
    status: smallint('status').notNull().default(0),
    lastSynapseStatus: smallint('last_synapse_status').notNull().default(0),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    decommissionedAt: ts('decommissioned_at'),
  },
  (t) => [
    index('pumps_site_idx').on(t.siteId),
    uniqueIndex('pumps_site_no_uq').on(t.siteId, t.pumpNo).where(sql`decommissioned_at is null`),
  ],
);

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    username: text('username').notNull(),
    email: text('email').notNull(),
    name: text('name').notNull().default(''),
    passwordHash: text('password_hash').notNull(),
    avatar: text('avatar'),
    picture: text('picture'),
    agentId: integer('agent_id').references(() => agents.id),
    passwordChangedAt: ts('password_changed_at').notNull().defaultNow(),
    /** Alert mail from this severity up; null: none (docs/product.md#alert-mail). */
    emailMinSeverity: text('email_min_severity').$type<Severity>(),
    /** Set by an agent: no sign-in, every token refused (docs/product.md#fleet-administration). */
    disabledAt: ts('disabled_at'),
    /**
     * Tokens whose session began before this are refused: set by a trigger when the user is disabled, so a
     * re-enabled user's old tokens stay dead (docs/decisions/0004-accounts-and-passwords.md).
     */
    tokensValidAfter: ts('tokens_valid_after'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_username_uq').on(sql`lower(${t.username})`),
    uniqueIndex('users_email_uq').on(sql`lower(${t.email})`),
  ],
);

export const userCompanies = pgTable(
  'user_companies',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.companyId] })],
);

export const userSites = pgTable(
  'user_sites',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    siteId: integer('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.siteId] })],
);

/** Zones shown by the local-time widget for an agent or a company. */
export const timeZones = pgTable(
  'time_zones',
  {
    id: serial('id').primaryKey(),
    agentId: integer('agent_id').references(() => agents.id),
    companyId: integer('company_id').references(() => companies.id),
    title: text('title').notNull(),
    area: text('area').notNull(),
    tzTitle: text('tz_title').notNull(),
    iana: text('iana').notNull(),
    position: integer('position').notNull().default(0),
  },
  (t) => [index('time_zones_agent_idx').on(t.agentId), index('time_zones_company_idx').on(t.companyId)],
);
