import type { ForecastItem, WeatherResponse } from '@forecourt/contract/weather';
import type { Env } from '../config/env.ts';

export type WeatherProvider = 'open-meteo' | 'openweathermap';
export type GeoProvider = 'nominatim' | 'google';
export type Units = 'metric' | 'imperial';

export interface GeoResult {
  latitude: number;
  longitude: number;
  city: string | null;
}

export interface WeatherServiceOptions {
  weatherProvider: WeatherProvider;
  weatherUrl: string;
  weatherApiKey?: string;
  geoProvider: GeoProvider;
  geoUrl: string;
  geoApiKey?: string;
  /** Per provider call (default 4 s). */
  timeoutMs?: number;
  /** How long a forecast is served from cache (default 10 min). */
  weatherTtlMs?: number;
  /** How long a place name is served from cache (default 24 h). */
  geoTtlMs?: number;
  /** A failure is remembered this long, so an unreachable provider is not asked by every caller (default 15 s). */
  failureTtlMs?: number;
  /** A stale answer is served while the provider fails, up to this age (default 6 h). */
  staleMs?: number;
}

const DEFAULT_URLS = {
  'open-meteo': 'https://api.open-meteo.com/v1/forecast',
  openweathermap: 'https://api.openweathermap.org/data/2.5/forecast',
  nominatim: 'https://nominatim.openstreetmap.org/reverse',
  google: 'https://maps.googleapis.com/maps/api/geocode/json',
} as const;

const USER_AGENT = 'Forecourt/0.1 (fuel-site console; weather widget)';
const MAX_BODY = 4 * 1024 * 1024;

/** Providers from the environment: keyless Open-Meteo and Nominatim unless a key or a provider is configured. */
export function weatherOptionsFromEnv(env: Env): WeatherServiceOptions {
  const weatherProvider: WeatherProvider =
    env.WEATHER_PROVIDER ?? (env.WEATHER_API_KEY ? 'openweathermap' : 'open-meteo');
  const geoProvider: GeoProvider = env.GEO_PROVIDER ?? (env.GEO_API_KEY ? 'google' : 'nominatim');
  return {
    weatherProvider,
    weatherUrl: env.WEATHER_URL ?? DEFAULT_URLS[weatherProvider],
    weatherApiKey: env.WEATHER_API_KEY || undefined,
    geoProvider,
    geoUrl: env.GEO_URL ?? DEFAULT_URLS[geoProvider],
    geoApiKey: env.GEO_API_KEY || undefined,
    timeoutMs: env.WEATHER_TIMEOUT_MS,
  };
}

/** The provider could not be reached or gave no usable answer: answered 503. */
export class ProviderUnavailableError extends Error {}

/** WMO weather interpretation codes (Open-Meteo) → OpenWeatherMap-style main, description and icon. */
const WMO: Record<number, [main: string, description: string, icon: string]> = {
  0: ['Clear', 'clear sky', '01'],
  1: ['Clouds', 'mainly clear', '02'],
  2: ['Clouds', 'partly cloudy', '03'],
  3: ['Clouds', 'overcast', '04'],
  45: ['Fog', 'fog', '50'],
  48: ['Fog', 'depositing rime fog', '50'],
  51: ['Drizzle', 'light drizzle', '09'],
  53: ['Drizzle', 'moderate drizzle', '09'],
  55: ['Drizzle', 'dense drizzle', '09'],
  56: ['Drizzle', 'light freezing drizzle', '09'],
  57: ['Drizzle', 'dense freezing drizzle', '09'],
  61: ['Rain', 'slight rain', '10'],
  63: ['Rain', 'moderate rain', '10'],
  65: ['Rain', 'heavy rain', '10'],
  66: ['Rain', 'light freezing rain', '13'],
  67: ['Rain', 'heavy freezing rain', '13'],
  71: ['Snow', 'slight snow fall', '13'],
  73: ['Snow', 'moderate snow fall', '13'],
  75: ['Snow', 'heavy snow fall', '13'],
  77: ['Snow', 'snow grains', '13'],
  80: ['Rain', 'slight rain showers', '09'],
  81: ['Rain', 'moderate rain showers', '09'],
  82: ['Rain', 'violent rain showers', '09'],
  85: ['Snow', 'slight snow showers', '13'],
  86: ['Snow', 'heavy snow showers', '13'],
  95: ['Thunderstorm', 'thunderstorm', '11'],
  96: ['Thunderstorm', 'thunderstorm with slight hail', '11'],
  99: ['Thunderstorm', 'thunderstorm with heavy hail', '11'],
};

