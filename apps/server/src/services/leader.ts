import type { FastifyBaseLogger } from 'fastify';

/**
 * The advisory lock key of the leader (any number every node agrees on; "Forc" in ASCII). Advisory locks are per
 * database, so nodes of different databases on one PostgreSQL server never compete.
 */
export const LEADER_LOCK_KEY = 0x466f7263;

/** A piece of background work that must run on one node at a time: started, it answers its stop function. */
export interface LeaderJob {
  name: string;
  start(): (() => Promise<void> | void) | Promise<() => Promise<void> | void>;
}

/** A lock held on a connection of its own (repositories/settings-repository.ts, db/client.ts sessionLock). */
export interface HeldLock {
  /** Resolves when the lock is gone (its connection died, or it was released). */
  lost: Promise<void>;
  release(): Promise<void>;
}

export interface LeaderOptions {
  /** Takes the lock, or answers null when another node holds it. */
  lock: { take(key: number): Promise<HeldLock | null> };
  log: FastifyBaseLogger;
  jobs: LeaderJob[];
  key?: number;
  /** How often a node that is not the leader tries to become it (ms). */
  retryMs?: number;
}

export interface Leader {
  /** This node holds the lock and runs the jobs. */
  readonly isLeader: boolean;
  /** Tries once at once (so a single node starts its jobs before this resolves), then every `retryMs`. */
  start(): Promise<void>;
  /** Stops the jobs and gives the lock up (another node takes over at its next try). */
  stop(): Promise<void>;
}

/**
 * Leader election over a PostgreSQL session-level advisory lock (docs/deploying.md "Several nodes on one PostgreSQL"). The node that holds
 * the lock runs the jobs; the others try again every few seconds. The lock lives on a connection of its own: when
 * the leader dies (process killed, connection lost) PostgreSQL releases it and another node takes over at its next
 * try. A leader whose lock connection is lost stops its jobs at once and competes again like any other node.
 * PGlite is one process, one node: always the leader.
 */
export function createLeader(opts: LeaderOptions): Leader {
  const { log } = opts;
  const key = opts.key ?? LEADER_LOCK_KEY;
  const retryMs = opts.retryMs ?? 3_000;
  let running = false;
  let lock: HeldLock | null = null;
  let stops: Array<() => Promise<void> | void> = [];
  let timer: NodeJS.Timeout | undefined;
  let attempt: Promise<void> | null = null;
  /** Serialises starting and stopping the jobs. */
  let transition: Promise<void> = Promise.resolve();

  const stopJobs = async () => {
    const list = stops;
    stops = [];
    await Promise.all(
      list.map(async (stop) => {
        try {
          await stop();
        } catch (err) {
          log.error({ err }, 'leader job did not stop cleanly');
        }
      }),
    );
  };

  const startJobs = async () => {
    for (const job of opts.jobs) {
      try {
        stops.push(await job.start());
      } catch (err) {
        log.error({ err, job: job.name }, 'leader job did not start');
      }
    }
  };

  const schedule = () => {
    clearTimeout(timer);
    if (!running || lock) return;
    timer = setTimeout(() => void tryOnce(), retryMs);
    timer.unref();
  };

  const tryOnce = (): Promise<void> => {
    attempt ??= (async () => {
      if (!running || lock) return;
      let got: HeldLock | null = null;
      try {
        got = await opts.lock.take(key);
      } catch (err) {
        // The database is away: try again later like any node that is not the leader.
        log.debug({ err }, 'leader lock not taken');
      }
      if (!got) return;
      if (!running) {
        await got.release().catch(() => {});
        return;
      }
      const held = got;
      lock = held;
      log.info({ jobs: opts.jobs.map((j) => j.name) }, 'this node is the leader');
      transition = transition.then(startJobs);
      await transition;
      void held.lost.then(() => {
        if (lock !== held) return;
        lock = null;
        if (running) log.warn('leader lock lost (database connection gone): background jobs stopped');
        transition = transition.then(stopJobs);
        void transition.then(schedule);
      });
    })().finally(() => {
      attempt = null;
      schedule();
    });
    return attempt;
  };

  return {
    get isLeader() {
      return lock !== null;
    },
    async start() {
      if (running) return;
      running = true;
      await tryOnce();
    },
    async stop() {
      running = false;
      clearTimeout(timer);
      await attempt?.catch(() => {});
      const held = lock;
      lock = null;
      transition = transition.then(stopJobs);
      await transition;
      await held?.release().catch(() => {});
    },
  };
}
