import { ProviderUnavailableError } from './errors.ts';
import { getJson } from './http.ts';

export type GeoProvider = 'nominatim' | 'google';

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

/** The city at a point, from Google's geocoder (with a key) or Nominatim. */
export async function reverseGeocode(
  provider: GeoProvider,
  baseUrl: string,
  apiKey: string | undefined,
  lat: number,
  lng: number,
  timeoutMs: number,
): Promise<string | null> {
  const url = new URL(baseUrl);
  if (provider === 'google') {
    url.searchParams.set('latlng', `${lat},${lng}`);
    if (apiKey) url.searchParams.set('key', apiKey);
  } else {
    url.searchParams.set('format', 'jsonv2');
    url.searchParams.set('lat', String(lat));
    url.searchParams.set('lon', String(lng));
    url.searchParams.set('zoom', '10');
    url.searchParams.set('addressdetails', '1');
  }
  return cityFromGeocode(await getJson(url, timeoutMs));
}
