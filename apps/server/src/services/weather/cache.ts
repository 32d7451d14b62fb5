import { ProviderUnavailableError } from './errors.ts';

type Entry<T> = { at: number; value?: T; error?: ProviderUnavailableError };

/**
 * A small TTL cache with shared in-flight loads: N callers asking for the same key while it loads
 * cost one provider call. A stale value is served while the provider fails.
 */
export function cached<T>(ttlMs: number, failureTtlMs: number, staleMs: number, maxEntries = 10_000) {
  const entries = new Map<string, Entry<T>>();
  const inflight = new Map<string, Promise<T>>();
  return async (key: string, load: () => Promise<T>): Promise<T> => {
    const now = Date.now();
    const hit = entries.get(key);
    if (hit?.value !== undefined && now - hit.at < ttlMs) return hit.value;
    if (hit?.error && now - hit.at < failureTtlMs) {
      if (hit.value !== undefined) return hit.value;
      throw hit.error;
    }
    const running = inflight.get(key);
    if (running) return running;
    const p = load()
      .then((value) => {
        entries.delete(key);
        entries.set(key, { at: Date.now(), value });
        return value;
      })
      .catch((err: unknown) => {
        const error =
          err instanceof ProviderUnavailableError
            ? err
            : new ProviderUnavailableError((err as Error).message);
        const stale = hit?.value !== undefined && now - hit.at < staleMs ? hit.value : undefined;
        entries.delete(key);
        entries.set(key, { at: Date.now(), value: stale, error });
        if (stale !== undefined) return stale;
        throw error;
      })
      .finally(() => {
        inflight.delete(key);
        if (entries.size > maxEntries) {
          const oldest = entries.keys().next().value;
          if (oldest !== undefined) entries.delete(oldest);
        }
      });
    inflight.set(key, p);
    return p;
  };
}
