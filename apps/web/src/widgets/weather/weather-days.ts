import type { ForecastItem } from '@forecourt/contract/weather';

/** At most this many day tabs (docs/product.md#weather). */
export const MAX_WEATHER_DAYS = 5;
/** The representative time of a future day (docs/product.md#weather). */
export const REPRESENTATIVE_HOUR = 15;

/** One day of the forecast as the widget shows it; numbers are null when the forecast has no value. */
export interface WeatherDay {
  /** Calendar date of the forecast items, 'YYYY-MM-DD'. */
  date: string;
  main: string;
  description: string;
  /** OpenWeatherMap-style icon code ('01d', '10n', ...), '' when missing. */
  icon: string;
  temp: number | null;
  maxTemp: number | null;
  minTemp: number | null;
  hum: number | null;
  /** km/h */
  wind: number | null;
  wind_direction: number | null;
  /** The day's time-of-day and temperature pairs. */
  times: { time: string; temp: number }[];
}

const finite = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

function dateOf(item: ForecastItem): string {
  return item.dt_txt.slice(0, 10);
}
function hourOf(item: ForecastItem): number {
  return Number(item.dt_txt.slice(11, 13)) || 0;
}

function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

function emptyDay(date: string): WeatherDay {
  return {
    date,
    main: '',
    description: '',
    icon: '',
    temp: null,
    maxTemp: null,
    minTemp: null,
    hum: null,
    wind: null,
    wind_direction: null,
    times: [],
  };
}

function dayFrom(date: string, representative: ForecastItem, items: ForecastItem[]): WeatherDay {
  const highs = items.map((i) => finite(i.main.temp_max) ?? finite(i.main.temp)).filter((v) => v !== null);
  const lows = items.map((i) => finite(i.main.temp_min) ?? finite(i.main.temp)).filter((v) => v !== null);
  const weather = representative.weather[0];
  return {
    date,
    main: weather?.main ?? '',
    description: weather?.description ?? '',
    icon: weather?.icon ?? '',
    temp: finite(representative.main.temp),
    maxTemp: highs.length ? Math.max(...highs) : null,
    minTemp: lows.length ? Math.min(...lows) : null,
    hum: finite(representative.main.humidity),
    wind: finite(representative.wind.speed),
    wind_direction: finite(representative.wind.deg),
    times: items
      .filter((i) => finite(i.main.temp) !== null)
      .map((i) => ({ time: i.dt_txt.slice(11, 16), temp: i.main.temp })),
  };
}

/**
 * The day tabs of a forecast list (3-hourly items, oldest first): the first day is the current
 * forecast entry; each following day is represented by its 15:00 entry (or the one nearest to it).
 * Minimum and maximum are over the day's entries. Consecutive days from the first, at most five,
 * up to the last day the forecast covers; a day inside that range with no entry has no values.
 */
export function weatherDays(list: ForecastItem[], maxDays = MAX_WEATHER_DAYS): WeatherDay[] {
  if (!list.length) return [];
  const byDate = new Map<string, ForecastItem[]>();
  for (const item of list) {
    const date = dateOf(item);
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) continue;
    const items = byDate.get(date) ?? [];
    items.push(item);
    byDate.set(date, items);
  }
  const dates = [...byDate.keys()].sort();
  if (!dates.length) return [];
  const first = dateOf(list[0]);
  const last = dates[dates.length - 1];
  const days: WeatherDay[] = [];
  for (let i = 0; i < maxDays; i++) {
    const date = addDays(first, i);
    if (date > last) break;
    const items = byDate.get(date);
    if (!items?.length) {
      days.push(emptyDay(date));
      continue;
    }
    const representative =
      i === 0
        ? list[0]
        : items.reduce((best, item) =>
            Math.abs(hourOf(item) - REPRESENTATIVE_HOUR) < Math.abs(hourOf(best) - REPRESENTATIVE_HOUR)
              ? item
              : best,
          );
    days.push(dayFrom(date, representative, items));
  }
  return days;
}

/** Whole degrees ('12°'), or '-' when the value is missing. */
export function formatDegrees(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '-';
  const n = Math.round(value);
  return `${Object.is(n, -0) ? 0 : n}°`;
}

/** A 'YYYY-MM-DD' date as its weekday ('Monday', or 'Mon' when short) in the given language. */
export function weekdayOf(date: string, lang: string, short = false): string {
  const d = new Date(`${date}T12:00:00Z`);
  if (Number.isNaN(d.getTime())) return '';
  return new Intl.DateTimeFormat(lang, { weekday: short ? 'short' : 'long', timeZone: 'UTC' }).format(d);
}

/** A 'YYYY-MM-DD' date in long form ('22 November 2026') in the given language. */
export function longDateOf(date: string, lang: string): string {
  const d = new Date(`${date}T12:00:00Z`);
  if (Number.isNaN(d.getTime())) return '';
  return new Intl.DateTimeFormat(lang, {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(d);
}
