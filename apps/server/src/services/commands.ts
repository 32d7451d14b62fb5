import type { Target } from '@forecourt/contract/targets';
import type { CommandState, RebootType } from '@forecourt/contract/terminals';
import type { FastifyBaseLogger } from 'fastify';
import type { DeviceCommandRow, Requester, Transition } from '../repositories/command-repository.ts';
import type { Repositories } from '../repositories/index.ts';

export interface CommandServiceOptions {
  repos: Repositories;
  log: FastifyBaseLogger;
  /** How often the sweeper applies deadlines (ms). */
  sweepIntervalMs?: number;
}

/**
 * Commands to devices: queues them, hands them out on a long-poll, applies acknowledgements and deadlines.
 * Waiting pollers are kept per terminal in memory and woken as soon as a command is queued for their terminal:
 * at once when it was queued on this node, and through the change feed ('pump', 'reboot' and 'device' changes,
 * plugins/devices.ts) when it was queued on another node.
 */
export function createCommandService(opts: CommandServiceOptions) {
  const { repos, log } = opts;
  const waiters = new Map<number, Set<() => void>>();
  /**
   * How many times each terminal's pollers were woken. A poller reads it before it looks for commands and waits
   * only if it has not moved since: a wake that comes between its query and its wait is not lost. Kept only for
   * terminals with a long-poll under way (`polling`: how many).
   */
  const wakes = new Map<number, number>();
  const polling = new Map<number, number>();
  let closing = false;

  function wake(terminalId: number) {
    if (polling.has(terminalId)) wakes.set(terminalId, (wakes.get(terminalId) ?? 0) + 1);
    const set = waiters.get(terminalId);
    if (!set) return;
    waiters.delete(terminalId);
    for (const resolve of set) resolve();
  }

  /**
   * Resolves when a command is queued for the terminal, after `ms`, when `signal` aborts, or on shutdown; at once
   * when the terminal was woken since `seen` (its wake count then).
   */
  function waitFor(terminalId: number, ms: number, seen: number, signal?: AbortSignal): Promise<void> {
    if (closing || ms <= 0 || signal?.aborted || (wakes.get(terminalId) ?? 0) !== seen)
      return Promise.resolve();
    return new Promise<void>((resolve) => {
      let set = waiters.get(terminalId);
      if (!set) {
        set = new Set();
        waiters.set(terminalId, set);
      }
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        const s = waiters.get(terminalId);
        s?.delete(done);
        if (s && s.size === 0) waiters.delete(terminalId);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal?.addEventListener('abort', done, { once: true });
      set.add(done);
    });
  }

  const service = {
    async turnPump(pumpId: number, target: 0 | 1, by: Requester) {
      const result = await repos.commands.turnPump(pumpId, target, by);
      if (result.ok) {
        wake(result.command.terminal_id);
      }
      return result;
    },

    async reboot(terminalId: number, rebootType: RebootType, by: Requester) {
      const result = await repos.commands.queueReboot(terminalId, rebootType, by);
      if (result.ok) {
        wake(terminalId);
      }
      return result;
    },

    /**
     * One reboot per terminal of the target (a terminal with one pending is skipped); wakes their long-polls here,
     * other nodes hear of them on the feed. The caller has checked who may aim at the target (services/targets.ts).
     */
    async rebootTarget(
      target: Target,
      rebootType: RebootType,
      by: Requester & { username: string; agentId: number },
    ) {
      const result = await repos.commands.queueTargetReboot(target, rebootType, by);
      for (const id of result.terminalIds) wake(id);
      return result;
    },

    /**
     * Queued commands for a terminal (marked sent); with `waitS`, waits up to that long for one to arrive. Null as
     * soon as `tokenHash` is no longer the terminal's device token (rotated while waiting): nothing is handed out.
     */
    async fetch(
      terminalId: number,
      tokenHash: string,
      waitS: number,
      signal?: AbortSignal,
    ): Promise<DeviceCommandRow[] | null> {
      const deadline = Date.now() + waitS * 1000;
      polling.set(terminalId, (polling.get(terminalId) ?? 0) + 1);
      try {
        for (;;) {
          const seen = wakes.get(terminalId) ?? 0;
          const rows = await repos.commands.takeQueued(terminalId, tokenHash);
          if (rows === null) return null;
          if (rows.length) return rows;
          const left = deadline - Date.now();
          if (left <= 0 || closing || signal?.aborted) return [];
          await waitFor(terminalId, left, seen, signal);
          if (closing || signal?.aborted) return [];
        }
      } finally {
        const n = (polling.get(terminalId) ?? 1) - 1;
        if (n > 0) polling.set(terminalId, n);
        else {
          polling.delete(terminalId);
          wakes.delete(terminalId);
        }
      }
    },

    /** A device's ack; null when the command is not this terminal's. Repeats answer the same, changing nothing. */
    async acknowledge(
      terminalId: number,
      commandId: number,
      result: 'ok' | 'failed',
      detail: string | null,
    ): Promise<{ id: number; state: CommandState } | null> {
      const r = await repos.commands.acknowledge(terminalId, commandId, result, detail);
      if (!r) return null;
      return { id: commandId, state: r.state };
    },

    /** Applies queue expiry and ack timeouts as of `now` (injectable for tests). */
    async sweep(now: Date = new Date()): Promise<Transition[]> {
      const list = await repos.commands.sweep(now);
      if (list.length) {
        log.info({ count: list.length }, 'commands expired or timed out');
      }
      return list;
    },

    /** Starts the periodic sweeper; returns its stop function. */
    start(): () => void {
      const every = opts.sweepIntervalMs ?? 5_000;
      let running = false;
      const timer = setInterval(() => {
        if (running) return;
        running = true;
        service
          .sweep()
          .catch((err) => log.error({ err }, 'command sweep failed'))
          .finally(() => {
            running = false;
          });
      }, every);
      timer.unref();
      return () => clearInterval(timer);
    },

    /**
     * Wakes the terminal's waiting pollers at once: each looks for commands and checks its token again (a command
     * was queued or a token rotated, here or on another node).
     */
    recheck(terminalId: number) {
      wake(terminalId);
    },

    /** Releases every waiting poller (they answer an empty list) and refuses to wait from now on. */
    releaseAll() {
      closing = true;
      for (const id of [...waiters.keys()]) wake(id);
    },

    /** How many pollers are waiting (for tests and health). */
    waiting(): number {
      let n = 0;
      for (const s of waiters.values()) n += s.size;
      return n;
    },
  };
  return service;
}
export type CommandService = ReturnType<typeof createCommandService>;
