import type { FastifyBaseLogger } from 'fastify';
import type { ConnectivityRepository } from '../repositories/connectivity-repository.ts';
import type { DeviceTerminal } from '../repositories/device-repository.ts';

export interface HeartbeatOptions {
  repo: ConnectivityRepository;
  log: FastifyBaseLogger;
  /** CONNECTIVITY_TIMEOUT: seconds of silence after which a terminal is 'off'. */
  timeoutS: number;
  /** How often coalesced heartbeats are written (ms). */
  flushIntervalMs?: number;
  /** Called when a terminal's connectivity changed (caches of polled reads can drop it). */
  /** Server start; terminals are not declared silent before one timeout has passed since (injectable). */
  startedAt?: number;
}

interface State {
  connectivity: string;
  lastSeen: Date | null;
  dirty: boolean;
  transition: Promise<void> | null;
}

/**
 * Heartbeats and the connectivity watchdog. Any device call is a heartbeat: it is kept in memory and written at
 * most once per flush interval per terminal (one UPDATE for all of them), except a return from 'off' or 'unknown',
 * which is written at once with its connectivity event and 'Terminal online' alert. The watchdog marks terminals
 * silent longer than the timeout 'off' with a 'Terminal offline' alert. Right after a start it waits one timeout
 * first: terminals cannot be blamed for silence while the server itself was down.
 */
export function createHeartbeatService(opts: HeartbeatOptions) {
  const { repo, log } = opts;
  const state = new Map<number, State>();
  const startedAt = opts.startedAt ?? Date.now();
  let flushing: Promise<void> | null = null;

  function entry(t: { id: number; connectivity: string }): State {
    let s = state.get(t.id);
    if (!s) {
      s = { connectivity: t.connectivity, lastSeen: null, dirty: false, transition: null };
      state.set(t.id, s);
    }
    return s;
  }

  async function flushNow() {
    const ids: number[] = [];
    const ats: Date[] = [];
    for (const [id, s] of state) {
      if (s.dirty && s.lastSeen) {
        ids.push(id);
        ats.push(s.lastSeen);
        s.dirty = false;
      }
    }
    if (!ids.length) return;
    try {
      const rows = await repo.flushSeen(ids, ats);
      // Self-healing: a terminal marked off elsewhere (another node, an operator) comes back on its next call.
      for (const r of rows) {
        const s = state.get(r.id);
        if (s && r.connectivity !== 'on') s.connectivity = r.connectivity;
      }
    } catch (err) {
      for (const id of ids) {
        const s = state.get(id);
        if (s) s.dirty = true;
      }
      throw err;
    }
  }

  const service = {
    timeoutS: opts.timeoutS,

    /** Records a device call of `t` at `now`. */
    async seen(t: DeviceTerminal, now: Date = new Date()): Promise<void> {
      const s = entry(t);
      if (!s.lastSeen || now > s.lastSeen) s.lastSeen = now;
      s.dirty = true;
      if (s.connectivity === 'on') return;
      s.transition ??= repo
        .markOnline(t.id, now)
        .then((changed) => {
          s.connectivity = 'on';
          if (changed) {
            log.info({ terminal: t.terminalNo }, 'terminal online');
          }
        })
        .finally(() => {
          s.transition = null;
        });
      await s.transition;
    },

    /** Writes pending heartbeats (one statement for every terminal). */
    async flush(): Promise<void> {
      while (flushing) await flushing.catch(() => {});
      flushing = flushNow().finally(() => {
        flushing = null;
      });
      await flushing;
    },

    /** The watchdog pass as of `now`: marks silent terminals 'off'. Answers the ids it changed. */
    async sweep(now: Date = new Date()): Promise<number[]> {
      await service.flush();
      const cutoff = new Date(now.getTime() - opts.timeoutS * 1000);
      if (cutoff.getTime() < startedAt) return [];
      const ids = await repo.markSilentOffline(cutoff, now);
      for (const id of ids) {
        const s = state.get(id);
        if (s) s.connectivity = 'off';
      }
      if (ids.length) log.info({ count: ids.length }, 'terminals went offline');
      return ids;
    },

    /**
     * Another node (or this one) changed the terminal's connectivity (a 'connectivity' change on the feed): what this
     * node remembers of it may be out of date, so its next call checks the database again (markOnline is a
     * conditional UPDATE: the transition and its alert happen once, whichever node sees the call).
     */
    connectivityChanged(terminalId: number) {
      const s = state.get(terminalId);
      if (s && s.connectivity === 'on') s.connectivity = 'unknown';
    },

    /**
     * Starts the flush timer (every node: each writes the heartbeats it received); returns its stop function,
     * which flushes once more.
     */
    start(): () => Promise<void> {
      const flushTimer = setInterval(() => {
        service.flush().catch((err) => log.error({ err }, 'heartbeat flush failed'));
      }, opts.flushIntervalMs ?? 5_000);
      flushTimer.unref();
      return async () => {
        clearInterval(flushTimer);
        await service.flush().catch((err) => log.error({ err }, 'final heartbeat flush failed'));
      };
    },

    /**
     * Starts the watchdog (on the leader only: services/leader.ts). It decides from last_seen_at in the database,
     * which every node writes (each flushes its own heartbeats every flush interval), never from one node's memory.
     */
    startWatchdog(): () => Promise<void> {
      const every = Math.min(15_000, Math.max(1_000, (opts.timeoutS * 1000) / 4));
      let running: Promise<unknown> | null = null;
      const watchdog = setInterval(() => {
        if (running) return;
        running = service
          .sweep()
          .catch((err) => log.error({ err }, 'connectivity watchdog failed'))
          .finally(() => {
            running = null;
          });
      }, every);
      watchdog.unref();
      return async () => {
        clearInterval(watchdog);
        await running;
      };
    },
  };
  return service;
}
export type HeartbeatService = ReturnType<typeof createHeartbeatService>;