export function wmoCondition(
  code: number,
  isDay: boolean,
): { main: string; description: string; icon: string } {
  const [main, description, icon] = WMO[code] ?? ['Unknown', `weather code ${code}`, '03'];
  return { main, description, icon: `${icon}${isDay ? 'd' : 'n'}` };
}

const round1 = (n: number) => Math.round(n * 10) / 10;
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** 'YYYY-MM-DDTHH:mm' (UTC) → OpenWeatherMap's dt_txt 'YYYY-MM-DD HH:mm:ss'. */
function dtTxt(time: string): string {
  const [date, clock = '00:00'] = time.split('T');
  return `${date} ${clock.slice(0, 5)}:00`;
}

/** Open-Meteo hourly data → 3-hourly forecast items from the current 3-hour slot on, at most 5 days. */
export function mapOpenMeteo(body: unknown, now = new Date()): ForecastItem[] {
  const hourly = (body as { hourly?: Record<string, unknown[]> } | null)?.hourly;
  if (!hourly || !Array.isArray(hourly.time))
    throw new ProviderUnavailableError('the provider answered without hourly data');
  const time = hourly.time as string[];
  const col = (name: string) => (Array.isArray(hourly[name]) ? hourly[name] : []);
  const temp = col('temperature_2m');
  const hum = col('relative_humidity_2m');
  const code = col('weather_code');
  const speed = col('wind_speed_10m');
  const deg = col('wind_direction_10m');
  const isDay = col('is_day');
  const slot = new Date(now);
  slot.setUTCMinutes(0, 0, 0);
  slot.setUTCHours(slot.getUTCHours() - (slot.getUTCHours() % 3));
  const items: ForecastItem[] = [];
  for (let i = 0; i < time.length && items.length < 40; i++) {
    const at = Date.parse(`${time[i]}Z`);
    if (!Number.isFinite(at) || at < slot.getTime() || new Date(at).getUTCHours() % 3 !== 0) continue;
    const t = num(temp[i]);
    if (t === null) continue;
    const window = [0, 1, 2].map((k) => num(temp[i + k])).filter((v): v is number => v !== null);
    const c = num(code[i]) ?? -1;
    const hour = new Date(at).getUTCHours();
    const day = num(isDay[i]);
    items.push({
      dt_txt: dtTxt(time[i]),
      main: {
        temp: round1(t),
        temp_max: round1(Math.max(...window)),
        temp_min: round1(Math.min(...window)),
        humidity: Math.round(num(hum[i]) ?? 0),
      },
      weather: [wmoCondition(c, day === null ? hour >= 6 && hour < 18 : day === 1)],
      wind: { speed: round1(num(speed[i]) ?? 0), deg: Math.round(num(deg[i]) ?? 0) },
    });
  }
  if (items.length === 0) throw new ProviderUnavailableError('the provider answered without forecast items');
  return items;
}

/** OpenWeatherMap 5-day forecast → the same items, wind converted to km/h. */
export function mapOpenWeatherMap(
  body: unknown,
  units: Units,
): { city: string | null; list: ForecastItem[] } {
  const b = body as { list?: unknown[]; city?: { name?: unknown } } | null;
  if (!b || !Array.isArray(b.list))
    throw new ProviderUnavailableError('the provider answered without a forecast list');
  const toKmh = units === 'imperial' ? 1.609344 : 3.6;
  const list: ForecastItem[] = [];
  for (const raw of b.list) {
    const it = raw as {
      dt_txt?: unknown;
      dt?: unknown;
      main?: Record<string, unknown>;
      weather?: Array<Record<string, unknown>>;
      wind?: Record<string, unknown>;
    };
    const temp = num(it.main?.temp);
    if (temp === null) continue;
    const dt =
      typeof it.dt_txt === 'string'
        ? it.dt_txt
        : num(it.dt) !== null
          ? new Date(num(it.dt)! * 1000).toISOString().replace('T', ' ').slice(0, 19)
          : null;
    if (!dt) continue;
    list.push({
      dt_txt: dt,
      main: {
        temp,
        temp_max: num(it.main?.temp_max) ?? temp,
        temp_min: num(it.main?.temp_min) ?? temp,
        humidity: num(it.main?.humidity) ?? 0,
      },
      weather: (Array.isArray(it.weather) ? it.weather : []).map((w) => ({
        main: String(w.main ?? ''),
        description: String(w.description ?? ''),
        icon: String(w.icon ?? ''),
      })),
      wind: { speed: round1((num(it.wind?.speed) ?? 0) * toKmh), deg: num(it.wind?.deg) ?? 0 },
    });
  }
  if (list.length === 0) throw new ProviderUnavailableError('the provider answered without forecast items');
  const name = b.city?.name;
  return { city: typeof name === 'string' && name ? name : null, list };
}

