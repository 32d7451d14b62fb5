import { everyTtl, PROBE_TTL_MS } from './reachability.ts';

/** How long one check of a tile server holds. */
export const TILE_PROBE_TTL_MS = PROBE_TTL_MS;
/** A tile server that has not answered by then is taken as unreachable. */
const TILE_PROBE_TIMEOUT_MS = 2_500;

/** The zoom-0 tile of a Leaflet URL template (`{s}` → a, `{r}` → nothing). */
export function firstTileUrl(template: string): string {
  return template.replace(/\{(s|z|x|y|r)\}/g, (_, key: string) =>
    key === 's' ? 'a' : key === 'r' ? '' : '0',
  );
}

async function answers(url: string): Promise<boolean> {
  try {
    const res = await fetch(url, {
      signal: AbortSignal.timeout(TILE_PROBE_TIMEOUT_MS),
      headers: { 'user-agent': 'Forecourt tile server check' },
    });
    await res.body?.cancel();
    return res.ok;
  } catch {
    return false;
  }
}

/**
 * Whether each tile server answers, asked by the server with one zoom-0 tile at most every `ttlMs`, so that a
 * browser is never sent to a tile server that cannot be reached (each failed tile would be a console error).
 * A stale answer is served while the next check runs; only the very first check is waited for.
 */
export function tileProbe(opts: { ttlMs?: number; check?: (url: string) => Promise<boolean> } = {}) {
  const ttlMs = opts.ttlMs ?? TILE_PROBE_TTL_MS;
  const check = opts.check ?? answers;
  const known = new Map<string, () => Promise<boolean>>();
  return function reachable(template: string): Promise<boolean> {
    let probe = known.get(template);
    if (!probe) {
      let url: string;
      try {
        url = firstTileUrl(template);
        new URL(url);
      } catch {
        return Promise.resolve(false);
      }
      probe = everyTtl(() => check(url), ttlMs);
      known.set(template, probe);
    }
    return probe();
  };
}
