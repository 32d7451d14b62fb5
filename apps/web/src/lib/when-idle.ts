/**
 * Runs `task` once the browser is idle, at the latest after `timeoutMs` (or at once, after this task, where the
 * browser cannot tell idleness). Returns a function that cancels it if it has not run.
 */
export function whenIdle(task: () => void, timeoutMs = 1_000): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const id = window.requestIdleCallback(task, { timeout: timeoutMs });
    return () => window.cancelIdleCallback(id);
  }
  const id = window.setTimeout(task, 1);
  return () => window.clearTimeout(id);
}
