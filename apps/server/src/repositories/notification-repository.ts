import type { Severity } from '@forecourt/contract/events';
import type { Database } from '../db/client.ts';
import type { alertMailSites, alertMails, alerts } from '../db/schema/events.ts';
import type { sites, terminals, users } from '../db/schema/org.ts';
import { iso, num } from './read-scope.ts';
import type { Row, SqlRow } from './rows.ts';
import type { Tx } from './unit-of-work.ts';

/** One queued alert of a mail: what the mail lists. */
export interface PendingAlertMail {
  mailId: number;
  alertId: number;
  severity: Severity;
  text: string;
  startedAt: string;
  eventType: number;
  terminalNo: string;
  siteTitle: string;
  siteNumber: string;
  email: string;
  username: string;
  /** Failed sends so far. */
  attempts: number;
  /** The user's preference now (null: mail turned off since the alert was queued). */
  minSeverity: Severity | null;
}

/** A user's own alert-mail contact point: where it is owned. */
export interface PersonalPoint {
  id: number;
  agentId: number;
  companyId: number | null;
  siteId: number | null;
}

/** The user's own alert-mail contact point through `q` (a unit of work or the pool), if any. */
async function personalPointOn(
  q: <T>(sql: string, params?: unknown[]) => Promise<T[]>,
  userId: number,
): Promise<PersonalPoint | null> {
  const rows = await q<{ id: number; agent_id: number; company_id: number | null; site_id: number | null }>(
    'select id, agent_id, company_id, site_id from contact_points where user_id = $1',
    [userId],
  );
  const r = rows[0];
  return r ? { id: num(r.id), agentId: r.agent_id, companyId: r.company_id, siteId: r.site_id } : null;
}

/**
 * Notification preferences and the alert mail queue (docs/product.md#alert-mail): rows are queued with the
 * alert (alert-sql.ts); any node's background job claims a (user, site) whose window has passed with
 * `FOR UPDATE SKIP LOCKED` and a short lease, so two nodes never send the same mail and a node that dies
 * mid-send only delays it until the lease ends.
 */
export function createNotificationRepository(database: Database) {
  return {
    async prefs(userId: number): Promise<{ email_min_severity: Severity | null } | null> {
      const rows = await database.query<Row<typeof users, 'email_min_severity'>>(
        'select email_min_severity from users where id = $1',
        [userId],
      );
      return rows[0] ?? null;
    },

    /**
     * Sets the preference; a trigger on `users` (migration `personal_alert_mail`) keeps the user's own email
     * contact point in step. Answers that contact point's id and place (null when mail is off).
     */
    async setPrefs(tx: Tx, userId: number, minSeverity: Severity | null): Promise<PersonalPoint | null> {
      await tx('update users set email_min_severity = $2 where id = $1', [userId, minSeverity]);
      return personalPointOn(tx, userId);
    },

    /** The user's own alert-mail contact point, if any. */
    async personalPoint(userId: number): Promise<PersonalPoint | null> {
      return personalPointOn((sql, params) => database.query(sql, params), userId);
    },

    /**
     * Claims up to `max` (user, site) pairs with mail due at `now` and none sent within `windowMs`; the claim
     * lasts `leaseMs`. Answers the claimed pairs.
     */
    async claimDue(
      now: Date,
      windowMs: number,
      leaseMs: number,
      max: number,
    ): Promise<Array<{ userId: number; siteId: number }>> {
      await database.query(
        `insert into alert_mail_sites (user_id, site_id)
         select distinct user_id, site_id from alert_mails where sent_at is null and next_attempt_at <= $1
         on conflict do nothing`,
        [now],
      );
      const rows = await database.query<Row<typeof alertMailSites, 'user_id' | 'site_id'>>(
        `with due as (
           select m.user_id, m.site_id from alert_mail_sites m
            where (m.claimed_until is null or m.claimed_until < $1)
              and (m.last_sent_at is null or m.last_sent_at <= $1::timestamptz - $2 * interval '1 millisecond')
              and exists (select 1 from alert_mails x
                           where x.user_id = m.user_id and x.site_id = m.site_id
                             and x.sent_at is null and x.next_attempt_at <= $1)
            limit $4
            for update skip locked
         )
         update alert_mail_sites m set claimed_until = $1::timestamptz + $3 * interval '1 millisecond'
           from due where m.user_id = due.user_id and m.site_id = due.site_id
         returning m.user_id, m.site_id`,
        [now, windowMs, leaseMs, max],
      );
      return rows.map((r) => ({ userId: r.user_id, siteId: r.site_id }));
    },

    /** Every unsent alert of a (user, site), oldest first. */
    async pending(userId: number, siteId: number): Promise<PendingAlertMail[]> {
      const rows = await database.query<
        { mail_id: SqlRow<typeof alertMails>['id']; alert_id: SqlRow<typeof alerts>['id'] } & Row<
          typeof alertMails,
          'attempts'
        > &
          Row<typeof alerts, 'severity' | 'text' | 'started_at' | 'event_type'> &
          Row<typeof terminals, 'terminal_no'> &
          Row<typeof sites, 'title' | 'number'> &
          Row<typeof users, 'email' | 'username' | 'email_min_severity'>
      >(
        `select x.id as mail_id, x.attempts, a.id as alert_id, a.severity, a.text, a.started_at, a.event_type,
                t.terminal_no, s.title, s.number, u.email, u.username, u.email_min_severity
           from alert_mails x
           join alerts a on a.id = x.alert_id
           join terminals t on t.id = a.terminal_id
           join sites s on s.id = x.site_id
           join users u on u.id = x.user_id
          where x.user_id = $1 and x.site_id = $2 and x.sent_at is null
          order by a.id
          limit 500`,
        [userId, siteId],
      );
      return rows.map((r) => ({
        mailId: num(r.mail_id),
        alertId: num(r.alert_id),
        severity: r.severity,
        text: r.text,
        startedAt: iso(r.started_at)!,
        eventType: Number(r.event_type),
        terminalNo: r.terminal_no,
        siteTitle: r.title,
        siteNumber: r.number,
        email: r.email,
        username: r.username,
        minSeverity: r.email_min_severity,
        attempts: Number(r.attempts),
      }));
    },

    /** The mail went (or is not wanted any more): its rows are done, the window starts when `sent` is true. */
    async markSent(userId: number, siteId: number, mailIds: number[], now: Date, sent: boolean) {
      await database.transaction(async (q) => {
        await q('update alert_mails set sent_at = $2 where id = any($1::bigint[])', [mailIds, now]);
        await q(
          `update alert_mail_sites set claimed_until = null,
                  last_sent_at = case when $4 then $3::timestamptz else last_sent_at end
            where user_id = $1 and site_id = $2`,
          [userId, siteId, now, sent],
        );
      });
    },

    /** The mail failed: its rows are retried from `retryAt`, the claim ends. */
    async markFailed(userId: number, siteId: number, mailIds: number[], retryAt: Date, error: string) {
      await database.transaction(async (q) => {
        await q(
          `update alert_mails set attempts = attempts + 1, next_attempt_at = $2, last_error = $3
            where id = any($1::bigint[])`,
          [mailIds, retryAt, error.slice(0, 500)],
        );
        await q('update alert_mail_sites set claimed_until = null where user_id = $1 and site_id = $2', [
          userId,
          siteId,
        ]);
      });
    },
  };
}
export type NotificationRepository = ReturnType<typeof createNotificationRepository>;
