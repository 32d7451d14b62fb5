import { SEVERITIES, type Severity, severityRank } from '@forecourt/contract/events';
import { ALERT_MAIL_WINDOW_MS } from '@forecourt/contract/users';
import type { FastifyBaseLogger } from 'fastify';
import type { NotificationRepository, PendingAlertMail } from '../repositories/notification-repository.ts';
import type { Mailer } from './mailer.ts';
import { serialWorker } from './repeat.ts';

export interface AlertMailOptions {
  repo: NotificationRepository;
  mailer: Mailer;
  log: FastifyBaseLogger;
  /** The clock (injectable: tests move it instead of waiting). */
  now?: () => Date;
  /** How often the job looks for mail to send (ms). */
  intervalMs?: number;
}

/** How long a node may hold a (user, site) while it sends; another node takes over after that. */
const LEASE_MS = 120_000;
/** Retry delays after a failed mail: 30 s, 1 min, 2 min, … up to the window. */
const retryDelay = (attempts: number) => Math.min(ALERT_MAIL_WINDOW_MS, 30_000 * 2 ** Math.min(attempts, 10));

const worst = (list: PendingAlertMail[]): Severity =>
  SEVERITIES[Math.min(...list.map((m) => severityRank(m.severity)))] ?? 'info';

/** The mail of one (user, site): the first alert alone, or everything that happened since the last mail. */
export function composeAlertMail(list: PendingAlertMail[]) {
  const first = list[0]!;
  const site = `${first.siteTitle} (${first.siteNumber})`;
  const subject =
    list.length === 1
      ? `[Forecourt] ${first.severity}: ${first.text.split(':')[0]} at ${site}`
      : `[Forecourt] ${list.length} alerts at ${site}, worst ${worst(list)}`;
  const lines = list.map(
    (m) =>
      `- ${m.severity.toUpperCase()} ${m.startedAt.slice(0, 16).replace('T', ' ')} UTC, terminal ${m.terminalNo}: ${m.text}`,
  );
  const text = [
    `Hello ${first.username},`,
    '',
    list.length === 1 ? `A new alert at ${site}:` : `New alerts at ${site} since the last mail:`,
    '',
    ...lines,
    '',
    'You receive this because of your notification settings in Forecourt (profile, Notifications).',
  ].join('\n');
  return { to: first.email, subject, text };
}

/**
 * Sends the queued alert mails (docs/product.md#alert-mail): at most one mail per user and site per
 * ALERT_MAIL_WINDOW_MS, listing every alert queued since; a failed mail is retried with a growing delay.
 * Runs in the background, so ingest never waits for SMTP.
 */
export function createAlertMailService(opts: AlertMailOptions) {
  const now = opts.now ?? (() => new Date());

  async function tickOnce(at: Date): Promise<number> {
    let sent = 0;
    const groups = await opts.repo.claimDue(at, ALERT_MAIL_WINDOW_MS, LEASE_MS, 20);
    for (const g of groups) {
      const pending = await opts.repo.pending(g.userId, g.siteId);
      const ids = pending.map((p) => p.mailId);
      const min = pending[0]?.minSeverity ?? null;
      // Mail turned off, or raised above these alerts, since they were queued: they are dropped.
      const wanted = min ? pending.filter((p) => severityRank(p.severity) <= severityRank(min)) : [];
      if (!wanted.length) {
        await opts.repo.markSent(g.userId, g.siteId, ids, at, false);
        continue;
      }
      try {
        await opts.mailer.send(composeAlertMail(wanted));
        await opts.repo.markSent(g.userId, g.siteId, ids, at, true);
        sent++;
      } catch (err) {
        const attempts = Math.max(0, ...pending.map((p) => p.attempts));
        opts.log.warn({ err, user: g.userId, site: g.siteId }, 'alert mail failed; will retry');
        await opts.repo.markFailed(
          g.userId,
          g.siteId,
          ids,
          new Date(at.getTime() + retryDelay(attempts)),
          err instanceof Error ? err.message : String(err),
        );
      }
    }
    return sent;
  }

  const worker = serialWorker(tickOnce, { now, log: opts.log, failed: 'alert mail job failed' });
  const service = {
    /** One pass as of `at` (default: the clock): answers how many mails went. */
    tick: worker.tick,

    /** Starts the job; returns its stop function. */
    start(): () => Promise<void> {
      return worker.start(opts.intervalMs ?? 10_000);
    },
  };
  return service;
}
export type AlertMailService = ReturnType<typeof createAlertMailService>;
