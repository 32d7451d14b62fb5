import { describe, expect, it } from 'vitest';
import { dayStartInZone, formatLogTime, safeZone } from './log-time.ts';

describe('log times', () => {
  it("formats in the site's zone with the zone's short name", () => {
    expect(formatLogTime('2024-05-01T10:00:00Z', 'Europe/London')).toBe('01/05/2024, 11:00:00 BST');
    expect(formatLogTime('2024-01-01T10:00:00Z', 'Europe/London')).toBe('01/01/2024, 10:00:00 GMT');
    expect(formatLogTime('2024-05-01T10:00:00Z', 'Asia/Tokyo')).toBe('01/05/2024, 19:00:00 GMT+9');
    expect(formatLogTime(null, 'Europe/London')).toBe('-');
    expect(formatLogTime('not a date', 'Europe/London')).toBe('-');
  });

  it('ignores a zone the browser does not know', () => {
    expect(safeZone('Mars/Olympus')).toBeUndefined();
    expect(safeZone('Europe/Paris')).toBe('Europe/Paris');
  });

  it('turns a calendar day into the instant it starts in a zone, across daylight saving', () => {
    expect(dayStartInZone('2024-05-01', 'Europe/London')).toBe('2024-04-30T23:00:00.000Z');
    expect(dayStartInZone('2024-01-15', 'Europe/London')).toBe('2024-01-15T00:00:00.000Z');
    expect(dayStartInZone('2024-03-31', 'Europe/London', 1)).toBe('2024-03-31T23:00:00.000Z');
    expect(dayStartInZone('2024-07-04', 'America/New_York')).toBe('2024-07-04T04:00:00.000Z');
    expect(dayStartInZone('2024-13-40', 'Europe/London')).toBeUndefined();
    expect(dayStartInZone('yesterday', 'Europe/London')).toBeUndefined();
  });
});
