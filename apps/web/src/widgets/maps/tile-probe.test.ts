import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** An <img> that answers at once: every src in `failing` errors, any other loads. */
const requested: string[] = [];
let failing = new Set<string>();

class FakeImage {
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  crossOrigin = '';
  set src(url: string) {
    requested.push(url);
    queueMicrotask(() => (failing.has(url) ? this.onerror?.() : this.onload?.()));
  }
}

async function freshProbe() {
  vi.resetModules();
  return (await import('./components/leaflet-maps.tsx')).probeTiles;
}

describe('probeTiles: one request per tile server', () => {
  beforeEach(() => {
    requested.length = 0;
    failing = new Set();
    sessionStorage.clear();
    vi.stubGlobal('Image', FakeImage);
  });
  afterEach(() => vi.unstubAllGlobals());

  it('asks an unreachable server for one zoom-0 tile, once, and remembers it across a reload', async () => {
    failing = new Set(['http://tiles.example.test/road/0/0/0.png']);
    const probeTiles = await freshProbe();
    const url = 'http://tiles.example.test/road/{z}/{x}/{y}.png';
    expect(await probeTiles(url)).toBe(false);
    expect(await probeTiles(url)).toBe(false);
    expect(requested).toEqual(['http://tiles.example.test/road/0/0/0.png']);
    // A reload (a fresh module) within ten minutes does not ask again.
    const reloaded = await freshProbe();
    expect(await reloaded(url)).toBe(false);
    expect(requested).toHaveLength(1);
  });

  it('finds a reachable server reachable, each server on its own', async () => {
    const probeTiles = await freshProbe();
    expect(await probeTiles('https://{s}.tiles.example.test/sat/{z}/{y}/{x}')).toBe(true);
    expect(await probeTiles('https://{s}.tiles.example.test/sat/{z}/{y}/{x}')).toBe(true);
    expect(await probeTiles('https://other.example.test/{z}/{x}/{y}.png')).toBe(true);
    expect(requested).toEqual([
      'https://a.tiles.example.test/sat/0/0/0',
      'https://other.example.test/0/0/0.png',
    ]);
  });
});
