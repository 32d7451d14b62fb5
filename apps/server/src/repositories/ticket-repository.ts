import { eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { tickets, type users } from '../db/schema/index.ts';
import type { Row, SqlRow } from './rows.ts';
import type { Tx } from './unit-of-work.ts';

export type ForwardState = 'stored' | 'pending' | 'forwarded' | 'failed';

export interface TicketToForward {
  id: number;
  subject: string;
  body: string;
  attempts: number;
  requesterName: string;
  requesterEmail: string;
}

/** Support tickets: stored first, then forwarded to the help desk by the background forwarder. */
export function createTicketRepository(database: Database) {
  const { db } = database;
  return {
    /** Stores a ticket; one to forward is due at once. Answers its id. */
    async insert(
      tx: Tx,
      input: { userId: number; subject: string; body: string; forward: boolean },
    ): Promise<number> {
      const [row] = await tx<Row<typeof tickets, 'id'>>(
        `insert into tickets (user_id, subject, body, forward_state, next_attempt_at)
         values ($1, $2, $3, $4, case when $5::boolean then now() end)
         returning id`,
        [input.userId, input.subject, input.body, input.forward ? 'pending' : 'stored', input.forward],
      );
      return Number(row.id);
    },

    async get(id: number) {
      const [row] = await db.select().from(tickets).where(eq(tickets.id, id));
      return row ?? null;
    },

    /**
     * Claims the pending tickets whose next attempt is due, oldest first, with the requester's name and email.
     * A claim pushes the next attempt `leaseSeconds` ahead, so a crash mid-send retries later and two
     * server processes on one PostgreSQL never send the same ticket at once.
     */
    async claimDue(limit: number, leaseSeconds: number): Promise<TicketToForward[]> {
      const rows = await database.query<
        Row<typeof tickets, 'id' | 'subject' | 'body' | 'attempts'> & {
          [K in 'name' | 'username' | 'email']: SqlRow<typeof users>[K] | null;
        }
      >(
        `with due as (
           select id from tickets
            where forward_state = 'pending' and next_attempt_at <= now()
            order by next_attempt_at, id
            limit $1
            for update skip locked
         )
         update tickets t
            set next_attempt_at = now() + make_interval(secs => $2)
           from due
          where t.id = due.id
         returning t.id, t.subject, t.body, t.attempts,
                   (select u.name from users u where u.id = t.user_id) as name,
                   (select u.username from users u where u.id = t.user_id) as username,
                   (select u.email from users u where u.id = t.user_id) as email`,
        [limit, leaseSeconds],
      );
      return rows
        .map((r) => ({
          id: Number(r.id),
          subject: r.subject,
          body: r.body,
          attempts: r.attempts,
          requesterName: r.name || r.username || 'Forecourt user',
          requesterEmail: r.email ?? '',
        }))
        .sort((a, b) => a.id - b.id);
    },

    /** When the next pending ticket is due (null when none is pending). */
    async nextDueAt(): Promise<Date | null> {
      const [row] = await db
        .select({ at: sql<Date | string | null>`min(${tickets.nextAttemptAt})` })
        .from(tickets)
        .where(eq(tickets.forwardState, 'pending'));
      return row?.at ? new Date(row.at) : null;
    },

    async markForwarded(id: number, zendeskId: string): Promise<void> {
      await db
        .update(tickets)
        .set({
          forwardState: 'forwarded',
          zendeskId,
          attempts: sql`${tickets.attempts} + 1`,
          lastError: null,
          nextAttemptAt: null,
        })
        .where(eq(tickets.id, id));
    },

    /** A failed attempt: retried at `retryAt`, or given up (state failed) when retryAt is null. */
    async markAttemptFailed(id: number, error: string, retryAt: Date | null): Promise<void> {
      await db
        .update(tickets)
        .set({
          forwardState: retryAt ? 'pending' : 'failed',
          attempts: sql`${tickets.attempts} + 1`,
          lastError: error.slice(0, 1000),
          nextAttemptAt: retryAt,
        })
        .where(eq(tickets.id, id));
    },
  };
}
export type TicketRepository = ReturnType<typeof createTicketRepository>;
