import { formatDateSafe, utcOffsetHours } from '@forecourt/contract/formatters';

const validZones = new Map<string, boolean>();

/** A valid IANA zone name, else undefined (the browser's zone is used then). */
export function safeZone(zone: string | null | undefined): string | undefined {
  if (!zone) return undefined;
  let ok = validZones.get(zone);
  if (ok === undefined) {
    try {
      new Intl.DateTimeFormat('en-GB', { timeZone: zone });
      ok = true;
    } catch {
      ok = false;
    }
    validZones.set(zone, ok);
  }
  return ok ? zone : undefined;
}

// Building an Intl.DateTimeFormat costs far more than using one: one per (locale, zone) serves a whole page.
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterFor(locale: string, zone: string | undefined): Intl.DateTimeFormat {
  const key = `${locale}|${zone ?? ''}`;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'short',
    });
    formatters.set(key, f);
  }
  return f;
}

/** `22/11/2026, 14:05:09 GMT`: the time in the site's zone, with the zone's short name; '-' without a date. */
export function formatLogTime(
  iso: string | null | undefined,
  zone: string | undefined,
  locale = 'en-GB',
): string {
  return formatDateSafe(iso, (date) => formatterFor(locale, safeZone(zone)).format(date));
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Midnight of a calendar day (`2026-11-20`) in a zone, as an ISO instant; undefined for a bad day. */
export function dayStartInZone(day: string, zone: string | undefined, addDays = 0): string | undefined {
  const m = DAY.exec(day);
  if (!m) return undefined;
  const [year, month, date] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const check = new Date(Date.UTC(year, month - 1, date));
  // No rolling over: 2024-13-40 is not a day.
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== date)
    return undefined;
  const wall = Date.UTC(year, month - 1, date + addDays);
  const tz = safeZone(zone);
  if (!tz) return new Date(wall).toISOString();
  // Two passes so a day that starts on the other side of a daylight-saving change lands right.
  const first = wall - utcOffsetHours(tz, new Date(wall)) * 3_600_000;
  return new Date(wall - utcOffsetHours(tz, new Date(first)) * 3_600_000).toISOString();
}
