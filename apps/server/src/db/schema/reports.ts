import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { ts } from './columns.ts';

/**
 * Reports mailed every week or month (docs/reports.md). The leader claims a due row (`next_run_at` passed, or a run
 * asked for) with FOR UPDATE SKIP LOCKED and a lease (`claimed_until`), makes the report for the period just ended,
 * mails it and moves `next_run_at` to the next boundary: a run missed while no node was up runs once.
 */
export const reportSchedules = pgTable(
  'report_schedules',
  {
    id: serial('id').primaryKey(),
    /** availability | alerts */
    report: text('report').notNull(),
    scopeKind: text('scope_kind').notNull(),
    scopeId: integer('scope_id').notNull(),
    agentId: integer('agent_id').notNull(),
    companyId: integer('company_id'),
    siteId: integer('site_id'),
    /** week | month */
    every: text('every').notNull(),
    /** pdf | csv */
    format: text('format').notNull(),
    recipients: text('recipients').array().notNull(),
    nextRunAt: ts('next_run_at').notNull(),
    runRequested: boolean('run_requested').notNull().default(false),
    claimedUntil: ts('claimed_until'),
    lastRunAt: ts('last_run_at'),
    lastError: text('last_error'),
    createdBy: text('created_by').notNull(),
    createdById: integer('created_by_id').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    deletedAt: ts('deleted_at'),
  },
  (t) => [
    index('report_schedules_owner_idx').on(t.createdById, t.id.desc()),
    index('report_schedules_due_idx').on(t.nextRunAt).where(sql`deleted_at is null`),
  ],
);
