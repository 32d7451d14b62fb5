import { MapSiteSchema } from '@forecourt/contract/fleet';
import { GeoReverseResponseSchema, WeatherResponseSchema } from '@forecourt/contract/weather';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { siteDetailQuery } from '../../../lib/api/fleet.ts';
import { liveQuery } from '../../../lib/api/live.ts';
import { isApiError } from '../../../lib/api-client.ts';

/** The server caches forecasts 10 minutes: asking more often would only repeat the same answer. */
export const WEATHER_REFRESH_MS = 10 * 60_000;

/** Whose weather: a site (its coordinates), or a company or agent (its first located site). */
export interface WeatherSource {
  type: 'agent' | 'company' | 'site';
  id: number;
}

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

export function weatherQuery(lat: number, lng: number) {
  return queryOptions({
    ...liveQuery('/api/weather/', WeatherResponseSchema, {
      lat: round2(lat),
      lng: round2(lng),
      units: 'metric',
    }),
    refetchInterval: WEATHER_REFRESH_MS,
    staleTime: WEATHER_REFRESH_MS,
    retry: retryUnlessUnavailable,
  });
}

export function geoReverseQuery(lat: number, lng: number) {
  return queryOptions({
    ...liveQuery('/api/geo/reverse/', GeoReverseResponseSchema, { lat: round2(lat), lng: round2(lng) }),
    refetchInterval: WEATHER_REFRESH_MS,
    staleTime: WEATHER_REFRESH_MS,
    retry: retryUnlessUnavailable,
  });
}

const MapSiteListSchema = z.array(MapSiteSchema);

/** The place a dashboard's weather is for, from data other widgets of the page already poll (shared keys). */
export function useWeatherPlace(source: WeatherSource) {
  const site = useQuery({
    ...siteDetailQuery(source.id),
    enabled: source.type === 'site',
  });
  const sites = useQuery({
    ...liveQuery(`/api/${source.type}/${source.id}/map/terminals/`, MapSiteListSchema),
    enabled: source.type !== 'site',
  });
  const query = source.type === 'site' ? site : sites;
  let place: WeatherPlace | null = null;
  if (source.type === 'site' && site.data) {
    const { lat, lng, title, city } = site.data;
    if (lat !== null && lng !== null) place = { lat, lng, name: city || title };
  } else if (source.type !== 'site' && sites.data) {
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
