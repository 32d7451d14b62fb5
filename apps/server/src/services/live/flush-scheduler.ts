import type { Item } from './scope-index.ts';

/** A quiet stream's first change waits this long for the rest of its feed read (ms). */
export const LEADING_MS = 5;
/** Passes over the waiting streams are at least this far apart (ms). */
export const MIN_PASS_MS = 20;

/**
 * Messages built during one pass, by the first batch of changes they carry: the streams of one scope wait for the
 * same batches, so their message is built once.
 */
export type SharedMessages = Map<Item[], { batches: Item[][]; text: string }>;

/** What the scheduler flushes: sends what waits as one message, or answers how long it must still wait (ms). */
export interface Flushable {
  flush(now: number, shared: SharedMessages): number;
}

/**
 * The changes waiting for one stream's next message, and when it last sent one: at most one message per window
 * (`windowMs`), everything that arrived meanwhile in it.
 */
export class Outbox {
  private pending: Item[][] = [];
  private lastSentAt = 0;

  get isEmpty() {
    return this.pending.length === 0;
  }

  /** Changes that reached the stream (in id order): they go at the end. */
  push(items: Item[]) {
    this.pending.push(items);
  }

  /** Changes that go before the ones already waiting (those that arrived while the backlog was sent). */
  unshift(items: Item[]) {
    this.pending.unshift(items);
  }

  clear() {
    this.pending = [];
  }

  /** A message went out some other way (the backlog): the window starts now. */
  sent(now: number) {
    this.lastSentAt = now;
  }

  /**
   * The text of the message to send now, null when nothing waits, or how long it must still wait (ms) because the
   * last message was sent less than a window ago. `build` makes the text of a message from its batches; streams
   * waiting for the same batches in one pass share it through `shared`.
   */
  take(
    now: number,
    windowMs: number,
    shared: SharedMessages,
    build: (batches: Item[][]) => string,
  ): string | number | null {
    const left = this.lastSentAt + windowMs - now;
    if (left > 0) return left;
    const batches = this.pending;
    this.pending = [];
    if (!batches.length) return null;
    let message = shared.get(batches[0]);
    if (
      !message ||
      message.batches.length !== batches.length ||
      message.batches.some((batch, i) => batch !== batches[i])
    ) {
      message = { batches, text: build(batches) };
      shared.set(batches[0], message);
    }
    this.lastSentAt = now;
    return message.text;
  }
}

/**
 * One timer for the node's streams that have something to send. A stream that has sent nothing for a window sends
 * at once (after LEADING_MS, so the changes of one feed read travel together); one that sent less than a window ago
 * waits for the rest of it. One pass over the waiting streams at most every MIN_PASS_MS.
 */
export class FlushScheduler<S extends Flushable> {
  private readonly dirty = new Set<S>();
  private timer: NodeJS.Timeout | undefined;
  private due = Number.POSITIVE_INFINITY;
  private lastPass = 0;
  private closed = false;

  /** `windowMs`: the batch window, read at each change (tests change it). */
  constructor(private readonly windowMs: () => number) {}

  /** Streams waiting for a pass. */
  get waiting() {
    return this.dirty.size;
  }

  /** The stream has something to send. */
  mark(stream: S) {
    this.dirty.add(stream);
    this.schedule(Math.min(LEADING_MS, this.windowMs()));
  }

  /** The stream ended: nothing of it is flushed any more. */
  forget(stream: S) {
    this.dirty.delete(stream);
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.dirty.clear();
  }

  private pass = () => {
    this.timer = undefined;
    this.due = Number.POSITIVE_INFINITY;
    const now = Date.now();
    this.lastPass = now;
    const shared: SharedMessages = new Map();
    let wait = Number.POSITIVE_INFINITY;
    for (const stream of this.dirty) {
      const left = stream.flush(now, shared);
      if (left > 0) wait = Math.min(wait, left);
      else this.dirty.delete(stream);
    }
    if (this.dirty.size) this.schedule(wait);
  };

  private schedule(delay: number) {
    if (this.closed) return;
    const now = Date.now();
    const due = Math.max(now + delay, this.lastPass + MIN_PASS_MS);
    if (this.timer && due >= this.due) return;
    clearTimeout(this.timer);
    this.due = due;
    this.timer = setTimeout(this.pass, due - now);
    this.timer.unref();
  }
}
