import { GeoReverseResponseSchema, WeatherResponseSchema } from '@forecourt/contract/weather';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { configQueries } from '../../../lib/api/config.ts';
import { polled } from '../../../lib/api/live.ts';
import { mapTerminalQueries } from '../../../lib/api/map-terminals.ts';
import { QUERY_ROOTS } from '../../../lib/api/query-keys.ts';
import { siteQueries } from '../../../lib/api/sites.ts';
import { api, isApiError } from '../../../lib/api-client.ts';
import type { Scope } from '../../../lib/scope.ts';

/** The server caches forecasts 10 minutes: asking more often would only repeat the same answer. */
export const WEATHER_REFRESH_MS = 10 * 60_000;

export interface WeatherPlace {
  lat: number;
  lng: number;
  /** Name to show when reverse geocoding gives no city. */
  name: string;
}

/** A 503 (provider unreachable) will not heal in seconds: show it at once, retry on the next refresh. */
function retryUnlessUnavailable(failureCount: number, error: unknown) {
  if (isApiError(error) && error.kind === 'http' && error.status >= 400) return false;
  return failureCount < 2;
}

/** Coordinates rounded as the server caches them, so nearby places share one query. */
const round2 = (n: number) => Math.round(n * 100) / 100;

/** Forecasts and place names by rounded coordinates: nearby sites share one query. */
export const weatherQueries = {
  all: [QUERY_ROOTS.weather] as const,
  /** GET /api/weather/?lat&lng&units=metric */
  forecast: (lat: number, lng: number) => {
    const params = { lat: round2(lat), lng: round2(lng), units: 'metric' };
    return queryOptions({
      queryKey: [...weatherQueries.all, params] as const,
      queryFn: ({ signal }) =>
        api.get('/api/weather/', { query: params, schema: WeatherResponseSchema, signal }),
      ...polled,
      refetchInterval: WEATHER_REFRESH_MS,
      staleTime: WEATHER_REFRESH_MS,
      retry: retryUnlessUnavailable,
    });
  },
  /** GET /api/geo/reverse/?lat&lng: the city at the coordinates. */
  place: (lat: number, lng: number) => {
    const params = { lat: round2(lat), lng: round2(lng) };
    return queryOptions({
      queryKey: [QUERY_ROOTS.geo, params] as const,
      queryFn: ({ signal }) =>
        api.get('/api/geo/reverse/', { query: params, schema: GeoReverseResponseSchema, signal }),
      ...polled,
      refetchInterval: WEATHER_REFRESH_MS,
      staleTime: WEATHER_REFRESH_MS,
      retry: retryUnlessUnavailable,
    });
  },
};

/**
 * Whether the server can reach the weather provider and the geocoder (`GET /api/config`), read again at each
 * forecast refresh so a service that comes back is used without a reload. Nothing is asked of a service the
 * server cannot reach: its 503 would be a console error in every browser. `settled` is false while the settings
 * are first read; when they cannot be read at all, both services are asked as usual (a 503 then says so).
 */
export function useWeatherServices(): { weather: boolean; geocoder: boolean; settled: boolean } {
  const config = useQuery({
    ...configQueries.web(),
    refetchInterval: WEATHER_REFRESH_MS,
    refetchIntervalInBackground: false,
  });
  if (config.data) {
    return { weather: config.data.weatherReachable, geocoder: config.data.geocoderReachable, settled: true };
  }
  if (config.isError) return { weather: true, geocoder: true, settled: true };
  return { weather: false, geocoder: false, settled: false };
}

/** The place a dashboard's weather is for, from data other widgets of the page already poll (shared keys). */
export function useWeatherPlace(source: Scope) {
  const site = useQuery({ ...siteQueries.detail(source.id), enabled: source.kind === 'site' });
  const sites = useQuery({
    ...mapTerminalQueries.fleet({ kind: source.kind === 'site' ? 'company' : source.kind, id: source.id }),
    enabled: source.kind !== 'site',
  });
  const query = source.kind === 'site' ? site : sites;
  let place: WeatherPlace | null = null;
  if (source.kind === 'site' && site.data) {
    const { lat, lng, title, city } = site.data;
    if (lat !== null && lng !== null) place = { lat, lng, name: city || title };
  } else if (source.kind !== 'site' && sites.data) {
    const located = sites.data.find((s) => s.terminals.length > 0);
    if (located) {
      const n = located.terminals.length;
      place = {
        lat: located.terminals.reduce((a, t) => a + t.lat, 0) / n,
        lng: located.terminals.reduce((a, t) => a + t.lng, 0) / n,
        name: located.site_title,
      };
    }
  }
  return { place, query };
}
