import type { FastifyInstance } from 'fastify';
import { createLeader, type Leader } from './leader.ts';
import { demoAgentExists, localAddress, startSimulatorProcess } from './simulator-process.ts';
import { createTelemetryHistory } from './telemetry-history.ts';
import { startTicketForwarder } from './zendesk.ts';

export interface Background {
  /** Whether this node runs the work that must run once (services/leader.ts). */
  leader: Leader;
  stop(): Promise<void>;
}

/**
 * Starts the server's background work. On every node: writing the heartbeats it received, alert mail (its queue is
 * claimed with FOR UPDATE SKIP LOCKED and a lease, so nodes share it and never send a mail twice; no node waits for
 * a leader to fail over before mail goes out), the notification outbox (claimed the same way) and the simulator. On the leader only (one node at a time, taken over
 * within seconds when it dies): the connectivity watchdog, command deadlines, ticket forwarding, telemetry
 * upkeep (partitions and roll-ups), the alert rule sweeps (services/alert-rules.ts), notification escalations,
 * scheduled reports (services/reports.ts) and the rollout tick (services/rollouts.ts).
 */
export async function startBackground(
  app: FastifyInstance,
  ctx: { address: string },
  opts: { leaderRetryMs?: number } = {},
): Promise<Background> {
  const stops: Array<() => Promise<void>> = [];
  stops.push(app.heartbeats.start());
  stops.push(app.alertMail.start());
  stops.push(app.deliveries.start());
  const leader = createLeader({
    lock: app.repos.leaderLock,
    log: app.log.child({ service: 'leader' }),
    retryMs: opts.leaderRetryMs,
    jobs: [
      { name: 'connectivity watchdog', start: () => app.heartbeats.startWatchdog() },
      { name: 'command deadlines', start: () => app.commands.start() },
      // Tickets created on another node wait for the leader's next look at the queue (15 s at most).
      { name: 'ticket forwarding', start: () => startTicketForwarder(app) },
      // for_s conditions without a new reading, no_sales, alerts whose maintenance window ended: every 10 s.
      { name: 'alert rule sweeps', start: () => app.rules.start() },
      // Unacknowledged alerts whose policy escalates: every 10 s.
      { name: 'notification escalations', start: () => app.deliveries.startEscalations() },
      // Delivered and failed notifications older than DELIVERY_RETENTION_DAYS: at once, then hourly.
      { name: 'delivery pruning', start: () => app.deliveries.startPruning() },
      // Scheduled reports for the week or month just ended; one missed while no node was up runs once.
      { name: 'report schedules', start: () => app.reports.start() },
      // Rollout waves: every 2 s, and at once when an install command, a version or a connectivity changes.
      { name: 'rollouts', start: () => app.rollouts.start() },
      {
        name: 'telemetry upkeep',
        start: () =>
          createTelemetryHistory({
            repo: app.repos.telemetryHistory,
            log: app.log.child({ service: 'telemetry-history' }),
            rawRetentionDays: app.config.RAW_RETENTION_DAYS,
            rollupRetentionDays: app.config.ROLLUP_RETENTION_DAYS,
          }).start(),
      },
    ],
  });
  await leader.start();
  stops.push(() => leader.stop());
  if (app.config.SIMULATOR) {
    if (await demoAgentExists(app, 'agent')) {
      stops.push(startSimulatorProcess(app, { url: localAddress(ctx.address) }).stop);
    } else {
      app.log.info('simulator not started: the demo users do not exist (SEED=none)');
    }
  }
  return {
    leader,
    async stop() {
      await Promise.all(
        stops.map((stop) => stop().catch((err) => app.log.error({ err }, 'background stop failed'))),
      );
    },
  };
}
