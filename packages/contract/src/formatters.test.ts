import { describe, expect, it } from 'vitest';
import {
  capitalize,
  eventName,
  formatClock,
  formatDateSafe,
  formatDayMonthYearTime,
  formatShortUsDate,
  NO_DATE,
  pad3,
  plural,
  round,
  rowMatches,
  timing,
  utcOffsetHours,
} from './formatters.ts';

describe('formatters (docs/product.md#constants)', () => {
  it('capitalize: first letter upper, rest lower', () => {
    expect(capitalize('hELLO wORLD')).toBe('Hello world');
    expect(capitalize('')).toBe('');
    expect(capitalize(null)).toBe('');
  });

  it('plural: adds s unless the count is 1, or uses the given plural label; empty count shows 0', () => {
    expect(plural(1, 'site')).toBe('1 site');
    expect(plural(2, 'site')).toBe('2 sites');
    expect(plural(0, 'site')).toBe('0 sites');
    expect(plural(3, 'box', 'boxes')).toBe('3 boxes');
    expect(plural(undefined, 'site')).toBe('0 sites');
  });

  it('round: nearest integer', () => {
    expect(round(2.5)).toBe(3);
    expect(round(2.49)).toBe(2);
    expect(round(-1.6)).toBe(-2);
    expect(round(null)).toBe(0);
  });

  it("timing: seconds as mm:ss, '00:00' when empty", () => {
    expect(timing(0)).toBe('00:00');
    expect(timing(undefined)).toBe('00:00');
    expect(timing(5)).toBe('00:05');
    expect(timing(65)).toBe('01:05');
    expect(timing(3599)).toBe('59:59');
  });

  it('pad3: zero-pads counts to 3 digits', () => {
    expect(pad3(0)).toBe('000');
    expect(pad3(7)).toBe('007');
    expect(pad3(24)).toBe('024');
    expect(pad3(1234)).toBe('1234');
    expect(pad3(undefined)).toBe('000');
  });

  it('date formats: d/M/yyyy H:mm and M/d/yy', () => {
    const at = '2026-03-05T07:09:00Z';
    expect(formatDayMonthYearTime(at, 'UTC')).toBe('5/3/2026 7:09');
    expect(formatShortUsDate(at, 'UTC')).toBe('3/5/26');
    expect(formatDayMonthYearTime('2026-12-31T23:59:00Z', 'UTC')).toBe('31/12/2026 23:59');
  });

  it('clock HH:mm:ss follows daylight saving through the IANA zone', () => {
    expect(formatClock('2026-01-15T12:00:05Z', 'Europe/London')).toBe('12:00:05');
    expect(formatClock('2026-07-15T12:00:05Z', 'Europe/London')).toBe('13:00:05');
    expect(utcOffsetHours('Europe/London', new Date('2026-01-15T12:00:00Z'))).toBe(0);
    expect(utcOffsetHours('Europe/London', new Date('2026-07-15T12:00:00Z'))).toBe(1);
    expect(utcOffsetHours('Asia/Kolkata', new Date('2026-07-15T12:00:00Z'))).toBe(5.5);
    expect(utcOffsetHours('America/New_York', new Date('2026-01-15T12:00:00Z'))).toBe(-5);
  });

  it('event name is the text before the first colon', () => {
    expect(eventName('Card reader failure: reader not responding: retry')).toBe('Card reader failure');
    expect(eventName('No colon here')).toBe('No colon here');
    expect(eventName('')).toBe('');
  });

  it('table search: case-insensitive substring over every field, empty shows all', () => {
    const row = { id: 7, text: 'Printer failure', terminal: { terminal_id: '10010001' } };
    expect(rowMatches(row, '')).toBe(true);
    expect(rowMatches(row, 'PRINTER')).toBe(true);
    expect(rowMatches(row, '1001000')).toBe(true);
    expect(rowMatches(row, 'modem')).toBe(false);
  });
});

describe('formatDateSafe', () => {
  it('formats a valid date like the given formatter, in the given zone', () => {
    expect(formatDateSafe('2024-05-01T12:07:00Z', formatDayMonthYearTime, 'UTC')).toBe('1/5/2024 12:07');
    expect(formatDateSafe('2024-05-01T12:07:00Z', formatShortUsDate, 'UTC')).toBe('5/1/24');
    expect(formatDateSafe(Date.UTC(2024, 4, 1, 23, 30), formatDayMonthYearTime, 'Europe/London')).toBe(
      '2/5/2024 0:30',
    );
  });

  it('shows the placeholder for a missing or unreadable date instead of throwing', () => {
    for (const bad of [null, undefined, '', 'not a date', '2024-13-45T99:00:00Z', Number.NaN]) {
      expect(formatDateSafe(bad)).toBe(NO_DATE);
    }
    expect(NO_DATE).toBe('-');
  });

  it('falls back to the runtime zone when the zone is unknown', () => {
    const at = '2024-05-01T12:07:00Z';
    expect(formatDateSafe(at, formatDayMonthYearTime, 'Mars/Olympus')).toBe(formatDayMonthYearTime(at));
  });
});
