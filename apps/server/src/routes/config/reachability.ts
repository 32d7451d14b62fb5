/** How long one check of a remote service holds. */
export const PROBE_TTL_MS = 10 * 60_000;

/**
 * `check` run at most every `ttlMs`, its verdict shared by every caller. A stale verdict is served while the next
 * check runs; only the very first check is waited for. A check that throws counts as unreachable.
 */
export function everyTtl(check: () => Promise<boolean>, ttlMs = PROBE_TTL_MS): () => Promise<boolean> {
  let last: { at: number; value: Promise<boolean> } | undefined;
  return function reachable() {
    if (last && Date.now() - last.at < ttlMs) return last.value;
    const previous = last;
    last = { at: Date.now(), value: check().catch(() => false) };
    // Until the new check is done, the previous answer stands.
    return previous ? previous.value : last.value;
  };
}
