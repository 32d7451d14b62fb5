import { createHmac } from 'node:crypto';
import type { Alert } from '@forecourt/contract/fleet';
import { logPath } from '@forecourt/contract/log-paths';
import type { Delivery, DeliveryEvent } from '@forecourt/contract/notifications';
import type { FastifyBaseLogger } from 'fastify';
import type { AlertRepository } from '../repositories/alert-repository.ts';
import type { ContactPointRecord, ContactPointRepository } from '../repositories/contact-point-repository.ts';
import type { DeliveryPlace, DeliveryRepository } from '../repositories/delivery-repository.ts';
import type { Mailer } from './mailer.ts';
import { type AllowList, postJson } from './outbound-http.ts';
import { repeat, serialWorker } from './repeat.ts';

export interface DeliveriesOptions {
  deliveries: DeliveryRepository;
  contactPoints: ContactPointRepository;
  alerts: AlertRepository;
  mailer: Mailer;
  allow: AllowList;
  /** Delays between attempts (seconds); after the last one a delivery fails. */
  retryDelaysS: readonly number[];
  /** The console's address, for links. */
  publicUrl: string;
  log: FastifyBaseLogger;
  /** How long one HTTP attempt may take (ms). */
  timeoutMs?: number;
  /** How often each node looks for due deliveries (ms). */
  intervalMs?: number;
  /** How often the leader sweeps escalations (ms). */
  escalationMs?: number;
  /** Delivered and failed deliveries older than this many days are deleted by the leader. */
  retentionDays: number;
  /** How often the leader prunes (ms). */
  pruneMs?: number;
  now?: () => Date;
}

/** How long a claim lasts: longer than an attempt can take, so a live node never loses its claim. */
const LEASE_MS = 60_000;
const BATCH = 20;

const EVENT_TITLES: Record<DeliveryEvent, string> = {
  'alert.raised': 'New alert',
  'alert.escalated': 'Escalated: not acknowledged',
  'alert.cleared': 'Cleared',
  test: 'Test notification',
};

/** What a notification is about: the alert (as the API shows it), where it happened, the console's link. */
export interface NotificationContent {
  delivery_id: number;
  event: DeliveryEvent;
  alert: Omit<Alert, 'cursor'> | null;
  site: DeliveryPlace['site'] | null;
  terminal: DeliveryPlace['terminal'] | null;
  link: string;
}

