import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Env } from '../config/env.ts';
import type { TicketRepository, TicketToForward } from '../repositories/ticket-repository.ts';

export interface ZendeskConfig {
  /** The Tickets API endpoint, e.g. https://acme.zendesk.com/api/v2/tickets.json */
  endpoint: string;
  email: string;
  token: string;
}

/** Zendesk settings from ZENDESK_SUBDOMAIN (or ZENDESK_URL), ZENDESK_EMAIL, ZENDESK_TOKEN; null when unset. */
export function zendeskConfig(env: Env): ZendeskConfig | null {
  if (!env.ZENDESK_EMAIL || !env.ZENDESK_TOKEN) return null;
  const base = env.ZENDESK_URL
    ? env.ZENDESK_URL.replace(/\/+$/, '')
    : env.ZENDESK_SUBDOMAIN
      ? `https://${env.ZENDESK_SUBDOMAIN}.zendesk.com`
      : null;
  if (!base) return null;
  return { endpoint: `${base}/api/v2/tickets.json`, email: env.ZENDESK_EMAIL, token: env.ZENDESK_TOKEN };
}

export class ZendeskError extends Error {
  constructor(
    message: string,
    /** Seconds the help desk asked us to wait (429 Retry-After). */
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(message);
  }
}

/** Creates the ticket through Zendesk's Tickets API; returns Zendesk's ticket id. */
export async function createZendeskTicket(
  config: ZendeskConfig,
  ticket: Pick<TicketToForward, 'subject' | 'body' | 'requesterName' | 'requesterEmail'>,
  timeoutMs = 10_000,
): Promise<string> {
  const payload = {
    ticket: {
      subject: ticket.subject,
      comment: { body: ticket.body },
      ...(ticket.requesterEmail
        ? { requester: { name: ticket.requesterName, email: ticket.requesterEmail } }
        : {}),
    },
  };
  let res: Response;
  try {
    res = await fetch(config.endpoint, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        authorization: `Basic ${Buffer.from(`${config.email}/token:${config.token}`).toString('base64')}`,
      },
      body: JSON.stringify(payload),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (err) {
    const e = err as Error & { cause?: { code?: string; message?: string } };
    if (e.name === 'TimeoutError') throw new ZendeskError(`no answer within ${timeoutMs} ms`);
    throw new ZendeskError(e.cause?.code ?? e.cause?.message ?? e.message);
  }
  const text = await res.text().catch(() => '');
  if (!res.ok) {
    const retryAfter = Number(res.headers.get('retry-after'));
    throw new ZendeskError(
      `Zendesk answered ${res.status}${text ? `: ${text.slice(0, 300)}` : ''}`,
      Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null,
    );
  }
  let id: unknown;
  try {
    id = (JSON.parse(text) as { ticket?: { id?: unknown } }).ticket?.id;
  } catch {
    id = undefined;
  }
  if (typeof id !== 'number' && typeof id !== 'string') {
    throw new ZendeskError(`Zendesk answered ${res.status} without a ticket id`);
  }
  return String(id);
}

export interface ForwarderOptions {
  /** Attempts before a ticket is marked failed (default 8). */
  maxAttempts?: number;
  /** First retry delay; doubled after each failure (default 5 s). */
  baseDelayMs?: number;
  /** Longest delay between two attempts (default 30 min). */
  maxDelayMs?: number;
  /** How often pending tickets are looked for when nothing kicks the forwarder (default 15 s). */
  pollMs?: number;
  /** Per-request timeout (default 10 s). */
  timeoutMs?: number;
}

/** Delay before attempt n+1 after n failed attempts: base·2^(n-1), capped. */
export function backoffDelay(failedAttempts: number, baseDelayMs: number, maxDelayMs: number): number {
  return Math.min(maxDelayMs, baseDelayMs * 2 ** Math.max(0, failedAttempts - 1));
}

export interface TicketForwarder {
  /** Forward every ticket due now; resolves when done. */
  runOnce(): Promise<void>;
  /** Look for due tickets soon (a ticket was just created). */
  kick(): void;
  stop(): Promise<void>;
}

/**
 * Forwards pending tickets to Zendesk in the background: pending → forwarded, or after `maxAttempts`
 * failures → failed; failed attempts are retried with exponential backoff.
 */
export function createTicketForwarder(
  deps: { tickets: TicketRepository; config: ZendeskConfig; log: FastifyBaseLogger },
  options: ForwarderOptions = {},
): TicketForwarder {
  const maxAttempts = options.maxAttempts ?? 8;
  const baseDelayMs = options.baseDelayMs ?? 5_000;
  const maxDelayMs = options.maxDelayMs ?? 30 * 60_000;
  const pollMs = options.pollMs ?? 15_000;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const leaseSeconds = Math.ceil(timeoutMs / 1000) * 3 + 30;

  let stopped = false;
  let running: Promise<void> | null = null;
  let again = false;
  let timer: NodeJS.Timeout | null = null;

  async function forward(ticket: TicketToForward) {
    try {
      const zendeskId = await createZendeskTicket(deps.config, ticket, timeoutMs);
      await deps.tickets.markForwarded(ticket.id, zendeskId);
      deps.log.info({ ticketId: ticket.id, zendeskId }, 'ticket forwarded to Zendesk');
    } catch (err) {
      const failed = ticket.attempts + 1;
      const message = err instanceof Error ? err.message : String(err);
      if (failed >= maxAttempts) {
        await deps.tickets.markAttemptFailed(ticket.id, message, null);
        deps.log.error(
          { ticketId: ticket.id, attempts: failed, error: message },
          'ticket forwarding gave up',
        );
        return;
      }
      let delay = backoffDelay(failed, baseDelayMs, maxDelayMs);
      if (err instanceof ZendeskError && err.retryAfterSeconds) {
        delay = Math.min(maxDelayMs, Math.max(delay, err.retryAfterSeconds * 1000));
      }
      await deps.tickets.markAttemptFailed(ticket.id, message, new Date(Date.now() + delay));
      deps.log.warn(
        { ticketId: ticket.id, attempts: failed, retryInMs: delay, error: message },
        'ticket forwarding failed',
      );
    }
  }

  async function drain() {
    do {
      again = false;
      for (;;) {
        if (stopped) return;
        const batch = await deps.tickets.claimDue(10, leaseSeconds);
        if (batch.length === 0) break;
        await Promise.all(batch.map(forward));
      }
    } while (again && !stopped);
  }

  async function schedule() {
    if (stopped) return;
    let wait = pollMs;
    try {
      const next = await deps.tickets.nextDueAt();
      if (next) wait = Math.min(pollMs, Math.max(0, next.getTime() - Date.now()) + 10);
    } catch (err) {
      deps.log.error({ err }, 'ticket forwarder could not read the queue');
    }
    if (stopped) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => void runOnce(), wait);
    timer.unref();
  }

  function runOnce(): Promise<void> {
    if (running) {
      again = true;
      return running;
    }
    running = drain()
      .catch((err) => deps.log.error({ err }, 'ticket forwarder failed'))
      .finally(() => {
        running = null;
      })
      .then(schedule);
    return running;
  }

  return {
    runOnce,
    kick() {
      if (!stopped) void runOnce();
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}

/** Keyed by the app's ticket repository: one object shared by the root app and every plugin context. */
const forwarders = new WeakMap<object, TicketForwarder>();

/** Starts the app's forwarder when Zendesk is configured; returns its stop function. */
export function startTicketForwarder(
  app: FastifyInstance,
  options: ForwarderOptions = {},
): () => Promise<void> {
  const config = zendeskConfig(app.config);
  if (!config) return async () => {};
  const forwarder = createTicketForwarder({ tickets: app.repos.tickets, config, log: app.log }, options);
  forwarders.set(app.repos.tickets, forwarder);
  forwarder.kick();
  return async () => {
    forwarders.delete(app.repos.tickets);
    await forwarder.stop();
  };
}

/** Tells the app's forwarder (when running) that a ticket is waiting. */
export function kickTicketForwarder(app: FastifyInstance): void {
  forwarders.get(app.repos.tickets)?.kick();
}