const GOOGLE_CITY_TYPES = ['postal_town', 'locality', 'administrative_area_level_3'];

/** A reverse-geocoding answer → a city: Google-style (first of postal_town, locality, administrative_area_level_3) or Nominatim-style. */
export function cityFromGeocode(body: unknown): string | null {
  const b = body as Record<string, unknown> | null;
  if (!b || typeof b !== 'object')
    throw new ProviderUnavailableError('the provider answered without a place');
  if (Array.isArray(b.results)) {
    const status = typeof b.status === 'string' ? b.status : 'OK';
    if (status !== 'OK' && status !== 'ZERO_RESULTS') {
      const message = typeof b.error_message === 'string' ? `: ${b.error_message}` : '';
      throw new ProviderUnavailableError(`the provider answered ${status}${message}`);
    }
    const components = (b.results as Array<{ address_components?: unknown }>).flatMap((r) =>
      Array.isArray(r?.address_components)
        ? (r.address_components as Array<{ long_name?: unknown; types?: unknown }>)
        : [],
    );
    for (const type of GOOGLE_CITY_TYPES) {
      const hit = components.find((c) => Array.isArray(c.types) && c.types.includes(type));
      if (hit && typeof hit.long_name === 'string' && hit.long_name) return hit.long_name;
    }
    return null;
  }
  const address = b.address as Record<string, unknown> | undefined;
  if (address && typeof address === 'object') {
    for (const key of ['city', 'town', 'village', 'hamlet', 'municipality', 'suburb', 'county']) {
      const v = address[key];
      if (typeof v === 'string' && v) return v;
    }
    return null;
  }
  if (typeof b.error === 'string') return null;
  throw new ProviderUnavailableError('the provider answered without a place');
}

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

