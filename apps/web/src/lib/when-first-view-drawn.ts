import { firstReadsDrawn, firstViewGate } from './first-view-gate.ts';

/**
 * Runs `fn` once the first-view gate is open (lib/first-view-gate.ts), at once when it is; the returned function
 * cancels a call still waiting. A module of its own: the gate is in the entry chunk, this only the frame needs.
 */
export function whenFirstViewDrawn(fn: () => void, gate = firstViewGate): () => void {
  if (gate.get()) {
    fn();
    return () => {};
  }
  const unsubscribe = gate.subscribe(() => {
    if (!gate.get()) return;
    unsubscribe();
    fn();
  });
  return unsubscribe;
}

/**
 * Runs `fn` once the first reads have been drawn (`firstReadsDrawn`, a moment before the gate opens), at once when
 * they have; the returned function cancels a call still waiting.
 */
export const whenFirstReadsDrawn = (fn: () => void) => whenFirstViewDrawn(fn, firstReadsDrawn);
