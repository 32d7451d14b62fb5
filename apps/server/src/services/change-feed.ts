import type { FastifyBaseLogger } from 'fastify';
import { isDatabaseUnavailable } from '../lib/db-unavailable.ts';
import { CHANGE_CHANNEL, type Change, type ChangeRepository } from '../repositories/change-repository.ts';

export interface ChangeFeedOptions {
  repo: ChangeRepository;
  /** LISTEN on the database (Database.listen): calls `onNotify` on each NOTIFY; resolves to the unlisten function. */
  listen: (channel: string, onNotify: () => void) => Promise<() => Promise<void>>;
  log: FastifyBaseLogger;
  /** Read at least this often even without a NOTIFY (ms): a lost notification costs at most this much. */
  fallbackMs?: number;
  /** While a gap in the ids may still be filled by a transaction in flight, look again this often (ms). */
  gapRetryMs?: number;
  /** Changes are kept this long (ms); docs/product.md "Live updates" promises at least 10 minutes. */
  retentionMs?: number;
  /** How often this node prunes (ms); any node may, the delete is idempotent. */
  pruneEveryMs?: number;
  /** Rows read per query. */
  batch?: number;
}

export interface ChangeFeed {
  /** Every change with an id up to this one has been handed to the subscribers of this node (or never will be: rolled back). */
  readonly cursor: number;
  /** Resolves once the cursor is valid (the first read is done). */
  ready: Promise<void>;
  /** Whether `ready` has resolved: the cursor is valid. */
  readonly isReady: boolean;
  /** `fn` gets every change committed on any node, in id order, in batches. Returns the unsubscribe function. */
  subscribe(fn: (changes: Change[]) => void): () => void;
  /** Changes with an id in (after, upto] from the database, in order; 'reset' when `after` is older than the retention. */
  backlog(after: number, upto: number): Promise<Change[] | 'reset'>;
  /** Read now (after a write on this node; NOTIFY would do it too). */
  poke(): void;
  /**
   * Resolves true once this node has handed change `id` to its subscribers (so its snapshots no longer predate it),
   * or false after `maxWaitMs`: a client told of a change by another node's stream refetches here.
   */
  caughtUp(id: number, maxWaitMs: number): Promise<boolean>;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** `lastReadAt`: when the last read of the change table answered (ms since the epoch; 0 before the first). */
  stats: { reads: number; delivered: number; gapsSkipped: number; lastReadAt: number };
}

/**
 * Follows the change table (docs/decisions/0015-live-fleet.md). One reader per node: NOTIFY (or the fallback timer)
 * wakes it, it reads the rows after its cursor and hands them to the subscribers in id order.
 *
 * Commit order: ids are drawn when a writer inserts, but transactions commit in any order, so a reader may see
 * id 12 while 11 is still being written. The cursor never passes a missing id until it is settled: either the row
 * appears, or every transaction that was running when the gap was first seen (below that snapshot's xmax) has
 * ended — then the id belonged to a rolled-back transaction (or a sequence value never used) and is skipped. A
 * writer takes its transaction id before drawing ids (unit-of-work.ts), so a transaction that still holds a gap is
 * always one of those.
 */
