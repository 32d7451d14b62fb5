import { createStore } from './create-store.ts';
import { whenIdle } from './when-idle.ts';

/**
 * Whether reads that are not part of the page's first view (the header's bell) may go out now. Closed while a
 * dashboard's first reads (app/boot/start.ts) are on their way, so that on a phone's six connections the
 * reads the dashboard paints with are not queued behind them; open again once those have answered and the page
 * has had a moment to draw them, or after `FIRST_VIEW_GATE_MAX_MS` at the latest. Open everywhere else.
 */
export const firstViewGate = createStore(true);

/**
 * Open once the first reads have settled and the browser has been idle once since (their renders, the largest
 * paint among them, are done), `FIRST_VIEW_DRAW_MS` before `firstViewGate`: for what is itself part of the first
 * view but must not be asked for before its largest paint (the map's Leaflet). Open everywhere else.
 */
export const firstReadsDrawn = createStore(true);

export const FIRST_VIEW_GATE_MAX_MS = 3_000;

/**
 * How long after the first reads have answered (and the browser is next idle) the page is given to draw them:
 * the widgets render their data in more than one pass (lazy cells, the map's markers).
 */
export const FIRST_VIEW_DRAW_MS = 250;

/**
 * Closes the gate until `firstReads` have settled, the browser is next idle and `FIRST_VIEW_DRAW_MS` more have
 * passed (or the time is up).
 */
export function holdSecondaryReads(firstReads: Promise<unknown>) {
  firstViewGate.set(false);
  firstReadsDrawn.set(false);
  let opened = false;
  const open = () => {
    if (opened) return;
    opened = true;
    clearTimeout(cap);
    firstReadsDrawn.set(true);
    firstViewGate.set(true);
  };
  const cap = setTimeout(open, FIRST_VIEW_GATE_MAX_MS);
  const settled = () =>
    whenIdle(() => {
      if (!opened) firstReadsDrawn.set(true);
      setTimeout(open, FIRST_VIEW_DRAW_MS);
    }, 1_000);
  firstReads.then(settled, settled);
}
