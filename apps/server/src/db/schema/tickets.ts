import { bigserial, index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { ts } from './columns.ts';

export const tickets = pgTable(
  'tickets',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id').notNull(),
    subject: text('subject').notNull(),
    body: text('body').notNull(),
    /** 'stored' (no help desk configured), 'pending', 'forwarded', 'failed'. */
    forwardState: text('forward_state').notNull().default('stored'),
    attempts: integer('attempts').notNull().default(0),
    zendeskId: text('zendesk_id'),
    lastError: text('last_error'),
    nextAttemptAt: ts('next_attempt_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('tickets_forward_idx').on(t.forwardState, t.nextAttemptAt)],
);
