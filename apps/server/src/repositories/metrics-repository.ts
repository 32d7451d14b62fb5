import type { Database } from '../db/client.ts';

/**
 * The counts /metrics reads from the database at each scrape: both use a partial or leading index. Deliveries pending
 * are the notifications not yet sent (pending or retrying) and the alert mails not yet sent.
 */
export function createMetricsRepository(database: Database) {
  return {
    async backlog(): Promise<{ commandsQueued: number; deliveriesPending: number }> {
      const [row] = await database.query<{ commands: number; mails: number }>(
        `select (select count(*) from commands where state = 'queued')::int as commands,
                ((select count(*) from alert_mails where sent_at is null)
                 + (select count(*) from notification_deliveries where status in ('pending', 'retrying')))::int as mails`,
      );
      return { commandsQueued: row?.commands ?? 0, deliveriesPending: row?.mails ?? 0 };
    },
  };
}