async function getJson(url: URL, timeoutMs: number): Promise<unknown> {
  let res: Response;
  try {
    res = await fetch(url, {
      headers: { accept: 'application/json', 'user-agent': USER_AGENT, 'accept-language': 'en' },
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (err) {
    const e = err as Error & { cause?: { code?: string; message?: string } };
    if (e.name === 'TimeoutError' || e.name === 'AbortError') {
      throw new ProviderUnavailableError(`no answer from ${url.host} within ${seconds(timeoutMs)}`);
    }
    throw new ProviderUnavailableError(
      `cannot reach ${url.host} (${e.cause?.code ?? e.cause?.message ?? e.message})`,
    );
  }
  let text: string;
  try {
    text = await res.text();
  } catch {
    throw new ProviderUnavailableError(`no complete answer from ${url.host} within ${seconds(timeoutMs)}`);
  }
  if (!res.ok) {
    throw new ProviderUnavailableError(`${url.host} answered ${res.status} ${res.statusText}`.trim());
  }
  if (text.length > MAX_BODY) throw new ProviderUnavailableError(`${url.host} answered too much data`);
  try {
    return JSON.parse(text);
  } catch {
    throw new ProviderUnavailableError(`${url.host} answered something that is not JSON`);
  }
}

type Entry<T> = { at: number; value?: T; error?: ProviderUnavailableError };

/**
 * A small TTL cache with shared in-flight loads: N callers asking for the same key while it loads
 * cost one provider call. A stale value is served while the provider fails.
 */
function cached<T>(ttlMs: number, failureTtlMs: number, staleMs: number, maxEntries = 10_000) {
  const entries = new Map<string, Entry<T>>();
  const inflight = new Map<string, Promise<T>>();
  return async (key: string, load: () => Promise<T>): Promise<T> => {
    const now = Date.now();
    const hit = entries.get(key);
    if (hit?.value !== undefined && now - hit.at < ttlMs) return hit.value;
    if (hit?.error && now - hit.at < failureTtlMs) {
      if (hit.value !== undefined) return hit.value;
      throw hit.error;
    }
    const running = inflight.get(key);
    if (running) return running;
    const p = load()
      .then((value) => {
        entries.delete(key);
        entries.set(key, { at: Date.now(), value });
        return value;
      })
      .catch((err: unknown) => {
        const error =
          err instanceof ProviderUnavailableError
            ? err
            : new ProviderUnavailableError((err as Error).message);
        const stale = hit?.value !== undefined && now - hit.at < staleMs ? hit.value : undefined;
        entries.delete(key);
        entries.set(key, { at: Date.now(), value: stale, error });
        if (stale !== undefined) return stale;
        throw error;
      })
      .finally(() => {
        inflight.delete(key);
        if (entries.size > maxEntries) {
          const oldest = entries.keys().next().value;
          if (oldest !== undefined) entries.delete(oldest);
        }
      });
    inflight.set(key, p);
    return p;
  };
}

/** Coordinates rounded to 2 decimals (about 1 km): the cache key and what the provider is asked. */
const round2 = (n: number) => Math.round(n * 100) / 100;

/** Weather forecasts and reverse geocoding through the server, cached per rounded coordinates. */
export function createWeatherService(opts: WeatherServiceOptions) {
  const timeoutMs = opts.timeoutMs ?? 4_000;
  const failureTtlMs = opts.failureTtlMs ?? 15_000;
  const staleMs = opts.staleMs ?? 6 * 3600_000;
  const weatherCache = cached<WeatherResponse>(opts.weatherTtlMs ?? 10 * 60_000, failureTtlMs, staleMs);
  const geoCache = cached<string | null>(opts.geoTtlMs ?? 24 * 3600_000, failureTtlMs, staleMs * 4);

  async function city(lat: number, lng: number): Promise<string | null> {
    return geoCache(`${lat},${lng}`, async () => {
      const url = new URL(opts.geoUrl);
      if (opts.geoProvider === 'google') {
        url.searchParams.set('latlng', `${lat},${lng}`);
        if (opts.geoApiKey) url.searchParams.set('key', opts.geoApiKey);
      } else {
        url.searchParams.set('format', 'jsonv2');
        url.searchParams.set('lat', String(lat));
        url.searchParams.set('lon', String(lng));
        url.searchParams.set('zoom', '10');
        url.searchParams.set('addressdetails', '1');
      }
      return cityFromGeocode(await getJson(url, timeoutMs));
    });
  }

  return {
    async reverse(latitude: number, longitude: number): Promise<GeoResult> {
      return { latitude, longitude, city: await city(round2(latitude), round2(longitude)) };
    },

    async forecast(latitude: number, longitude: number, units: Units): Promise<WeatherResponse> {
      const lat = round2(latitude);
      const lng = round2(longitude);
      return weatherCache(`${lat},${lng},${units}`, async () => {
        const url = new URL(opts.weatherUrl);
        if (opts.weatherProvider === 'openweathermap') {
          if (!opts.weatherApiKey) throw new ProviderUnavailableError('WEATHER_API_KEY is not set');
          url.searchParams.set('lat', String(lat));
          url.searchParams.set('lon', String(lng));
          url.searchParams.set('units', units);
          url.searchParams.set('appid', opts.weatherApiKey);
          const mapped = mapOpenWeatherMap(await getJson(url, timeoutMs), units);
          return { city: mapped.city, units, list: mapped.list, fetched_at: new Date().toISOString() };
        }
        url.searchParams.set('latitude', String(lat));
        url.searchParams.set('longitude', String(lng));
        url.searchParams.set(
          'hourly',
          'temperature_2m,relative_humidity_2m,weather_code,wind_speed_10m,wind_direction_10m,is_day',
        );
        url.searchParams.set('forecast_days', '6');
        url.searchParams.set('timezone', 'UTC');
        url.searchParams.set('wind_speed_unit', 'kmh');
        url.searchParams.set('temperature_unit', units === 'imperial' ? 'fahrenheit' : 'celsius');
        const [body, place] = await Promise.all([getJson(url, timeoutMs), city(lat, lng).catch(() => null)]);
        return { city: place, units, list: mapOpenMeteo(body), fetched_at: new Date().toISOString() };
      });
    },
  };
}
export type WeatherService = ReturnType<typeof createWeatherService>;
