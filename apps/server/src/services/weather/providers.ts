import type { ForecastItem } from '@forecourt/contract/weather';
import { ProviderUnavailableError } from './errors.ts';
import { getJson } from './http.ts';

export type Units = 'metric' | 'imperial';

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

/** One forecast from Open-Meteo (keyless). */
export async function fetchOpenMeteo(
  baseUrl: string,
  lat: number,
  lng: number,
  units: Units,
  timeoutMs: number,
): Promise<ForecastItem[]> {
  const url = new URL(baseUrl);
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
  return mapOpenMeteo(await getJson(url, timeoutMs));
}

/** One forecast from OpenWeatherMap (needs WEATHER_API_KEY), with the city it names. */
export async function fetchOpenWeatherMap(
  baseUrl: string,
  apiKey: string | undefined,
  lat: number,
  lng: number,
  units: Units,
  timeoutMs: number,
): Promise<{ city: string | null; list: ForecastItem[] }> {
  if (!apiKey) throw new ProviderUnavailableError('WEATHER_API_KEY is not set');
  const url = new URL(baseUrl);
  url.searchParams.set('lat', String(lat));
  url.searchParams.set('lon', String(lng));
  url.searchParams.set('units', units);
  url.searchParams.set('appid', apiKey);
  return mapOpenWeatherMap(await getJson(url, timeoutMs), units);
}
