import type { Delivery, DeliveryEvent, DeliveryStatus } from '@forecourt/contract/notifications';
import type { Database } from '../db/client.ts';
import type { notificationDeliveries } from '../db/schema/notifications.ts';
import { managedBySql } from './managed-sql.ts';
import { iso, nullableNum, num } from './read-scope.ts';
import type { Row } from './rows.ts';
import type { Visibility } from './rule-repository.ts';

type DbDelivery = Row<
  typeof notificationDeliveries,
  | 'id'
  | 'alert_id'
  | 'contact_point_id'
  | 'event'
  | 'status'
  | 'attempts'
  | 'last_status_code'
  | 'last_error'
  | 'created_at'
  | 'delivered_at'
>;

const COLS = `d.id, d.alert_id, d.contact_point_id, d.event, d.status, d.attempts, d.last_status_code, d.last_error,
              d.created_at, d.delivered_at`;

function toDelivery(r: DbDelivery): Delivery {
  return {
    id: num(r.id),
    alert_id: nullableNum(r.alert_id),
    contact_point_id: num(r.contact_point_id),
    event: r.event as DeliveryEvent,
    status: r.status as DeliveryStatus,
    attempts: num(r.attempts),
    last_status_code: nullableNum(r.last_status_code),
    last_error: r.last_error,
    created_at: iso(r.created_at)!,
    delivered_at: iso(r.delivered_at),
  };
}

/** Where an alert happened, for a notification's text and body. */
export interface DeliveryPlace {
  site: { id: number; title: string; number: string };
  terminal: { id: number; terminal_id: string };
}

/** What one attempt came to. */
export interface AttemptOutcome {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  /** When to try again; null: not again (delivered, or given up). */
  retryAt: Date | null;
}

export interface DeliveryFilters {
  limit: number;
  before?: string;
  alertId?: number;
  contactPointId?: number;
  status?: DeliveryStatus;
}

/**
 * The notification outbox (docs/integrations.md, docs/decisions/0025-notifications.md). Rows are queued by the
 * alerts table's triggers (alert.raised, alert.cleared), by the leader's escalation sweep and by a test; any node's
 * worker claims due rows with FOR UPDATE SKIP LOCKED, moving their `next_attempt_at` a lease ahead so that a node
 * killed mid-send only delays them. Bookkeeping of the server: not audited, not on the change feed.
 */
