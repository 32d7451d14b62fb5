import type { FastifyBaseLogger } from 'fastify';

/**
 * Calls `tick` every `everyMs` on a timer that never holds the process open; answers the job's stop function, which
 * stops the timer and waits for the pass `inFlight` answers (if any) to settle.
 */
export function repeat(
  everyMs: number,
  tick: () => void,
  inFlight: () => Promise<unknown> | null,
): () => Promise<void> {
  const timer = setInterval(tick, everyMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await inFlight()?.catch(() => 0);
  };
}

/**
 * A worker of this node over `pass` (its queue is claimed, so nodes share it): `tick` runs one pass after the one
 * under way, never two at once; `start` ticks every `everyMs` as of `now()`, skipping a beat while a pass runs, and
 * logs a failed pass as `failed`.
 */
export function serialWorker<R>(
  pass: (at: Date) => Promise<R>,
  o: { now: () => Date; log: FastifyBaseLogger; failed: string },
) {
  let running: Promise<R> | null = null;
  async function tick(at: Date = o.now()): Promise<R> {
    while (running) await running.catch(() => 0);
    running = pass(at).finally(() => {
      running = null;
    });
    return running;
  }
  return {
    tick,
    start(everyMs: number): () => Promise<void> {
      const beat = () => {
        if (running) return;
        tick().catch((err) => o.log.error({ err }, o.failed));
      };
      return repeat(everyMs, beat, () => running);
    },
  };
}