/** `X-Forecourt-Signature`: `sha256=` + hex HMAC-SHA256 of `{timestamp}.{body}` with the contact point's secret. */
export function signature(secret: string, timestamp: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/** One line naming the event, the severity, the alert's text, the site and the link. */
export function notificationText(c: NotificationContent): string {
  if (!c.alert) return `Forecourt: test notification from the console. ${c.link}`;
  const where = c.site ? ` at ${c.site.title} (${c.site.number})` : '';
  const terminal = c.terminal ? `, terminal ${c.terminal.terminal_id}` : '';
  return `${EVENT_TITLES[c.event]} — ${c.alert.severity.toUpperCase()}: ${c.alert.text}${where}${terminal}. ${c.link}`;
}

/** The request each kind of contact point is sent: its body and headers. */
export function requestFor(
  point: Pick<ContactPointRecord, 'kind' | 'secret'>,
  c: NotificationContent,
  now: Date,
): { body: string; headers: Record<string, string> } {
  if (point.kind === 'slack') return { body: JSON.stringify({ text: notificationText(c) }), headers: {} };
  if (point.kind === 'teams') {
    // Teams incoming webhook: the legacy MessageCard (still accepted by connectors and Workflows webhooks).
    const body = {
      '@type': 'MessageCard',
      '@context': 'https://schema.org/extensions',
      summary: c.alert ? `${EVENT_TITLES[c.event]}: ${c.alert.text}` : 'Forecourt test notification',
      text: notificationText(c),
    };
    return { body: JSON.stringify(body), headers: {} };
  }
  const body = JSON.stringify(c);
  const timestamp = String(Math.floor(now.getTime() / 1000));
  const headers: Record<string, string> = {
    'x-forecourt-event': c.event,
    'x-forecourt-delivery': String(c.delivery_id),
    'x-forecourt-timestamp': timestamp,
    'user-agent': 'Forecourt-Webhook/1',
  };
  if (point.secret) headers['x-forecourt-signature'] = signature(point.secret, timestamp, body);
  return { body, headers };
}

/**
 * The notification outbox at work (docs/integrations.md): every node claims due deliveries (FOR UPDATE SKIP LOCKED
 * with a lease) and sends them — webhooks signed, Slack and Teams as their incoming-webhook JSON, email through
 * the mailer — retrying a failure after each of `retryDelaysS` under the same delivery id. The leader sweeps
 * escalations. Sending never happens inside a request that raised an alert.
 */
export function createDeliveries(opts: DeliveriesOptions) {
  const now = opts.now ?? (() => new Date());
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const publicUrl = opts.publicUrl.replace(/\/+$/, '');

  async function contentOf(d: Delivery): Promise<NotificationContent> {
    if (d.alert_id === null)
      return {
        delivery_id: d.id,
        event: d.event,
        alert: null,
        site: null,
        terminal: null,
        link: `${publicUrl}/`,
      };
    const [row, place] = await Promise.all([
      opts.alerts.byId(d.alert_id),
      opts.deliveries.placeOfAlert(d.alert_id),
    ]);
    let alert: NotificationContent['alert'] = null;
    if (row) {
      const { cursor: _c, timezone: _tz, ...rest } = row;
      alert = rest;
    }
    return {
      delivery_id: d.id,
      event: d.event,
      alert,
      site: place?.site ?? null,
      terminal: place?.terminal ?? null,
      link: place ? `${publicUrl}/#${logPath('alert', 'site', place.site.id)}` : `${publicUrl}/`,
    };
  }

  /** One attempt: answers its status code and error (null, null: delivered). */
  async function attempt(point: ContactPointRecord, d: Delivery, at: Date) {
    const content = await contentOf(d);
    if (point.kind === 'email') {
      try {
        const text = notificationText(content);
        await opts.mailer.send({
          to: point.addresses.join(', '),
          subject: content.alert
            ? `[Forecourt] ${EVENT_TITLES[d.event]}: ${content.alert.severity} ${content.alert.issue}${content.site ? ` at ${content.site.title}` : ''}`
            : '[Forecourt] Test notification',
          text: `${text}\n\nDelivery ${d.id}. You receive this because a Forecourt notification policy names "${point.name}".`,
        });
        return { ok: true, statusCode: null, error: null };
      } catch (err) {
        return {
          ok: false,
          statusCode: null,
          error: `mail failed: ${err instanceof Error ? err.message : String(err)}`,
        };
      }
    }
    if (!point.url) return { ok: false, statusCode: null, error: 'no URL' };
    const { body, headers } = requestFor(point, content, at);
    const r = await postJson(point.url, body, headers, opts.allow, timeoutMs);
    return { ok: r.error === null, statusCode: r.statusCode, error: r.error };
  }

  /** Sends one claimed delivery and records the outcome; answers the delivery as recorded. */
  async function send(d: Delivery, retry: boolean, at: Date): Promise<Delivery | null> {
    const point = await opts.contactPoints.forSending(d.contact_point_id);
    if (!point) return null;
    let outcome: { ok: boolean; statusCode: number | null; error: string | null };
    try {
      outcome = await attempt(point, d, at);
    } catch (err) {
      outcome = { ok: false, statusCode: null, error: err instanceof Error ? err.message : String(err) };
    }
    const delay = retry ? opts.retryDelaysS[d.attempts] : undefined;
    const retryAt = !outcome.ok && delay !== undefined ? new Date(at.getTime() + delay * 1000) : null;
    if (!outcome.ok)
      opts.log.warn(
        { delivery: d.id, contactPoint: point.id, status: outcome.statusCode, error: outcome.error },
        retryAt ? 'notification failed; will retry' : 'notification failed for good',
      );
    return opts.deliveries.recordAttempt(d.id, now(), { ...outcome, retryAt });
  }

  async function tickOnce(at: Date): Promise<number> {
    let sent = 0;
    for (;;) {
      const claimed = await opts.deliveries.claimDue(at, LEASE_MS, BATCH);
      if (!claimed.length) return sent;
      const done = await Promise.all(claimed.map((d) => send(d, true, at)));
      sent += done.filter((d) => d?.status === 'delivered').length;
      if (claimed.length < BATCH) return sent;
    }
  }

  const worker = serialWorker(tickOnce, { now, log: opts.log, failed: 'notification worker failed' });
  const service = {
    /** One pass of this node's worker as of `at` (default the clock): answers how many were delivered. */
    tick: worker.tick,

    /** The leader's escalation sweep as of `at`: answers how many escalations it queued. */
    escalate(at: Date = now()): Promise<number> {
      return opts.deliveries.escalateDue(at);
    },

    /** Sends a test notification to a contact point now (once, no retry); answers the delivery. */
    async test(contactPointId: number): Promise<Delivery> {
      const queued = await opts.deliveries.queueTest(contactPointId, now(), LEASE_MS);
      return (await send(queued, false, now())) ?? queued;
    },

    /** Starts this node's worker; returns its stop function. */
    start(): () => Promise<void> {
      return worker.start(opts.intervalMs ?? 2_000);
    },

    /**
     * Deletes the delivered and failed deliveries older than the retention as of `at`, in batches so no
     * statement holds many locks; answers how many went.
     */
    async prune(at: Date = now()): Promise<number> {
      const before = new Date(at.getTime() - opts.retentionDays * 86_400_000);
      let total = 0;
      for (;;) {
        const n = await opts.deliveries.prune(before, 5_000);
        total += n;
        if (n < 5_000) return total;
      }
    },

    /** The leader's job: prunes old deliveries at once and then hourly; returns its stop function. */
    startPruning(): () => Promise<void> {
      let pruning: Promise<unknown> | null = null;
      const run = () => {
        if (pruning) return;
        pruning = service
          .prune()
          .catch((err) => opts.log.error({ err }, 'delivery pruning failed'))
          .finally(() => {
            pruning = null;
          });
      };
      run();
      return repeat(opts.pruneMs ?? 3_600_000, run, () => pruning);
    },

    /** The leader's job: sweeps escalations every `escalationMs` (default 10 s); returns its stop function. */
    startEscalations(): () => Promise<void> {
      let sweeping: Promise<unknown> | null = null;
      const sweep = () => {
        if (sweeping) return;
        sweeping = service
          .escalate()
          .catch((err) => opts.log.error({ err }, 'escalation sweep failed'))
          .finally(() => {
            sweeping = null;
          });
      };
      return repeat(opts.escalationMs ?? 10_000, sweep, () => sweeping);
    },
  };
  return service;
}
export type Deliveries = ReturnType<typeof createDeliveries>;