export function createDeliveryRepository(database: Database) {
  return {
    async list(v: Visibility, f: DeliveryFilters): Promise<Delivery[]> {
      const params: unknown[] = [v.agentId, v.companyIds];
      const add = (value: unknown) => {
        params.push(value);
        return `$${params.length}`;
      };
      const where = [managedBySql('c', '$1', '$2')];
      if (f.before) where.push(`d.id < ${add(f.before)}::bigint`);
      if (f.alertId !== undefined) where.push(`d.alert_id = ${add(f.alertId)}::bigint`);
      if (f.contactPointId !== undefined) where.push(`d.contact_point_id = ${add(f.contactPointId)}::int`);
      if (f.status) where.push(`d.status = ${add(f.status)}`);
      const rows = await database.query<DbDelivery>(
        `select ${COLS} from notification_deliveries d join contact_points c on c.id = d.contact_point_id
          where ${where.join(' and ')}
          order by d.id desc limit ${add(f.limit)}`,
        params,
      );
      return rows.map(toDelivery);
    },

    async byId(id: number): Promise<Delivery | null> {
      const rows = await database.query<DbDelivery>(
        `select ${COLS} from notification_deliveries d where d.id = $1`,
        [id],
      );
      return rows[0] ? toDelivery(rows[0]) : null;
    },

    /** Queues a test notification to a contact point, already claimed for `leaseMs` by the caller who sends it. */
    async queueTest(contactPointId: number, now: Date, leaseMs: number): Promise<Delivery> {
      const rows = await database.query<DbDelivery>(
        `insert into notification_deliveries as d (contact_point_id, event, next_attempt_at)
         values ($1, 'test', $2::timestamptz + $3 * interval '1 millisecond')
         returning ${COLS}`,
        [contactPointId, now, leaseMs],
      );
      return toDelivery(rows[0]!);
    },

    /** Claims up to `max` due deliveries for `leaseMs`, oldest first. */
    async claimDue(now: Date, leaseMs: number, max: number): Promise<Delivery[]> {
      const rows = await database.query<DbDelivery>(
        `with due as (
           select id from notification_deliveries
            where status in ('pending', 'retrying') and next_attempt_at <= $1
            order by next_attempt_at, id
            limit $3
            for update skip locked
         )
         update notification_deliveries d set next_attempt_at = $1::timestamptz + $2 * interval '1 millisecond'
           from due where d.id = due.id
         returning ${COLS}`,
        [now, leaseMs, max],
      );
      return rows.map(toDelivery).sort((a, b) => a.id - b.id);
    },

    /** Records an attempt: delivered, retried from `retryAt`, or failed for good. */
    async recordAttempt(id: number, now: Date, o: AttemptOutcome): Promise<Delivery | null> {
      const status: DeliveryStatus = o.ok ? 'delivered' : o.retryAt ? 'retrying' : 'failed';
      const rows = await database.query<DbDelivery>(
        `update notification_deliveries d
            set attempts = attempts + 1, status = $3, last_status_code = $4, last_error = $5,
                delivered_at = case when $3 = 'delivered' then $2::timestamptz else delivered_at end,
                next_attempt_at = coalesce($6::timestamptz, next_attempt_at)
          where d.id = $1 and d.status in ('pending', 'retrying')
          returning ${COLS}`,
        [id, now, status, o.statusCode, o.error === null ? null : o.error.slice(0, 300), o.retryAt],
      );
      return rows[0] ? toDelivery(rows[0]) : null;
    },

    /** The site and terminal of an alert (null when the alert is gone). */
    async placeOfAlert(alertId: number): Promise<DeliveryPlace | null> {
      const rows = await database.query<{
        site_id: number;
        title: string;
        number: string;
        terminal_id: number;
        terminal_no: string;
      }>(
        `select s.id as site_id, s.title, s.number, t.id as terminal_id, t.terminal_no
           from alerts a join terminals t on t.id = a.terminal_id join sites s on s.id = a.site_id
          where a.id = $1`,
        [alertId],
      );
      const r = rows[0];
      return r
        ? {
            site: { id: num(r.site_id), title: r.title, number: r.number },
            terminal: { id: num(r.terminal_id), terminal_id: r.terminal_no },
          }
        : null;
    },

    /**
     * The leader's escalation sweep as of `now`: forgets the escalations of alerts cleared, acknowledged or silenced,
     * then queues `alert.escalated` to the escalation contact points of those due (each alert and contact point
     * once). Answers how many deliveries it queued.
     */
    /**
     * Deletes up to `max` delivered or failed deliveries created before `before` (pending and retrying ones stay,
     * however old); answers how many went.
     */
    async prune(before: Date, max: number): Promise<number> {
      const rows = await database.query<{ id: string }>(
        `delete from notification_deliveries where id in (
           select id from notification_deliveries
            where status in ('delivered', 'failed') and created_at < $1
            limit $2)
         returning id`,
        [before, max],
      );
      return rows.length;
    },

    async escalateDue(now: Date): Promise<number> {
      return database.transaction(async (q) => {
        await q(
          `delete from notification_escalations e using alerts a
            where a.id = e.alert_id and (a.state <> 'active' or a.acknowledged_at is not null or a.silenced)`,
        );
        const rows = await q<{ id: number }>(
          `with due as (
             delete from notification_escalations e
              where e.due_at <= $1
                and exists (select 1 from alerts a where a.id = e.alert_id and a.state = 'active'
                              and a.acknowledged_at is null and not a.silenced)
             returning e.alert_id, e.policy_id
           )
           insert into notification_deliveries (alert_id, contact_point_id, event)
           select distinct due.alert_id, c.id, 'alert.escalated'
             from due join notification_policies p on p.id = due.policy_id and p.enabled
             cross join lateral unnest(p.escalate_to_ids) as x(id)
             join contact_points c on c.id = x.id
           on conflict (alert_id, contact_point_id, event) where alert_id is not null do nothing
           returning id`,
          [now],
        );
        return rows.length;
      });
    },
  };
}
export type DeliveryRepository = ReturnType<typeof createDeliveryRepository>;
