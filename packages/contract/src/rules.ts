/** Pump states (docs/product.md#pump-state-machine), from (status, last_synapse_status). */
export type PumpState = 'off' | 'on' | 'pending_on' | 'pending_off';

export function pumpState(status: number, lastSynapseStatus: number): PumpState {
  if (status === 1 && lastSynapseStatus === 1) return 'on';
  if (status === 0 && lastSynapseStatus === 0) return 'off';
  return status === 1 ? 'pending_on' : 'pending_off';
}

export function isPumpPending(status: number, lastSynapseStatus: number): boolean {
  const s = pumpState(status, lastSynapseStatus);
  return s === 'pending_on' || s === 'pending_off';
}

/** What a click does: off → turn on, on → turn off, pending → nothing. */
export function pumpClickAction(status: number, lastSynapseStatus: number): 'on' | 'off' | null {
  const s = pumpState(status, lastSynapseStatus);
  if (s === 'off') return 'on';
  if (s === 'on') return 'off';
  return null;
}

export type LevelImage = 'full' | 'three-quarters' | 'half' | 'quarter' | 'empty' | null;

/**
 * Battery and flash-drive image (docs/product.md#terminal-battery-and-flash-drive), read literally: over 90
 * full; 75 to under 90 three-quarters; 50 to under 75 half; 6 to under 50 a quarter; under 5 empty. 90 itself and 5 up to 6
 * fall in no range and have no image.
 */
export function levelImage(percent: number | null | undefined): LevelImage {
  if (percent === null || percent === undefined || Number.isNaN(percent)) return null;
  if (percent > 90) return 'full';
  if (percent === 90) return null;
  if (percent >= 75) return 'three-quarters';
  if (percent >= 50) return 'half';
  if (percent >= 6) return 'quarter';
  if (percent < 5) return 'empty';
  return null;
}

export type LevelColor = 'green' | 'yellow' | 'orange' | 'red';

/** Text colour: green over 90, yellow 75 to under 90, orange 50 to under 75, red under 50; 90 itself has none. */
export function levelColor(percent: number | null | undefined): LevelColor | null {
  if (percent === null || percent === undefined || Number.isNaN(percent)) return null;
  const p = percent;
  if (p > 90) return 'green';
  if (p === 90) return null;
  if (p >= 75) return 'yellow';
  if (p >= 50) return 'orange';
  return 'red';
}

export const MARKER_COLORS = ['green', 'yellow', 'red'] as const;
export type MarkerColor = (typeof MARKER_COLORS)[number];

/** Map marker colour by terminal connectivity; any other value (unknown, not yet reported) is yellow. */
export const MARKER_COLOR_OF_CONNECTIVITY: Readonly<Record<'on' | 'off', MarkerColor>> = {
  on: 'green',
  off: 'red',
};
export const UNKNOWN_MARKER_COLOR: MarkerColor = 'yellow';

/** Map marker colour by connectivity: on green, off red, anything else yellow. */
export function markerColor(connectivity: string | null | undefined): MarkerColor {
  return connectivity === 'on' || connectivity === 'off'
    ? MARKER_COLOR_OF_CONNECTIVITY[connectivity]
    : UNKNOWN_MARKER_COLOR;
}

/** A marker colour read from an answer: one of the three, else the colour of an unknown state. */
export function asMarkerColor(value: string | null | undefined): MarkerColor {
  return (MARKER_COLORS as readonly unknown[]).includes(value)
    ? (value as MarkerColor)
    : UNKNOWN_MARKER_COLOR;
}

/** Circular index: next/previous wrap around. */
export function cycleIndex(current: number, delta: number, count: number): number {
  if (count <= 0) return 0;
  return (((current + delta) % count) + count) % count;
}

/** Start index of the time-zone carousel: 0, or pos modulo count when pos > 0. */
export function startIndex(pos: number | null | undefined, count: number): number {
  if (!pos || pos <= 0 || count <= 0) return 0;
  return pos % count;
}

export const POLLING_DELAY_MS = 12_500;
export const NOTIFICATIONS_DELAY_MS = 15_000;
export const TOAST_TIMEOUT_MS = 2_500;
export const AUTH_REDIRECT_DELAY_MS = 500;
export const AERIAL_MAP_ZOOM = 18;
export const COMPANY_MAP_ZOOM = 9;
export const LONDON: [number, number] = [51.5074, -0.1278];
