import { HISTORY_MAX_RANGE_MS } from '@forecourt/contract/telemetry-history';

/** The ranges a terminal's charts offer at one click, each ending now. */
export const RANGE_PRESETS = ['24h', '7d', '30d', '1y'] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number];

const DAY_MS = 86_400_000;
export const PRESET_MS: Record<RangePreset, number> = {
  '24h': DAY_MS,
  '7d': 7 * DAY_MS,
  '30d': 30 * DAY_MS,
  '1y': 365 * DAY_MS,
};

/** A zoom narrower than this is taken for a click, not a drag. */
export const MIN_ZOOM_MS = 60_000;

/**
 * What the charts show: a preset ending now (new readings are appended as they arrive), or a fixed range chosen
 * in the custom fields or by dragging across a chart. Kept in the address (`?range=7d`, `?from=…&to=…`), so a
 * copied link reopens the same view.
 */
export type ChartRange =
  | { kind: 'preset'; preset: RangePreset }
  | { kind: 'custom'; from: number; to: number };

export const DEFAULT_RANGE: Extract<ChartRange, { kind: 'preset' }> = { kind: 'preset', preset: '24h' };

const isPreset = (v: string | null): v is RangePreset =>
  (RANGE_PRESETS as readonly (string | null)[]).includes(v);

/** Why a custom range cannot be shown (an i18n key), or null when it can. */
export function customRangeError(from: number, to: number): string | null {
  if (!Number.isFinite(from) || !Number.isFinite(to)) return 'TERMINAL_PAGE_RANGE_INVALID';
  if (to <= from) return 'TERMINAL_PAGE_RANGE_ORDER';
  if (to - from > HISTORY_MAX_RANGE_MS) return 'TERMINAL_PAGE_RANGE_TOO_LONG';
  return null;
}

/** The range an address names; anything it cannot read is the default (the last 24 hours). */
export function readRange(params: URLSearchParams): ChartRange {
  const from = params.get('from');
  const to = params.get('to');
  if (from && to) {
    const f = Date.parse(from);
    const t = Date.parse(to);
    if (customRangeError(f, t) === null) return { kind: 'custom', from: f, to: t };
  }
  const preset = params.get('range');
  return isPreset(preset) ? { kind: 'preset', preset } : DEFAULT_RANGE;
}

/** The search parameters of a range: none for the default. */
export function writeRange(range: ChartRange): Record<string, string> {
  if (range.kind === 'custom') {
    return { from: new Date(range.from).toISOString(), to: new Date(range.to).toISOString() };
  }
  return range.preset === DEFAULT_RANGE.preset ? {} : { range: range.preset };
}

/** The instants a range covers; a preset ends at `now`. */
export function resolveRange(range: ChartRange, now: number): { from: number; to: number } {
  if (range.kind === 'custom') return { from: range.from, to: range.to };
  return { from: now - PRESET_MS[range.preset], to: now };
}

/** The range a drag across a chart selects, whole seconds; null for a selection too narrow to be a drag. */
export function zoomRange(from: number, to: number): ChartRange | null {
  const f = Math.floor(Math.min(from, to) / 1000) * 1000;
  const t = Math.ceil(Math.max(from, to) / 1000) * 1000;
  if (t - f < MIN_ZOOM_MS || customRangeError(f, t) !== null) return null;
  return { kind: 'custom', from: f, to: t };
}

/** `2026-11-27T14:05` in the given zone (the value of a datetime-local field). */
export function toLocalInput(ms: number, timeZone?: string): string {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(ms));
  const get = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '00';
  return `${get('year')}-${get('month')}-${get('day')}T${get('hour')}:${get('minute')}`;
}

/** The instant a datetime-local value names in the given zone; NaN when it is not one. */
export function fromLocalInput(value: string, timeZone?: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(value);
  if (!m) return Number.NaN;
  const [y, mo, d, h, mi] = m.slice(1).map(Number);
  const asUtc = Date.UTC(y, mo - 1, d, h, mi);
  if (!timeZone) return new Date(y, mo - 1, d, h, mi).getTime();
  // The zone's offset at that wall time: read the UTC guess back in the zone and correct by the difference
  // (twice, so a guess on the other side of a daylight-saving change settles).
  let guess = asUtc;
  for (let i = 0; i < 2; i++) {
    const shown = Date.parse(`${toLocalInput(guess, timeZone)}:00Z`);
    guess += asUtc - shown;
  }
  return guess;
}
