import type { TelemetryHistory } from '@forecourt/contract/telemetry-history';
import { describe, expect, it } from 'vitest';
import { formatReading, mergeHistory, summarize } from './chart-data.ts';

const point = (at: string, avg: number, min = avg, max = avg, n = 1) => ({ at, avg, min, max, n });
const history = (step_s: number, points: TelemetryHistory['points'], from = '2026-11-27T00:00:00.000Z') => ({
  signal: 'battery_life' as const,
  from,
  to: '2026-11-27T12:00:00.000Z',
  step_s,
  points,
});
const s = (iso: string) => Date.parse(iso) / 1000;

describe('chart data', () => {
  it('lays readings out as uPlot columns, times in seconds', () => {
    const data = mergeHistory(
      history(0, [point('2026-11-27T01:00:00.000Z', 80), point('2026-11-27T02:00:00.000Z', 79.5)]),
    );
    expect(data).toEqual({
      x: [s('2026-11-27T01:00:00Z'), s('2026-11-27T02:00:00Z')],
      avg: [80, 79.5],
      min: [80, 79.5],
      max: [80, 79.5],
      bucketed: false,
    });
  });

  it('appends only the tail readings after the range, none twice', () => {
    const base = history(0, [point('2026-11-27T11:58:00.000Z', 50)]);
    const tail = history(
      0,
      [point('2026-11-27T11:58:00.000Z', 50), point('2026-11-27T12:01:00.000Z', 49)],
      '2026-11-27T11:58:00.000Z',
    );
    expect(mergeHistory(base, tail).avg).toEqual([50, 49]);
  });

  it("after buckets, the tail's readings inside the last bucket are left to it", () => {
    const base = history(600, [point('2026-11-27T11:50:00.000Z', 50, 48, 52, 10)]);
    const tail = history(
      0,
      [point('2026-11-27T11:55:00.000Z', 51), point('2026-11-27T12:00:00.000Z', 47)],
      '2026-11-27T11:50:00.000Z',
    );
    const data = mergeHistory(base, tail);
    expect(data.bucketed).toBe(true);
    expect(data.x).toEqual([s('2026-11-27T11:50:00Z'), s('2026-11-27T12:00:00Z')]);
    expect(data.min).toEqual([48, 47]);
  });

  it('an empty range takes every tail reading from its start', () => {
    const data = mergeHistory(history(0, []), history(0, [point('2026-11-27T12:00:05.000Z', 7)]));
    expect(data.avg).toEqual([7]);
    expect(mergeHistory(undefined).x).toEqual([]);
  });

  it('sums a chart up: count, latest, lowest and highest (band edges included)', () => {
    const data = mergeHistory(
      history(600, [
        point('2026-11-27T11:40:00.000Z', 50, 40, 60, 3),
        point('2026-11-27T11:50:00.000Z', 45, 44, 46, 3),
      ]),
    );
    expect(summarize(data)).toEqual({ count: 2, latest: 45, lowest: 40, highest: 60 });
    expect(summarize(mergeHistory(undefined))).toEqual({
      count: 0,
      latest: null,
      lowest: null,
      highest: null,
    });
  });

  it('writes a reading with one decimal at most and its unit', () => {
    expect(formatReading(45.26, '%', 'en-GB')).toBe('45.3%');
    expect(formatReading(21, '°C', 'fr-FR')).toBe('21 °C');
    expect(formatReading(21.5, '°C', 'fr-FR')).toBe('21,5 °C');
    expect(formatReading(null, '%')).toBe('-');
  });
});
