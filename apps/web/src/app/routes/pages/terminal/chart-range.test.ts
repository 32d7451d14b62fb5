import { describe, expect, it } from 'vitest';
import {
  customRangeError,
  DEFAULT_RANGE,
  fromLocalInput,
  PRESET_MS,
  readRange,
  resolveRange,
  toLocalInput,
  writeRange,
  zoomRange,
} from './chart-range.ts';

const at = (iso: string) => Date.parse(iso);

describe('chart ranges', () => {
  it('reads a preset or a custom range from the address, and anything else as the last 24 hours', () => {
    expect(readRange(new URLSearchParams(''))).toEqual(DEFAULT_RANGE);
    expect(readRange(new URLSearchParams('range=30d'))).toEqual({ kind: 'preset', preset: '30d' });
    expect(readRange(new URLSearchParams('range=2w'))).toEqual(DEFAULT_RANGE);
    expect(readRange(new URLSearchParams('from=2026-11-20T00:00:00Z&to=2026-11-21T06:00:00Z'))).toEqual({
      kind: 'custom',
      from: at('2026-11-20T00:00:00Z'),
      to: at('2026-11-21T06:00:00Z'),
    });
    // Backwards, unreadable or longer than two years: not a range.
    expect(readRange(new URLSearchParams('from=2026-11-21T00:00:00Z&to=2026-11-20T00:00:00Z'))).toEqual(
      DEFAULT_RANGE,
    );
    expect(readRange(new URLSearchParams('from=yesterday&to=2026-11-20T00:00:00Z&range=7d'))).toEqual({
      kind: 'preset',
      preset: '7d',
    });
    expect(readRange(new URLSearchParams('from=2020-01-01T00:00:00Z&to=2026-11-20T00:00:00Z'))).toEqual(
      DEFAULT_RANGE,
    );
  });

  it('writes a range back as the address reads it, the default as nothing', () => {
    for (const range of [
      { kind: 'preset', preset: '7d' },
      { kind: 'preset', preset: '1y' },
      { kind: 'custom', from: at('2026-11-20T00:00:00Z'), to: at('2026-11-20T12:00:00Z') },
    ] as const) {
      expect(readRange(new URLSearchParams(writeRange(range)))).toEqual(range);
    }
    expect(writeRange(DEFAULT_RANGE)).toEqual({});
  });

  it('a preset ends at its anchor; a custom range is what it says', () => {
    const now = at('2026-11-27T12:00:00Z');
    expect(resolveRange({ kind: 'preset', preset: '7d' }, now)).toEqual({
      from: now - 7 * 86_400_000,
      to: now,
    });
    expect(PRESET_MS['1y']).toBe(365 * 86_400_000);
    expect(resolveRange({ kind: 'custom', from: 1, to: 2 }, now)).toEqual({ from: 1, to: 2 });
  });

  it('a drag becomes a custom range of whole seconds, either way round; a click is no zoom', () => {
    const a = at('2026-11-27T10:00:00.400Z');
    const b = at('2026-11-27T11:30:00.200Z');
    expect(zoomRange(b, a)).toEqual({
      kind: 'custom',
      from: at('2026-11-27T10:00:00Z'),
      to: at('2026-11-27T11:30:01Z'),
    });
    expect(zoomRange(a, a + 30_000)).toBeNull();
  });

  it('names what is wrong with a custom range', () => {
    expect(customRangeError(Number.NaN, 1)).toBe('TERMINAL_PAGE_RANGE_INVALID');
    expect(customRangeError(2, 1)).toBe('TERMINAL_PAGE_RANGE_ORDER');
    expect(customRangeError(0, 3 * 366 * 86_400_000)).toBe('TERMINAL_PAGE_RANGE_TOO_LONG');
    expect(customRangeError(0, 86_400_000)).toBeNull();
  });

  it("writes and reads the custom fields in the site's zone, across a daylight-saving change", () => {
    const summer = at('2026-07-01T09:30:00Z');
    expect(toLocalInput(summer, 'Europe/London')).toBe('2026-07-01T10:30');
    expect(fromLocalInput('2026-07-01T10:30', 'Europe/London')).toBe(summer);
    const winter = at('2026-11-27T09:30:00Z');
    expect(toLocalInput(winter, 'Europe/London')).toBe('2026-11-27T09:30');
    expect(fromLocalInput('2026-11-27T09:30', 'Europe/London')).toBe(winter);
    expect(fromLocalInput('2026-03-29T12:00', 'Europe/London')).toBe(at('2026-03-29T11:00:00Z'));
    expect(fromLocalInput('27/11/2026', 'Europe/London')).toBeNaN();
  });
});
