import { describe, expect, it } from 'vitest';
import {
  AvailabilityQuerySchema,
  availabilityOf,
  knownZone,
  localDate,
  nextBoundary,
  periodEndingBy,
  reportPeriod,
  zonedMidnight,
} from './reports.ts';

describe('reports', () => {
  it('availability: 4 decimals from whole seconds, 1 when nothing is left to measure', () => {
    expect(availabilityOf(1000, 0, 0)).toBe(1);
    expect(availabilityOf(1000, 100, 9)).toBe(0.99);
    expect(availabilityOf(30_000, 0, 1)).toBe(1);
    expect(availabilityOf(10_000, 0, 1)).toBe(0.9999);
    expect(availabilityOf(20_000, 0, 1)).toBe(1);
    expect(availabilityOf(3, 0, 1)).toBe(0.6667);
    expect(availabilityOf(100, 100, 0)).toBe(1);
    expect(availabilityOf(0, 0, 0)).toBe(1);
  });

  it('the period defaults to the last 30 days, up to now', () => {
    const now = new Date('2026-11-27T12:00:00Z');
    expect(reportPeriod({}, now)).toEqual({ from: new Date('2026-10-28T12:00:00Z'), to: now });
    expect(reportPeriod({ to: '2026-11-01T00:00:00Z' }, now).from).toEqual(new Date('2026-10-02T00:00:00Z'));
  });

  it('a bad query names its field', () => {
    const issues = (q: Record<string, string>) => [
      ...new Set(
        AvailabilityQuerySchema.safeParse(q).error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`),
      ),
    ];
    expect(issues({ from: 'soon' })).toEqual([expect.stringMatching(/^from: from must be/)]);
    expect(issues({ group_by: 'pump' })).toEqual([expect.stringMatching(/^group_by: group_by must be/)]);
    expect(issues({ format: 'xls' })).toEqual([expect.stringMatching(/^format: format must be/)]);
    expect(issues({ from: '2026-11-02T00:00:00Z', to: '2026-11-01T00:00:00Z' })).toEqual([
      'to: to must be after from',
    ]);
    expect(AvailabilityQuerySchema.parse({})).toEqual({ group_by: 'site', format: 'json' });
  });

  it('schedules run on Monday 00:00 UTC for the week before, on the 1st for the month before', () => {
    const wed = new Date('2026-11-25T15:00:00Z');
    expect(periodEndingBy('week', wed)).toEqual({
      from: new Date('2026-11-16T00:00:00Z'),
      to: new Date('2026-11-23T00:00:00Z'),
    });
    expect(nextBoundary('week', wed)).toEqual(new Date('2026-11-30T00:00:00Z'));
    const monday = new Date('2026-11-23T00:00:00Z');
    expect(periodEndingBy('week', monday).to).toEqual(monday);
    expect(nextBoundary('week', monday)).toEqual(new Date('2026-11-30T00:00:00Z'));
    expect(periodEndingBy('month', new Date('2026-01-10T00:00:00Z'))).toEqual({
      from: new Date('2025-12-01T00:00:00Z'),
      to: new Date('2026-01-01T00:00:00Z'),
    });
    expect(nextBoundary('month', new Date('2026-12-31T23:00:00Z'))).toEqual(new Date('2027-01-01T00:00:00Z'));
  });

  it("a schedule's boundaries are local midnights of its zone, across a clock change", () => {
    // Auckland (UTC+13 in summer): Monday 00:00 local is Sunday 11:00 UTC.
    const nz = 'Pacific/Auckland';
    const sunday = new Date('2026-11-29T10:59:59Z'); // Sunday 23:59:59 in Auckland
    expect(periodEndingBy('week', sunday, nz)).toEqual({
      from: new Date('2026-11-15T11:00:00Z'),
      to: new Date('2026-11-22T11:00:00Z'),
    });
    expect(nextBoundary('week', sunday, nz)).toEqual(new Date('2026-11-29T11:00:00Z'));
    const monday = new Date('2026-11-29T11:00:00Z');
    expect(periodEndingBy('week', monday, nz).to).toEqual(monday);
    expect(nextBoundary('week', monday, nz)).toEqual(new Date('2026-12-06T11:00:00Z'));
    // New Year in Auckland comes 13 hours before UTC's: December is over there at 2026-12-31 11:00 UTC.
    expect(periodEndingBy('month', new Date('2026-12-31T11:00:00Z'), nz)).toEqual({
      from: new Date('2026-11-30T11:00:00Z'),
      to: new Date('2026-12-31T11:00:00Z'),
    });
    expect(nextBoundary('month', new Date('2026-12-31T10:59:59Z'), nz)).toEqual(
      new Date('2026-12-31T11:00:00Z'),
    );
    expect(localDate(new Date('2026-12-31T11:00:00Z'), nz)).toBe('2027-01-01');
    // Los Angeles: October 2026 starts in summer time (UTC-7) and ends in winter time (UTC-8, from 1 November 2am).
    const la = 'America/Los_Angeles';
    expect(periodEndingBy('month', new Date('2026-11-15T00:00:00Z'), la)).toEqual({
      from: new Date('2026-10-01T07:00:00Z'),
      to: new Date('2026-11-01T07:00:00Z'),
    });
    expect(nextBoundary('month', new Date('2026-11-15T00:00:00Z'), la)).toEqual(
      new Date('2026-12-01T08:00:00Z'),
    );
    // The week across the change is 169 hours long.
    const week = periodEndingBy('week', new Date('2026-11-03T12:00:00Z'), la);
    expect((week.to.getTime() - week.from.getTime()) / 3_600_000).toBe(169);
    // Santiago skips midnight when summer time starts (2026-09-06 00:00 → 01:00): the day starts at 01:00.
    expect(zonedMidnight(2026, 8, 6, 'America/Santiago')).toEqual(new Date('2026-09-06T04:00:00Z'));
    expect(knownZone('Mars/Olympus')).toBe('UTC');
    expect(knownZone('Asia/Dubai')).toBe('Asia/Dubai');
  });
});
