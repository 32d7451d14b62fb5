import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { isDatabaseUnavailable } from '../lib/db-unavailable.ts';
import { errorBody } from '../lib/errors.ts';
import { liveStreamsOf } from '../services/live/hub.ts';

export const METRICS_PATH = '/metrics';

export interface Metrics {
  registry: Registry;
  /** Items a device write stored, by kind (telemetry, events, shocks, transactions, pumps/status). */
  deviceWrites(kind: string, items: number): void;
  /** Tells the leader gauge where to look (services/background.ts starts the leader after the app is built). */
  leaderFrom(isLeader: () => boolean): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    metrics: Metrics;
  }
}

const digest = (s: string) => createHash('sha256').update(s).digest();

/** `Authorization: Bearer <token>` compared in constant time (both sides hashed to one length first). */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return timingSafeEqual(digest(m?.[1] ?? ''), digest(token)) && m !== null;
}

/** A database error: unreachable or timed out, or an error PostgreSQL (or PGlite) answered a statement with. */
function databaseErrorKind(err: unknown): 'unavailable' | 'query' | null {
  if (isDatabaseUnavailable(err)) return 'unavailable';
  const e = err as { code?: unknown; severity?: unknown; name?: unknown } | null;
  if (e && typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code) && e.severity !== undefined)
    return 'query';
  return null;
}

/**
 * Prometheus metrics of this node (docs/deploying.md, "Metrics"). Counted always; served at GET /metrics only when
 * METRICS_TOKEN is set, to `Authorization: Bearer <METRICS_TOKEN>` (401 otherwise); unset, /metrics is 404.
 */
export const metricsPlugin = fp(async (app: FastifyInstance) => {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const readyAt = { ms: Date.now() };
  let isLeader: () => boolean = () => false;

  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from request to answer, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const deviceWrites = new Counter({
    name: 'forecourt_device_writes_total',
    help: 'Items stored by the device API, by kind',
    labelNames: ['kind'] as const,
    registers: [registry],
  });
  const databaseErrors = new Counter({
    name: 'forecourt_database_errors_total',
    help: 'Requests that failed on a database error: unavailable (unreachable, timed out) or query (an SQL error)',
    labelNames: ['kind'] as const,
    registers: [registry],
  });
  new Gauge({
    name: 'forecourt_live_streams',
    help: 'Live streams (GET /api/live) open on this node',
    registers: [registry],
    collect() {
      this.set(liveStreamsOf(app.feed)?.size ?? 0);
    },
  });
  new Gauge({
    name: 'forecourt_change_feed_lag_seconds',
    help: "Seconds since this node's change feed last read the change table (it reads at least every second)",
    registers: [registry],
    collect() {
      const last = app.feed.stats.lastReadAt || readyAt.ms;
      this.set(Math.max(0, (Date.now() - last) / 1000));
    },
  });
  new Gauge({
    name: 'forecourt_leader',
    help: 'Whether this node is the leader that runs the once-only background work (1) or not (0)',
    registers: [registry],
    collect() {
      this.set(isLeader() ? 1 : 0);
    },
  });
  const commandsQueued = new Gauge({
    name: 'forecourt_commands_queued',
    help: 'Pump and reboot commands queued for a terminal and not yet fetched (whole database)',
    registers: [registry],
  });
  const deliveriesPending = new Gauge({
    name: 'forecourt_deliveries_pending',
    help: 'Notifications (webhook, Slack, Teams, email contact points) and alert mails waiting to be sent (whole database)',
    registers: [registry],
  });

  app.decorate('metrics', {
    registry,
    deviceWrites(kind: string, items: number) {
      deviceWrites.inc({ kind }, items);
    },
    leaderFrom(fn: () => boolean) {
      isLeader = fn;
    },
  } satisfies Metrics);

  app.addHook('onReady', async () => {
    readyAt.ms = Date.now();
  });
  app.addHook('onResponse', async (request, reply) => {
    const labels = {
      method: request.method,
      route: request.routeOptions.url ?? '(unmatched)',
      status: String(reply.statusCode),
    };
    requests.inc(labels);
    duration.observe(labels, reply.elapsedTime / 1000);
  });
  app.addHook('onError', async (_request, _reply, error) => {
    const kind = databaseErrorKind(error);
    if (kind) databaseErrors.inc({ kind });
  });

  const token = app.config.METRICS_TOKEN;
  app.get(METRICS_PATH, { schema: { hide: true } }, async (request, reply) => {
    if (!token) {
      return reply.status(404).send(errorBody([`Not found: ${request.method} ${METRICS_PATH}`]));
    }
    if (!bearerMatches(request.headers.authorization, token)) {
      reply.header('www-authenticate', 'Bearer');
      return reply.status(401).send(errorBody(['Send Authorization: Bearer <METRICS_TOKEN>.']));
    }
    // The two database counts are read at scrape time; a database that is down leaves them at their last value.
    try {
      const backlog = await app.repos.metrics.backlog();
      commandsQueued.set(backlog.commandsQueued);
      deliveriesPending.set(backlog.deliveriesPending);
    } catch (err) {
      request.log.warn({ err }, 'metrics: the database counts could not be read');
    }
    reply.header('cache-control', 'no-store');
    reply.type(registry.contentType);
    return registry.metrics();
  });
});