export function createChangeFeed(opts: ChangeFeedOptions): ChangeFeed {
  const { repo, log } = opts;
  const fallbackMs = opts.fallbackMs ?? 1_000;
  const gapRetryMs = opts.gapRetryMs ?? 25;
  const retentionMs = opts.retentionMs ?? 15 * 60_000;
  const pruneEveryMs = opts.pruneEveryMs ?? 60_000;
  const batch = opts.batch ?? 2_000;

  const subscribers = new Set<(changes: Change[]) => void>();
  const stats = { reads: 0, delivered: 0, gapsSkipped: 0, lastReadAt: 0 };
  let cursor = 0;
  /** The first missing id after the cursor, and the xmax of the snapshot that first saw a row beyond it. */
  let gap: { id: number; xmax: bigint } | null = null;
  let running = false;
  let reading: Promise<void> | null = null;
  let again = false;
  let timer: NodeJS.Timeout | undefined;
  let pruneTimer: NodeJS.Timeout | undefined;
  let unlisten: (() => Promise<void>) | null = null;
  let isReady = false;
  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => {
    markReady = () => {
      isReady = true;
      resolve();
    };
  });

  /** Callers of caughtUp waiting for the cursor to reach an id. */
  const waiting = new Set<{ id: number; done: (ok: boolean) => void }>();

  const deliver = (changes: Change[]) => {
    if (!changes.length) return;
    try {
      notifySubscribers(changes);
    } finally {
      for (const w of waiting) if (cursor >= w.id) w.done(true);
    }
  };

  const notifySubscribers = (changes: Change[]) => {
    stats.delivered += changes.length;
    for (const fn of subscribers) {
      try {
        fn(changes);
      } catch (err) {
        log.error({ err }, 'a change-feed subscriber failed');
      }
    }
  };

  /** One pass: read past the cursor, hand over the settled prefix. Answers whether more may be waiting. */
  const readOnce = async (): Promise<'more' | 'gap' | 'done'> => {
    stats.reads++;
    const read = await repo.readAfter(cursor, batch);
    stats.lastReadAt = Date.now();
    const out: Change[] = [];
    let stoppedAtGap = false;
    for (const row of read.rows) {
      if (row.id !== cursor + 1) {
        // Ids cursor+1 .. row.id-1 are missing: settled only once every transaction running at first sight ended.
        if (!gap || gap.id !== cursor + 1) gap = { id: cursor + 1, xmax: read.xmax };
        // The read's bound spans every database of the server (cheap, and enough when it has passed); only while
        // it has not is this database's own asked for (repo.xmin), a later and so never older one.
        if (read.xmin < gap.xmax && (await repo.xmin()) < gap.xmax) {
          stoppedAtGap = true;
          break;
        }
        stats.gapsSkipped += row.id - cursor - 1;
        gap = null;
      }
      out.push(row);
      cursor = row.id;
    }
    deliver(out);
    if (stoppedAtGap) return 'gap';
    return read.rows.length >= batch ? 'more' : 'done';
  };

  const schedule = (ms: number) => {
    clearTimeout(timer);
    if (!running) return;
    timer = setTimeout(() => poke(), ms);
    timer.unref();
  };

  const loop = async () => {
    let next = fallbackMs;
    try {
      for (;;) {
        again = false;
        const result = await readOnce();
        if (result === 'gap') {
          next = gapRetryMs;
          break;
        }
        if (result === 'done' && !again) break;
      }
    } catch (err) {
      if (!isDatabaseUnavailable(err)) log.error({ err }, 'change feed read failed');
      next = Math.min(fallbackMs, 1_000);
    }
    schedule(next);
  };

  const poke = () => {
    if (!running) return;
    if (reading) {
      again = true;
      return;
    }
    reading = loop().finally(() => {
      reading = null;
      if (again && running) poke();
    });
  };

  const prune = async () => {
    try {
      // Never prune past this node's cursor: a change not yet read here is not old news.
      const n = await repo.prune(retentionMs, cursor + 1);
      if (n) log.debug({ pruned: n }, 'change feed pruned');
    } catch (err) {
      if (!isDatabaseUnavailable(err)) log.warn({ err }, 'change feed prune failed');
    }
  };

  /**
   * The first cursor: the newest id, once every transaction that was running at that moment has ended (one of
   * them may still commit an id below it, which a resuming stream's backlog must find).
   */
  const initialCursor = async () => {
    for (;;) {
      try {
        const { max, xmax } = await repo.head();
        while ((await repo.xmin()) < xmax) {
          await new Promise((r) => setTimeout(r, gapRetryMs));
        }
        return max;
      } catch (err) {
        if (!running) return 0;
        if (!isDatabaseUnavailable(err)) log.error({ err }, 'change feed start failed');
        await new Promise((r) => setTimeout(r, 1_000));
      }
    }
  };

  return {
    get cursor() {
      return cursor;
    },
    get isReady() {
      return isReady;
    },
    ready,
    stats,
    subscribe(fn) {
      subscribers.add(fn);
      return () => {
        subscribers.delete(fn);
      };
    },
    async backlog(after, upto) {
      const prunedThrough = await repo.prunedThrough();
      if (after < prunedThrough || after > upto) return 'reset';
      if (after === upto) return [];
      return repo.between(after, upto);
    },
    poke,
    caughtUp(id, maxWaitMs) {
      if (cursor >= id) return Promise.resolve(true);
      return new Promise<boolean>((resolve) => {
        const w = {
          id,
          done: (ok: boolean) => {
            clearTimeout(timeout);
            waiting.delete(w);
            resolve(ok);
          },
        };
        const timeout = setTimeout(() => w.done(false), maxWaitMs);
        timeout.unref();
        waiting.add(w);
        poke();
      });
    },
    async start() {
      if (running) return;
      running = true;
      cursor = await initialCursor();
      if (!running) return;
      markReady();
      unlisten = await opts.listen(CHANGE_CHANNEL, poke).catch((err) => {
        log.warn({ err }, 'change feed: LISTEN failed, reading every second instead');
        return null;
      });
      poke();
      pruneTimer = setInterval(() => void prune(), pruneEveryMs);
      pruneTimer.unref();
    },
    async stop() {
      running = false;
      clearTimeout(timer);
      clearInterval(pruneTimer);
      await unlisten?.();
      unlisten = null;
      await reading?.catch(() => {});
    },
  };
}
