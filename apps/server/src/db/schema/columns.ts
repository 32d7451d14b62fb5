import { sql } from 'drizzle-orm';
import { integer, smallint, text, timestamp } from 'drizzle-orm/pg-core';

/** A `timestamptz` column read as a Date; its SQL name stays a literal type (repositories/rows.ts keys rows by it). */
export const ts = <N extends string>(name: N) => timestamp(name, { withTimezone: true, mode: 'date' });

/** A wall-clock `timestamp` (no zone), read as its text: a site's local hour. */
export const localTs = <N extends string>(name: N) =>
  timestamp(name, { withTimezone: false, mode: 'string' });

/** A `text[]` column that is never null, empty by default. */
export const textArray = <N extends string>(name: N) =>
  text(name).array().notNull().default(sql`'{}'::text[]`);

/** An `int[]` column that is never null, empty by default. */
export const intArray = <N extends string>(name: N) =>
  integer(name).array().notNull().default(sql`'{}'::int[]`);

/** A `smallint[]` column that is never null, empty by default. */
export const smallintArray = <N extends string>(name: N) =>
  smallint(name).array().notNull().default(sql`'{}'::smallint[]`);

/**
 * Where a row's scope sits: the agent, company and site ids of that scope copied on (null above it), so that reads by
 * scope are plain column comparisons.
 */
export const placeColumns = () => ({
  agentId: integer('agent_id').notNull(),
  companyId: integer('company_id'),
  siteId: integer('site_id'),
});

/**
 * Where a rule, a window or a notification policy aims (a target, docs/rules-and-maintenance.md): the scope as
 * given and its place, so that the match with a terminal is a column comparison too.
 */
export const targetColumns = () => ({
  scopeKind: text('scope_kind').notNull(),
  scopeId: integer('scope_id').notNull(),
  tags: textArray('tags'),
  ...placeColumns(),
});

/** Who created a row (name as shown, user id while the user exists) and when. */
export const authorColumns = () => ({
  createdBy: text('created_by').notNull(),
  createdById: integer('created_by_id'),
  createdAt: ts('created_at').notNull().defaultNow(),
});
