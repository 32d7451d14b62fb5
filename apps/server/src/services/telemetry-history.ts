import type { FastifyBaseLogger } from 'fastify';
import type { TelemetryHistoryRepository } from '../repositories/telemetry-history-repository.ts';

const DAY_MS = 86_400_000;

export interface TelemetryHistoryOptions {
  repo: TelemetryHistoryRepository;
  log: FastifyBaseLogger;
  rawRetentionDays: number;
  rollupRetentionDays: number;
  /** How often the leader looks (ms). */
  everyMs?: number;
  /** Hours rolled up per transaction. */
  hoursPerStep?: number;
  /** A pass stops catching up after this long and goes on at the next (ms). */
  budgetMs?: number;
}

/**
 * The leader's telemetry upkeep (docs/decisions/0017-telemetry-history.md): partitions created ahead and dropped when
 * expired, then closed hours rolled up from the high-water mark kept in rollup_state. Everything it knows lives in
 * the database, so a new leader goes on where the last one stopped.
 */
export function createTelemetryHistory(opts: TelemetryHistoryOptions) {
  const { repo, log } = opts;
  const hoursPerStep = opts.hoursPerStep ?? 6;
  const budgetMs = opts.budgetMs ?? 20_000;
  const rawSince = (now: Date) => new Date(now.getTime() - opts.rawRetentionDays * DAY_MS);

  const service = {
    /** One pass: partitions, then roll-ups until caught up (or out of time). */
    async pass(now = new Date()) {
      const partitions = await repo.maintainPartitions(now, {
        rawDays: opts.rawRetentionDays,
        rollupDays: opts.rollupRetentionDays,
      });
      if (partitions.created || partitions.dropped.raw || partitions.dropped.rollup || partitions.clustered)
        log.info(partitions, 'telemetry partitions kept');
      const started = Date.now();
      let hours = 0;
      for (;;) {
        const step = await repo.rollUpStep(now, { maxHours: hoursPerStep, rawSince: rawSince(now) });
        hours += step.hours;
        if (!step.more || Date.now() - started > budgetMs) break;
      }
      return { partitions, hours };
    },

    /** Starts the periodic pass (a leader job); answers its stop function. */
    start(): () => Promise<void> {
      let running: Promise<unknown> | null = null;
      const run = () => {
        if (running) return;
        running = service
          .pass()
          .catch((err) => log.error({ err }, 'telemetry upkeep failed'))
          .finally(() => {
            running = null;
          });
      };
      run();
      const timer = setInterval(run, opts.everyMs ?? 60_000);
      timer.unref();
      return async () => {
        clearInterval(timer);
        await running;
      };
    },
  };
  return service;
}
export type TelemetryHistoryService = ReturnType<typeof createTelemetryHistory>;
