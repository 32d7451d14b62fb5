import type { TelemetryPoint } from '@forecourt/contract/device';
import type { FastifyBaseLogger } from 'fastify';
import { isDatabaseUnavailable } from '../lib/db-unavailable.ts';
import type { DeviceTerminal, TelemetryWrite } from '../repositories/device-repository.ts';

export interface TelemetryWriterOptions {
  /** Stores writes of different terminals in one unit of work (device-writes.ts `telemetry`). */
  store: (writes: readonly TelemetryWrite[]) => Promise<void>;
  log: FastifyBaseLogger;
  /**
   * Batches in flight at once (default 4, of the pool's 10 connections): while some commit, the next gathers. On a
   * busy database more batches in flight hide its latency; on an idle one few are ever in flight.
   */
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
 * is retried in halves, down to single writes, so one bad write fails alone.
 */
export function createTelemetryWriter(opts: TelemetryWriterOptions) {
  const maxInFlight = opts.maxInFlight ?? 4;
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

  type Outcome = { ok: true } | { ok: false; err: unknown };

  /**
   * Stores `writes` in one unit of work; when the database refuses them (not when it cannot be reached), stores
   * each half again on its own, down to single writes: one bad write fails alone, the others commit in a few
   * transactions, one after the other (a large batch never takes the whole pool).
   */
  async function storeOrSplit(writes: readonly TelemetryWrite[]): Promise<Outcome[]> {
    try {
      await opts.store(writes);
      return writes.map(() => ({ ok: true }));
    } catch (err) {
      if (writes.length === 1 || isDatabaseUnavailable(err)) return writes.map(() => ({ ok: false, err }));
      const half = Math.ceil(writes.length / 2);
      const first = await storeOrSplit(writes.slice(0, half));
      return [...first, ...(await storeOrSplit(writes.slice(half)))];
    }
  }

  async function run(batch: Pending[]) {
    const writes = batch.map((p) => p.write);
    const outcome = await storeOrSplit(writes);
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
