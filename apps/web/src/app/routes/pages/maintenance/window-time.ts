import type { MaintenanceWindow } from '@forecourt/contract/maintenance';
import { safeZone } from '../logs/log-time.ts';

export type WindowStatus = 'active' | 'upcoming' | 'ended';

/** Active now (the server's word), upcoming (ends later), or ended. */
export function windowStatus(w: MaintenanceWindow, now: number): WindowStatus {
  if (w.active) return 'active';
  return Date.parse(w.ends_at) > now ? 'upcoming' : 'ended';
}

/** Active first, then the soonest start; ended ones last, the latest end first. */
export function compareWindows(now: number) {
  const rank = { active: 0, upcoming: 1, ended: 2 } as const;
  return (a: MaintenanceWindow, b: MaintenanceWindow) => {
    const ra = rank[windowStatus(a, now)];
    const rb = rank[windowStatus(b, now)];
    if (ra !== rb) return ra - rb;
    if (ra === 2) return Date.parse(b.ends_at) - Date.parse(a.ends_at);
    return Date.parse(a.starts_at) - Date.parse(b.starts_at) || a.id - b.id;
  };
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(locale: string, zone: string | undefined, options: Intl.DateTimeFormatOptions) {
  const key = `${locale}|${zone ?? ''}|${JSON.stringify(options)}`;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, { ...options, timeZone: safeZone(zone) });
    formatters.set(key, f);
  }
  return f;
}

/** `Fri 27 Nov, 21:30 GMT` in a zone (the browser's without one). */
export function formatWhen(iso: string, zone: string | undefined, locale: string): string {
  return formatter(locale, zone, {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'short',
  }).format(new Date(iso));
}

/** The calendar leaf of a window: day of the month and short month, in a zone. */
export function calendarLeaf(iso: string, zone: string | undefined, locale: string) {
  const date = new Date(iso);
  return {
    day: formatter(locale, zone, { day: 'numeric' }).format(date),
    month: formatter(locale, zone, { month: 'short' }).format(date),
  };
}

/** An ISO weekday's short name (Monday = 1) in a language. */
export function weekdayName(day: number, locale: string): string {
  // 2024-01-01 was a Monday.
  return formatter(locale, 'UTC', { weekday: 'short' }).format(new Date(Date.UTC(2024, 0, day)));
}

/** `2026-11-27T21:30`: an instant as a datetime-local field shows it (the browser's zone). */
export function toLocalInput(ms: number): string {
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A datetime-local field's value as an ISO instant (the browser's zone); undefined when empty or bad. */
export function fromLocalInput(value: string): string | undefined {
  if (!value) return undefined;
  const ms = new Date(value).getTime();
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
}

/**
 * The start to send: a start the form proposed as "now" may have slipped into the past while the form was open; up
 * to `grace` ms in the past it means now. An older one is sent as typed (the server explains why not).
 */
export function startToSend(startIso: string, now: number, grace = 10 * 60_000): string {
  const ms = Date.parse(startIso);
  return ms < now && ms >= now - grace ? new Date(now).toISOString() : startIso;
}
