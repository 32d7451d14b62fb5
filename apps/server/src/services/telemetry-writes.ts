import type { TelemetryPoint } from '@forecourt/contract/device';
import type { FastifyBaseLogger } from 'fastify';
import { isDatabaseUnavailable } from '../lib/db-unavailable.ts';
import type { DeviceTerminal, TelemetryWrite } from '../repositories/device-repository.ts';

export interface TelemetryWriterOptions {
  /** Stores writes of different terminals in one unit of work (repos.devices.storeTelemetry). */
  store: (writes: readonly TelemetryWrite[]) => Promise<void>;
  log: FastifyBaseLogger;
  /** Batches in flight at once (default 2): while one commits, the next one gathers and starts. */
  maxInFlight?: number;
  /** Most requests in one batch (default 500). */
  maxWrites?: number;
  /** Most points in one batch (default 10,000, a full device batch); a larger request goes alone. */
  maxPoints?: number;
  /**
   * Called with each committed batch, before its requests are answered: what acts on readings as they arrive
   * goes here. A failure is logged; the writes stay accepted (they are committed).
   */
  onStored?: (writes: readonly TelemetryWrite[]) => Promise<void>;
}

interface Pending {
  write: TelemetryWrite;
  resolve: () => void;
  reject: (err: unknown) => void;
}

/**
 * Group commit of device telemetry (docs/decisions/0023-device-write-batching.md). Requests that arrive while
 * the database is busy wait in a queue; each batch takes what has gathered (at most one write per terminal, none
 * of a terminal whose earlier write is still in flight) into one unit of work, and every request is answered
 * only once its batch has committed. A batch that fails for another reason than the database being unreachable
 * is retried one write at a time, so one bad write fails alone.
 */
export function createTelemetryWriter(opts: TelemetryWriterOptions) {
  const maxInFlight = opts.maxInFlight ?? 2;
  const maxWrites = opts.maxWrites ?? 500;
  const maxPoints = opts.maxPoints ?? 10_000;
  const queue: Pending[] = [];
  /** Terminals with a write in a batch now in flight. */
  const busy = new Set<number>();
  let inFlight = 0;
  let scheduled = false;
  const idle: Array<() => void> = [];

  function schedule() {
    if (scheduled || inFlight >= maxInFlight || queue.length === 0) return;
    scheduled = true;
    // Requests parsed in the same turn of the event loop join the batch.
    setImmediate(() => {
      scheduled = false;
      flush();
    });
  }

  function take(): Pending[] {
    const batch: Pending[] = [];
    let points = 0;
    for (let i = 0; i < queue.length && batch.length < maxWrites; ) {
      const p = queue[i];
      const n = p.write.points.length;
      if (busy.has(p.write.terminal.id) || (batch.length > 0 && points + n > maxPoints)) {
        i++;
        continue;
      }
      busy.add(p.write.terminal.id);
      batch.push(p);
      points += n;
      queue.splice(i, 1);
    }
    return batch;
  }

  async function run(batch: Pending[]) {
    const writes = batch.map((p) => p.write);
    let outcome: Array<{ ok: true } | { ok: false; err: unknown }>;
    try {
      await opts.store(writes);
      outcome = batch.map(() => ({ ok: true }));
    } catch (err) {
      if (batch.length === 1 || isDatabaseUnavailable(err)) {
        outcome = batch.map(() => ({ ok: false, err }));
      } else {
        outcome = await Promise.all(
          writes.map((w) =>
            opts.store([w]).then(
              () => ({ ok: true }) as const,
              (e: unknown) => ({ ok: false, err: e }) as const,
            ),
          ),
        );
      }
    }
    const stored = writes.filter((_, i) => outcome[i].ok);
    if (stored.length && opts.onStored) {
      await opts.onStored(stored).catch((err) => opts.log.error({ err }, 'after-telemetry hook failed'));
    }
    batch.forEach((p, i) => {
      const o = outcome[i];
      if (o.ok) p.resolve();
      else p.reject(o.err);
    });
  }

  function flush() {
    while (inFlight < maxInFlight && queue.length > 0) {
      const batch = take();
      if (batch.length === 0) return;
      inFlight++;
      void run(batch).finally(() => {
        inFlight--;
        for (const p of batch) busy.delete(p.write.terminal.id);
        schedule();
        if (inFlight === 0 && queue.length === 0) for (const done of idle.splice(0)) done();
      });
    }
  }

  return {
    /** Stores one device request's points; resolves once they are committed, with how many there were. */
    write(terminal: DeviceTerminal, points: readonly TelemetryPoint[], now: Date): Promise<number> {
      return new Promise<number>((resolve, reject) => {
        queue.push({ write: { terminal, points, now }, resolve: () => resolve(points.length), reject });
        schedule();
      });
    },

    /** Resolves once nothing is queued or in flight. */
    drained(): Promise<void> {
      if (inFlight === 0 && queue.length === 0) return Promise.resolve();
      return new Promise((resolve) => idle.push(resolve));
    },
  };
}
export type TelemetryWriter = ReturnType<typeof createTelemetryWriter>;
