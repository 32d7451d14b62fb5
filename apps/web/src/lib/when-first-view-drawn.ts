import { firstViewGate } from './first-view-gate.ts';

/**
 * Runs `fn` once the first-view gate is open (lib/first-view-gate.ts), at once when it is; the returned function
 * cancels a call still waiting. A module of its own: the gate is in the entry chunk, this only the frame needs.
 */
export function whenFirstViewDrawn(fn: () => void): () => void {
  if (firstViewGate.get()) {
    fn();
    return () => {};
  }
  const unsubscribe = firstViewGate.subscribe(() => {
    if (!firstViewGate.get()) return;
    unsubscribe();
    fn();
  });
  return unsubscribe;
}
