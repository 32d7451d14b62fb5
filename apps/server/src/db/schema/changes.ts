import { bigint, bigserial, customType, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** PostgreSQL's 64-bit transaction id (pg_current_xact_id()), read back as text. */
const xid8 = customType<{ data: string }>({ dataType: () => 'xid8' });

/**
 * The change feed (docs/decisions/0015-live-fleet.md): one row per write that changes what a screen shows, written in
 * the same transaction as the write, naming where it happened. Every node follows it by id (LISTEN/NOTIFY wakes
 * it) to update live streams, drop shared snapshots, wake device long-polls and forget cached sessions. `xid` is the
 * writer's transaction, so a reader can tell a gap still being written from a rolled-back one and never skips a
 * change that commits late. Kept 15 minutes.
 */
export const changes = pgTable(
  'changes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    xid: xid8('xid').notNull(),
    /** telemetry, alert, connectivity, pump, reboot, transaction, shock, fleet; internal: session, device. */
    kind: text('kind').notNull(),
    agentId: integer('agent_id'),
    companyId: integer('company_id'),
    siteId: integer('site_id'),
    terminalId: integer('terminal_id'),
    pumpId: integer('pump_id'),
    /** For 'session' changes: the user whose sessions or rights changed. */
    userId: integer('user_id'),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('changes_at_idx').on(t.at)],
);

/** One row: every change with an id up to `pruned_through` is gone (a reader behind it must start over). */
export const changeFeedState = pgTable('change_feed_state', {
  id: integer('id').primaryKey().default(1),
  prunedThrough: bigint('pruned_through', { mode: 'number' }).notNull().default(0),
});

/**
 * Settings every node shares, by name: `jwt_secret` (when JWT_SECRET is unset, the first node generates it and keeps
 * it here, so a token from one node works on every node).
 */
export const sharedSettings = pgTable('shared_settings', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});
