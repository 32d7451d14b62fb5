import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createSnapshotCache } from './snapshot-cache.ts';

const body = (text: string) => ({ body: text, contentType: 'application/json', headers: {} });

describe('snapshot cache', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(0);
  });
  afterEach(() => vi.useRealTimers());

  it('shares one build between concurrent callers and reuses it within the TTL', async () => {
    const cache = createSnapshotCache({ ttlMs: 1000, random: () => 0 });
    const build = vi.fn(async () => body('a'));
    const [x, y] = await Promise.all([cache.get('k', build), cache.get('k', build)]);
    expect(x).toBe(y);
    vi.setSystemTime(999);
    await cache.get('k', build);
    expect(build).toHaveBeenCalledTimes(1);
    expect(cache.stats).toMatchObject({ builds: 1, shared: 1, hits: 1 });
  });

  it('serves the stale answer while one background rebuild runs, then the new one', async () => {
    const cache = createSnapshotCache({ ttlMs: 1000, staleMs: 5000, random: () => 0 });
    await cache.get('k', async () => body('old'));
    vi.setSystemTime(1500);
    let release: (v: ReturnType<typeof body>) => void = () => {};
    const slow = vi.fn(() => new Promise<ReturnType<typeof body>>((r) => (release = r)));
    const first = await cache.get('k', slow);
    const second = await cache.get('k', slow);
    expect(first.body).toBe('old');
    expect(second.body).toBe('old');
    expect(slow).toHaveBeenCalledTimes(1);
    release(body('new'));
    await vi.waitFor(async () => expect((await cache.get('k', slow)).body).toBe('new'));
    expect(slow).toHaveBeenCalledTimes(1);
  });

  it('waits for a rebuild once the answer is older than TTL + stale window', async () => {
    const cache = createSnapshotCache({ ttlMs: 1000, staleMs: 1000, random: () => 0 });
    await cache.get('k', async () => body('old'));
    vi.setSystemTime(2500);
    expect((await cache.get('k', async () => body('new'))).body).toBe('new');
  });

  it('drops an invalidated answer at once, and a rebuild started before the write does not bring it back', async () => {
    const cache = createSnapshotCache({ ttlMs: 1000, random: () => 0 });
    await cache.get('site:1|x', async () => body('v1'));
    vi.setSystemTime(1500);
    let release: (v: ReturnType<typeof body>) => void = () => {};
    await cache.get('site:1|x', () => new Promise((r) => (release = r)));
    expect(cache.invalidate({ siteId: 1 })).toBe(1);
    release(body('pre-write'));
    await Promise.resolve();
    expect((await cache.get('site:1|x', async () => body('v2'))).body).toBe('v2');
  });

  it('keeps serving the stale answer when the background rebuild fails, and retries', async () => {
    const cache = createSnapshotCache({ ttlMs: 1000, random: () => 0 });
    await cache.get('k', async () => body('old'));
    vi.setSystemTime(1500);
    const failing = vi.fn(async () => {
      throw new Error('db down');
    });
    expect((await cache.get('k', failing)).body).toBe('old');
    await Promise.resolve();
    await Promise.resolve();
    expect((await cache.get('k', failing)).body).toBe('old');
    expect(failing).toHaveBeenCalledTimes(2);
  });

  it('spreads expiry with jitter so snapshots built together do not expire together', async () => {
    let n = 0;
    const cache = createSnapshotCache({ ttlMs: 1000, staleMs: 0, random: () => [0, 0.99][n++ % 2] });
    await cache.get('a', async () => body('a'));
    await cache.get('b', async () => body('b'));
    vi.setSystemTime(1100);
    const rebuildA = vi.fn(async () => body('a2'));
    const rebuildB = vi.fn(async () => body('b2'));
    await cache.get('a', rebuildA);
    await cache.get('b', rebuildB);
    expect(rebuildA).toHaveBeenCalledTimes(1);
    expect(rebuildB).not.toHaveBeenCalled();
  });
});
