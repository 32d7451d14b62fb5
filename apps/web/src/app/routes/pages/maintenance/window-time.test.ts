import type { MaintenanceWindow } from '@forecourt/contract/maintenance';
import { describe, expect, it } from 'vitest';
import {
  compareWindows,
  formatWhen,
  fromLocalInput,
  startToSend,
  weekdayName,
  windowStatus,
} from './window-time.ts';

const NOW = Date.parse('2026-11-27T21:00:00Z');
const win = (overrides: Partial<MaintenanceWindow>): MaintenanceWindow => ({
  id: 1,
  target: { scope: { kind: 'site', id: 101 }, tags: [] },
  starts_at: '2026-11-27T20:00:00.000Z',
  ends_at: '2026-11-27T23:00:00.000Z',
  recurrence: null,
  reason: '',
  created_by: 'site',
  created_at: '2026-11-27T19:00:00.000Z',
  active: false,
  ...overrides,
});

describe('maintenance window times', () => {
  it('a window is active (as the server says), upcoming until its end, then ended; active ones first, soonest next', () => {
    const active = win({ id: 1, active: true });
    const weeklyBetween = win({ id: 2, starts_at: '2026-11-20T00:00:00Z', ends_at: '2027-01-01T00:00:00Z' });
    const later = win({ id: 3, starts_at: '2026-11-28T02:00:00Z', ends_at: '2026-11-28T04:00:00Z' });
    const ended = win({ id: 4, ends_at: '2026-11-27T20:30:00Z' });
    expect([active, weeklyBetween, later, ended].map((w) => windowStatus(w, NOW))).toEqual([
      'active',
      'upcoming',
      'upcoming',
      'ended',
    ]);
    expect([ended, later, weeklyBetween, active].sort(compareWindows(NOW)).map((w) => w.id)).toEqual([
      1, 2, 3, 4,
    ]);
  });

  it('shows times in the site zone and weekdays by ISO number', () => {
    expect(formatWhen('2026-07-01T01:30:00Z', 'Europe/London', 'en-GB')).toBe('Wed 1 Jul, 02:30 BST');
    expect(weekdayName(1, 'en-GB')).toBe('Mon');
    expect(weekdayName(7, 'en-GB')).toBe('Sun');
  });

  it('a proposed start that slipped a few minutes into the past means now; an older one is sent as typed', () => {
    expect(startToSend('2026-11-27T20:57:00.000Z', NOW)).toBe(new Date(NOW).toISOString());
    expect(startToSend('2026-11-27T20:00:00.000Z', NOW)).toBe('2026-11-27T20:00:00.000Z');
    expect(startToSend('2026-11-27T22:00:00.000Z', NOW)).toBe('2026-11-27T22:00:00.000Z');
    expect(fromLocalInput('')).toBeUndefined();
    expect(fromLocalInput('2026-11-27T21:30')).toBe(new Date(2026, 10, 27, 21, 30).toISOString());
  });
});
