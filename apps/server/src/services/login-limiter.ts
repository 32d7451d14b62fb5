/**
 * Failed sign-ins per username in a fixed window, in memory (one server process owns the data).
 * A success clears the count. Bounded: old windows are dropped when the map grows.
 */
export function createLoginLimiter(opts: { maxFailures: number; windowMs: number; maxKeys?: number }) {
  const maxKeys = opts.maxKeys ?? 100_000;
  const failures = new Map<string, { count: number; resetAt: number }>();

  const prune = (now: number) => {
    for (const [key, entry] of failures) if (entry.resetAt <= now) failures.delete(key);
    // Still full of live windows: forget the oldest ones rather than grow without bound.
    const excess = failures.size - maxKeys + 1;
    if (excess > 0) for (const key of [...failures.keys()].slice(0, excess)) failures.delete(key);
  };

  return {
    /** Milliseconds until `key` may try again, or 0 when it may try now. */
    blockedFor(key: string, now = Date.now()): number {
      const entry = failures.get(key);
      if (!entry || entry.resetAt <= now) return 0;
      return entry.count >= opts.maxFailures ? entry.resetAt - now : 0;
    },
    fail(key: string, now = Date.now()): void {
      const entry = failures.get(key);
      if (!entry || entry.resetAt <= now) {
        if (failures.size >= maxKeys) prune(now);
        failures.set(key, { count: 1, resetAt: now + opts.windowMs });
      } else {
        entry.count += 1;
      }
    },
    succeed(key: string): void {
      failures.delete(key);
    },
  };
}
export type LoginLimiter = ReturnType<typeof createLoginLimiter>;
