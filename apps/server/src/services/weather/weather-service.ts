import type { WeatherResponse } from '@forecourt/contract/weather';
import type { Env } from '../../config/env.ts';
import { cached } from './cache.ts';
import { type GeoProvider, reverseGeocode } from './geocoders.ts';
import { fetchOpenMeteo, fetchOpenWeatherMap, type Units } from './providers.ts';

export type { GeoProvider, Units };
export type WeatherProvider = 'open-meteo' | 'openweathermap';

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

/** Coordinates rounded to 2 decimals (about 1 km): the cache key and what the provider is asked. */
const round2 = (n: number) => Math.round(n * 100) / 100;

/** Where the reachability checks ask for a forecast and a place name: Greenwich, which every provider knows. */
export const PROBE_POINT = { latitude: 51.48, longitude: 0 } as const;
/** A reachability check slower than this counts as unreachable: `GET /api/config` waits for the first one. */
export const PROBE_TIMEOUT_MS = 2_500;

const succeeds = (p: Promise<unknown>) =>
  p.then(
    () => true,
    () => false,
  );

/**
 * One uncached call each to the weather provider and to the geocoder, for Greenwich: whether it gives a usable
 * answer now (reachable, key accepted, answer understood). OpenWeatherMap without WEATHER_API_KEY is unreachable
 * without a call. Every failure is `false`, never an exception.
 */
export function providerChecks(opts: WeatherServiceOptions, timeoutMs = PROBE_TIMEOUT_MS) {
  const { latitude: lat, longitude: lng } = PROBE_POINT;
  const wait = Math.min(timeoutMs, opts.timeoutMs ?? timeoutMs);
  return {
    weather: () =>
      succeeds(
        opts.weatherProvider === 'openweathermap'
          ? fetchOpenWeatherMap(opts.weatherUrl, opts.weatherApiKey, lat, lng, 'metric', wait)
          : fetchOpenMeteo(opts.weatherUrl, lat, lng, 'metric', wait),
      ),
    geocoder: () => succeeds(reverseGeocode(opts.geoProvider, opts.geoUrl, opts.geoApiKey, lat, lng, wait)),
  };
}

/** Weather forecasts and reverse geocoding through the server, cached per rounded coordinates. */
export function createWeatherService(opts: WeatherServiceOptions) {
  const timeoutMs = opts.timeoutMs ?? 4_000;
  const failureTtlMs = opts.failureTtlMs ?? 15_000;
  const staleMs = opts.staleMs ?? 6 * 3600_000;
  const weatherCache = cached<WeatherResponse>(opts.weatherTtlMs ?? 10 * 60_000, failureTtlMs, staleMs);
  const geoCache = cached<string | null>(opts.geoTtlMs ?? 24 * 3600_000, failureTtlMs, staleMs * 4);

  const city = (lat: number, lng: number) =>
    geoCache(`${lat},${lng}`, () =>
      reverseGeocode(opts.geoProvider, opts.geoUrl, opts.geoApiKey, lat, lng, timeoutMs),
    );

  return {
    async reverse(latitude: number, longitude: number): Promise<GeoResult> {
      return { latitude, longitude, city: await city(round2(latitude), round2(longitude)) };
    },

    async forecast(latitude: number, longitude: number, units: Units): Promise<WeatherResponse> {
      const lat = round2(latitude);
      const lng = round2(longitude);
      return weatherCache(`${lat},${lng},${units}`, async () => {
        const fetchedAt = () => new Date().toISOString();
        if (opts.weatherProvider === 'openweathermap') {
          const mapped = await fetchOpenWeatherMap(
            opts.weatherUrl,
            opts.weatherApiKey,
            lat,
            lng,
            units,
            timeoutMs,
          );
          return { city: mapped.city, units, list: mapped.list, fetched_at: fetchedAt() };
        }
        const [list, place] = await Promise.all([
          fetchOpenMeteo(opts.weatherUrl, lat, lng, units, timeoutMs),
          city(lat, lng).catch(() => null),
        ]);
        return { city: place, units, list, fetched_at: fetchedAt() };
      });
    },
  };
}
export type WeatherService = ReturnType<typeof createWeatherService>;
