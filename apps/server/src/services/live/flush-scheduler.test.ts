import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  type Flushable,
  FlushScheduler,
  LEADING_MS,
  Outbox,
  type SharedMessages,
} from './flush-scheduler.ts';
import type { Item } from './scope-index.ts';

const WINDOW = 250;
const build = (batches: Item[][]) =>
  batches
    .flat()
    .map((i) => i.id)
    .join(',');

/** A stream as the scheduler sees it: an outbox and the messages it sent, with when. */
class Sink implements Flushable {
  readonly outbox = new Outbox();
  readonly sent: Array<{ at: number; text: string }> = [];
  builds = 0;
  constructor(private readonly scheduler: FlushScheduler<Sink>) {}
  offer(items: Item[]) {
    this.outbox.push(items);
    this.scheduler.mark(this);
  }
  flush(now: number, shared: SharedMessages): number {
    const message = this.outbox.take(now, WINDOW, shared, (b) => {
      this.builds++;
      return build(b);
    });
    if (typeof message === 'number') return message;
    if (message !== null) this.sent.push({ at: now, text: message });
    return 0;
  }
}

const items = (...ids: number[]) => ids.map((id) => ({ id, json: String(id) }));

describe('flush scheduler', () => {
  let start: number;
  beforeEach(() => {
    vi.useFakeTimers();
    start = Date.now();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('a quiet stream sends at once; what follows within the window travels in one message at its end', () => {
    const scheduler = new FlushScheduler<Sink>(() => WINDOW);
    const s = new Sink(scheduler);
    s.offer(items(1));
    vi.advanceTimersByTime(LEADING_MS);
    expect(s.sent).toEqual([{ at: start + LEADING_MS, text: '1' }]);
    vi.advanceTimersByTime(50);
    s.offer(items(2));
    vi.advanceTimersByTime(50);
    s.offer(items(3, 4));
    vi.advanceTimersByTime(100);
    expect(s.sent).toHaveLength(1);
    vi.advanceTimersByTime(WINDOW);
    expect(s.sent.map((m) => m.text)).toEqual(['1', '2,3,4']);
    expect(s.sent[1].at - s.sent[0].at).toBe(WINDOW);
    expect(scheduler.waiting).toBe(0);
  });

  it('never sends a stream more than 4 messages a second under a steady flow of changes', () => {
    const scheduler = new FlushScheduler<Sink>(() => WINDOW);
    const s = new Sink(scheduler);
    for (let id = 1; id <= 200; id++) {
      s.offer(items(id));
      vi.advanceTimersByTime(10);
    }
    vi.advanceTimersByTime(WINDOW);
    const gaps = s.sent.slice(1).map((m, i) => m.at - s.sent[i].at);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(WINDOW);
    expect(s.sent.length).toBeLessThanOrEqual(Math.ceil((2_000 + WINDOW) / WINDOW) + 1);
    // Nothing lost, nothing twice, in order.
    expect(s.sent.flatMap((m) => m.text.split(',').map(Number))).toEqual(
      Array.from({ length: 200 }, (_, i) => i + 1),
    );
  });

  it('streams waiting for the same batches share one message text', () => {
    const scheduler = new FlushScheduler<Sink>(() => WINDOW);
    const a = new Sink(scheduler);
    const b = new Sink(scheduler);
    const batch = items(5, 6);
    a.offer(batch);
    b.offer(batch);
    vi.advanceTimersByTime(LEADING_MS);
    expect(a.sent.map((m) => m.text)).toEqual(['5,6']);
    expect(b.sent.map((m) => m.text)).toEqual(['5,6']);
    expect(a.builds + b.builds).toBe(1);
  });

  it('a forgotten stream is not flushed, and nothing is after close', () => {
    const scheduler = new FlushScheduler<Sink>(() => WINDOW);
    const a = new Sink(scheduler);
    const b = new Sink(scheduler);
    a.offer(items(1));
    b.offer(items(1));
    scheduler.forget(a);
    vi.advanceTimersByTime(LEADING_MS);
    expect([a.sent.length, b.sent.length]).toEqual([0, 1]);
    b.offer(items(2));
    scheduler.close();
    vi.advanceTimersByTime(WINDOW * 2);
    expect(b.sent.length).toBe(1);
  });

  it('an outbox answers how long it must still wait, and nothing when empty', () => {
    const outbox = new Outbox();
    expect(outbox.take(1_000, WINDOW, new Map(), build)).toBeNull();
    outbox.sent(1_000);
    outbox.push(items(1));
    outbox.unshift(items(0));
    expect(outbox.take(1_100, WINDOW, new Map(), build)).toBe(150);
    expect(outbox.take(1_250, WINDOW, new Map(), build)).toBe('0,1');
    expect(outbox.isEmpty).toBe(true);
  });
});
