import { describe, expect, it } from 'vitest';
import { withOffsets } from './org-reads.ts';

const zone = (iana: string) => ({ title: iana, area: iana.split('/')[0], tz_title: iana, iana });

describe('time zone offsets follow daylight saving through the IANA name', () => {
  const zones = ['Europe/London', 'America/New_York', 'Australia/Sydney', 'Asia/Kolkata', 'UTC'].map(zone);

  it('gives winter offsets in January', () => {
    const tz = withOffsets(zones, new Date('2026-01-15T12:00:00Z')).map((z) => z.tz);
    expect(tz).toEqual([0, -5, 11, 5.5, 0]);
  });

  it('gives summer offsets in July', () => {
    const tz = withOffsets(zones, new Date('2026-07-15T12:00:00Z')).map((z) => z.tz);
    expect(tz).toEqual([1, -4, 10, 5.5, 0]);
  });

  it('switches at the moment the clocks change (London, 29 March 2026 01:00 UTC)', () => {
    const [before] = withOffsets([zone('Europe/London')], new Date('2026-03-29T00:59:59Z'));
    const [after] = withOffsets([zone('Europe/London')], new Date('2026-03-29T01:00:00Z'));
    expect(before.tz).toBe(0);
    expect(after.tz).toBe(1);
  });

  it('keeps the shape {title, area, tz_title, tz, iana} and answers 0 for an unknown zone', () => {
    const [z] = withOffsets([zone('Mars/Olympus_Mons')], new Date('2026-01-15T12:00:00Z'));
    expect(z).toEqual({
      title: 'Mars/Olympus_Mons',
      area: 'Mars',
      tz_title: 'Mars/Olympus_Mons',
      tz: 0,
      iana: 'Mars/Olympus_Mons',
    });
  });
});
