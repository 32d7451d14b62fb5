import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import {
  authorColumns,
  intArray,
  placeColumns,
  smallintArray,
  targetColumns,
  textArray,
  ts,
} from './columns.ts';
import { users } from './org.ts';

/**
 * Where notifications go (docs/integrations.md): an email list, or a webhook, Slack or Teams URL. Owned by a scope
 * (`owner_kind`, `owner_id`), with that scope's agent, company and site ids copied on (null above it) so reads by
 * scope are column comparisons.
 */
export const contactPoints = pgTable(
  'contact_points',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    kind: text('kind').notNull(),
    addresses: textArray('addresses'),
    url: text('url'),
    /** The webhook signing key (HMAC-SHA256); never answered after the creation. */
    secret: text('secret'),
    ownerKind: text('owner_kind').notNull(),
    ownerId: integer('owner_id').notNull(),
    ...placeColumns(),
    ...authorColumns(),
    /**
     * Set on a user's own alert mail (docs/decisions/0025-notifications.md): kept in step with the user's
     * preference and address by a trigger on `users`; delivered as the windowed alert mail, not by the outbox.
     */
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
  },
  (t) => [
    index('contact_points_agent_idx').on(t.agentId, t.id.desc()),
    uniqueIndex('contact_points_user_uq').on(t.userId),
  ],
);

/** Which alerts go where: a target and filters, the contact points, and whom to escalate to. */
export const notificationPolicies = pgTable(
  'notification_policies',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    ...targetColumns(),
    minSeverity: text('min_severity').notNull().default('info'),
    eventTypes: smallintArray('event_types'),
    ruleIds: intArray('rule_ids'),
    contactPointIds: intArray('contact_point_ids'),
    escalateAfterS: integer('escalate_after_s'),
    escalateToIds: intArray('escalate_to_ids'),
    enabled: boolean('enabled').notNull().default(true),
    ...authorColumns(),
  },
  (t) => [
    index('notification_policies_agent_idx').on(t.agentId, t.id.desc()),
    index('notification_policies_enabled_idx').on(t.scopeKind, t.scopeId).where(sql`enabled`),
  ],
);

/**
 * The outbox: one row per notification to one contact point, queued with the alert (by the alerts table's triggers)
 * and sent by any node's worker, which claims due rows with FOR UPDATE SKIP LOCKED and a lease (`next_attempt_at`).
 * Its id is the `delivery_id` receivers see, the same on every retry.
 */
export const notificationDeliveries = pgTable(
  'notification_deliveries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    alertId: bigint('alert_id', { mode: 'number' }),
    contactPointId: integer('contact_point_id')
      .notNull()
      .references(() => contactPoints.id, { onDelete: 'cascade' }),
    event: text('event').notNull(),
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lastStatusCode: integer('last_status_code'),
    lastError: text('last_error'),
    createdAt: ts('created_at').notNull().defaultNow(),
    deliveredAt: ts('delivered_at'),
    nextAttemptAt: ts('next_attempt_at').notNull().defaultNow(),
  },
  (t) => [
    // Each event of an alert reaches a contact point once.
    uniqueIndex('notification_deliveries_once_uq')
      .on(t.alertId, t.contactPointId, t.event)
      .where(sql`alert_id is not null`),
    index('notification_deliveries_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`status in ('pending', 'retrying')`),
    index('notification_deliveries_cp_idx').on(t.contactPointId, t.id.desc()),
  ],
);

/** Escalations to come: one row per alert and policy with an escalation, until it is sent or no longer due. */
export const notificationEscalations = pgTable(
  'notification_escalations',
  {
    alertId: bigint('alert_id', { mode: 'number' }).notNull(),
    policyId: integer('policy_id')
      .notNull()
      .references(() => notificationPolicies.id, { onDelete: 'cascade' }),
    dueAt: ts('due_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.alertId, t.policyId] }),
    index('notification_escalations_due_idx').on(t.dueAt),
  ],
);
