import { ErrorBodySchema } from '@forecourt/contract/common';
import { GeoReverseResponseSchema, WeatherResponseSchema } from '@forecourt/contract/weather';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, postgresUnavailable, type TestApp } from './helper.ts';
import { sendJson, startProviderServer } from './provider-server.ts';

type Provider = Awaited<ReturnType<typeof startProviderServer>>;

/** Open-Meteo-shaped hourly data: 6 days from today's midnight (UTC), temperature rising 0.5° an hour. */
function openMeteoBody(unit: string) {
  const start = new Date();
  start.setUTCHours(0, 0, 0, 0);
  const time: string[] = [];
  const temperature: number[] = [];
  const humidity: number[] = [];
  const code: number[] = [];
  const speed: number[] = [];
  const dir: number[] = [];
  const isDay: number[] = [];
  for (let h = 0; h < 144; h++) {
    const at = new Date(start.getTime() + h * 3600_000);
    time.push(at.toISOString().slice(0, 16));
    temperature.push((unit === 'fahrenheit' ? 50 : 10) + (h % 24) * 0.5);
    humidity.push(60 + (h % 10));
    code.push(h % 24 < 12 ? 0 : 61);
    speed.push(18);
    dir.push(270);
    isDay.push(at.getUTCHours() >= 6 && at.getUTCHours() < 18 ? 1 : 0);
  }
  return {
    latitude: 51.5,
    longitude: -0.12,
    hourly_units: { temperature_2m: unit === 'fahrenheit' ? '°F' : '°C', wind_speed_10m: 'km/h' },
    hourly: {
      time,
      temperature_2m: temperature,
      relative_humidity_2m: humidity,
      weather_code: code,
      wind_speed_10m: speed,
      wind_direction_10m: dir,
      is_day: isDay,
    },
  };
}

/** One loopback server standing in for Open-Meteo, Nominatim, OpenWeatherMap and Google's geocoder. */
async function startProviders() {
  return startProviderServer(async (req, res) => {
    if (req.path === '/v1/forecast')
      return sendJson(res, 200, openMeteoBody(req.query.get('temperature_unit') ?? ''));
    if (req.path === '/reverse') {
      const lat = Number(req.query.get('lat'));
      if (lat < -80) return sendJson(res, 200, { error: 'Unable to geocode' });
      return sendJson(res, 200, {
        address: { town: 'Sevenoaks', county: 'Kent', country: 'United Kingdom' },
      });
    }
    if (req.path === '/data/2.5/forecast') {
      if (req.query.get('appid') !== 'owm-key')
        return sendJson(res, 401, { cod: 401, message: 'Invalid API key' });
      return sendJson(res, 200, {
        cod: '200',
        list: [
          {
            dt: 1_700_000_000,
            dt_txt: '2023-11-14 21:00:00',
            main: { temp: 8.4, temp_min: 7.9, temp_max: 8.9, humidity: 81 },
            weather: [{ id: 500, main: 'Rain', description: 'light rain', icon: '10n' }],
            wind: { speed: 5, deg: 230 },
          },
        ],
        city: { name: 'Manchester' },
      });
    }
    if (req.path === '/maps/api/geocode/json') {
      return sendJson(res, 200, {
        status: 'OK',
        results: [
          {
            address_components: [
              { long_name: 'High Street', types: ['route'] },
              { long_name: 'Leeds', types: ['locality', 'political'] },
              { long_name: 'Headingley', types: ['postal_town'] },
            ],
          },
        ],
      });
    }
    if (req.path === '/broken') return sendJson(res, 500, { error: 'boom' });
    if (req.path === '/slow') return; // never answers
    sendJson(res, 404, { error: 'not found' });
  });
}

/**
 * A suite's fake providers and its app pointed at them (`env` from the providers' address), with `username`
 * signed in; set in the suite's beforeAll.
 */
function withProviders(username: string, env: (url: string) => Record<string, string>) {
  const s = {} as { p: Provider; t: TestApp; token: string };
  beforeAll(async () => {
    s.p = await startProviders();
    s.t = await buildTestApp(env(s.p.url));
    s.token = await s.t.login(username);
  });
  afterAll(async () => {
    await s.t?.close();
    await s.p?.close();
  });
  return s;
}

describe.skipIf(postgresUnavailable)('weather and reverse geocoding (keyless providers)', () => {
  const s = withProviders('agent', (url) => ({
    WEATHER_URL: `${url}/v1/forecast`,
    GEO_URL: `${url}/reverse`,
    WEATHER_TIMEOUT_MS: '30000',
  }));
  const get = (url: string) => s.t.as(s.token, { method: 'GET', url });
  const hits = (path: string) => s.p.requests.filter((r) => r.path === path).length;

  it('maps Open-Meteo hourly data to a 3-hourly forecast list with the city', async () => {
    const res = await get('/api/weather/?lat=51.2722&lng=0.1903&units=metric');
    expect(res.statusCode).toBe(200);
    const body = WeatherResponseSchema.parse(res.json());
    expect(body.city).toBe('Sevenoaks');
    expect(body.units).toBe('metric');
    expect(body.list.length).toBeGreaterThanOrEqual(32);
    expect(body.list.length).toBeLessThanOrEqual(40);
    for (const item of body.list) {
      expect(item.dt_txt).toMatch(/^\d{4}-\d{2}-\d{2} (00|03|06|09|12|15|18|21):00:00$/);
      expect(item.main.temp_min).toBeLessThanOrEqual(item.main.temp);
      expect(item.main.temp_max).toBeGreaterThanOrEqual(item.main.temp);
      expect(item.wind).toEqual({ speed: 18, deg: 270 });
    }
    const slot = new Date();
    slot.setUTCHours(slot.getUTCHours() - (slot.getUTCHours() % 3), 0, 0, 0);
    expect(body.list[0].dt_txt).toBe(
      `${slot.toISOString().slice(0, 10)} ${slot.toISOString().slice(11, 13)}:00:00`,
    );
    const noon = body.list.find((i) => i.dt_txt.endsWith(' 12:00:00'))!;
    expect(noon.main).toMatchObject({ temp: 16, temp_max: 17, temp_min: 16 });
    expect(noon.weather[0]).toEqual({ main: 'Rain', description: 'slight rain', icon: '10d' });
    const night = body.list.find((i) => i.dt_txt.endsWith(' 03:00:00'))!;
    expect(night.weather[0]).toEqual({ main: 'Clear', description: 'clear sky', icon: '01n' });

    const call = s.p.requests.find((r) => r.path === '/v1/forecast')!;
    expect(call.query.get('latitude')).toBe('51.27');
    expect(call.query.get('longitude')).toBe('0.19');
    expect(call.query.get('wind_speed_unit')).toBe('kmh');
  });

  it('serves nearby coordinates from the cache and shares one call among concurrent callers', async () => {
    const before = hits('/v1/forecast');
    const again = await get('/api/weather/?lat=51.2719&lng=0.1901');
    expect(again.statusCode).toBe(200);
    expect(hits('/v1/forecast')).toBe(before);

    const many = await Promise.all(
      Array.from({ length: 12 }, () => get('/api/weather/?lat=53.48&lng=-2.24')),
    );
    expect(many.every((r) => r.statusCode === 200)).toBe(true);
    expect(hits('/v1/forecast')).toBe(before + 1);
  });

  it('asks for Fahrenheit when units=imperial, wind still in km/h', async () => {
    const res = await get('/api/weather/?lat=52.2&lng=0.12&units=imperial');
    const body = WeatherResponseSchema.parse(res.json());
    expect(body.units).toBe('imperial');
    expect(body.list[0].main.temp).toBeGreaterThanOrEqual(50);
    expect(
      s.p.requests
        .filter((r) => r.path === '/v1/forecast')
        .at(-1)
        ?.query.get('temperature_unit'),
    ).toBe('fahrenheit');
  });

  it('reverse-geocodes a place to its city', async () => {
    const res = await get('/api/geo/reverse/?lat=51.27&lng=0.19');
    expect(res.statusCode).toBe(200);
    expect(GeoReverseResponseSchema.parse(res.json())).toEqual({
      latitude: 51.27,
      longitude: 0.19,
      city: 'Sevenoaks',
    });
    const unknown = await get('/api/geo/reverse/?lat=-85&lng=0');
    expect(GeoReverseResponseSchema.parse(unknown.json()).city).toBeNull();
  });

  it('names the bad query parameter', async () => {
    for (const [url, field] of [
      ['/api/weather/?lat=abc&lng=0', 'lat'],
      ['/api/weather/?lat=91&lng=0', 'lat'],
      ['/api/weather/?lat=10', 'lng'],
      ['/api/weather/?lat=10&lng=0&units=kelvin', 'units'],
      ['/api/geo/reverse/?lat=0&lng=181', 'lng'],
    ] as const) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(400);
      expect(ErrorBodySchema.parse(res.json()).data.errors.join(' ')).toContain(field);
    }
  });

  it('refuses a caller without a token', async () => {
    for (const url of ['/api/weather/?lat=1&lng=1', '/api/geo/reverse/?lat=1&lng=1']) {
      const res = await s.t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(401);
    }
  });

  it('never answers 500 to fuzzed queries', async () => {
    const values = [
      '',
      '0',
      '-0',
      '1e3',
      'NaN',
      'Infinity',
      '0x10',
      '%00',
      '51.5,0.1',
      'a'.repeat(500),
      '[]',
    ];
    for (const lat of values) {
      for (const lng of values) {
        for (const path of ['/api/weather/', '/api/geo/reverse/']) {
          const res = await get(
            `${path}?lat=${encodeURIComponent(lat)}&lng=${encodeURIComponent(lng)}&units=${lat}`,
          );
          expect(res.statusCode, `${path} ${lat} ${lng}`).toBeLessThan(500);
        }
      }
    }
  });
});

describe.skipIf(postgresUnavailable)('weather with OpenWeatherMap and Google-style geocoding', () => {
  const s = withProviders('company', (url) => ({
    WEATHER_API_KEY: 'owm-key',
    WEATHER_URL: `${url}/data/2.5/forecast`,
    GEO_API_KEY: 'geo-key',
    GEO_URL: `${url}/maps/api/geocode/json`,
    WEATHER_TIMEOUT_MS: '30000',
  }));

  it('uses the key, metric units, and converts wind from m/s to km/h', async () => {
    const res = await s.t.as(s.token, { method: 'GET', url: '/api/weather/?lat=53.48&lng=-2.24' });
    expect(res.statusCode).toBe(200);
    const body = WeatherResponseSchema.parse(res.json());
    expect(body.city).toBe('Manchester');
    expect(body.list).toEqual([
      {
        dt_txt: '2023-11-14 21:00:00',
        main: { temp: 8.4, temp_max: 8.9, temp_min: 7.9, humidity: 81 },
        weather: [{ main: 'Rain', description: 'light rain', icon: '10n' }],
        wind: { speed: 18, deg: 230 },
      },
    ]);
    const call = s.p.requests.find((r) => r.path === '/data/2.5/forecast')!;
    expect(Object.fromEntries(call.query)).toMatchObject({
      lat: '53.48',
      lon: '-2.24',
      units: 'metric',
      appid: 'owm-key',
    });
  });

  it('takes postal_town before locality from a Google-style answer', async () => {
    const res = await s.t.as(s.token, { method: 'GET', url: '/api/geo/reverse/?lat=53.82&lng=-1.58' });
    expect(GeoReverseResponseSchema.parse(res.json()).city).toBe('Headingley');
    const call = s.p.requests.find((r) => r.path === '/maps/api/geocode/json')!;
    expect(call.query.get('latlng')).toBe('53.82,-1.58');
    expect(call.query.get('key')).toBe('geo-key');
  });
});

describe.skipIf(postgresUnavailable)('weather when the provider is unreachable', () => {
  let p: Provider;
  const apps: TestApp[] = [];
  beforeAll(async () => {
    p = await startProviders();
  });
  afterAll(async () => {
    for (const a of apps) await a.close();
    await p?.close();
  });
  async function appWith(env: Record<string, string>) {
    const t = await buildTestApp(env);
    apps.push(t);
    return { t, token: await t.login('site') };
  }

  it('answers 503 with a clear error when nothing listens', async () => {
    const closed = await startProviderServer(() => {});
    await closed.close();
    const port = new URL(closed.url).port;
    const { t, token } = await appWith({
      WEATHER_URL: `${closed.url}/v1/forecast`,
      GEO_URL: `${closed.url}/reverse`,
    });
    const res = await t.as(token, { method: 'GET', url: '/api/weather/?lat=51.5&lng=-0.12' });
    expect(res.statusCode).toBe(503);
    const body = ErrorBodySchema.parse(res.json());
    expect(body.data.errors[0]).toBe(
      `Weather service is unavailable: cannot reach 127.0.0.1:${port} (ECONNREFUSED)`,
    );
    const geo = await t.as(token, { method: 'GET', url: '/api/geo/reverse/?lat=51.5&lng=-0.12' });
    expect(geo.statusCode).toBe(503);
    expect(ErrorBodySchema.parse(geo.json()).data.errors[0]).toMatch(/^Geocoding service is unavailable: /);
  });

  it('answers 503 when the provider fails or times out', async () => {
    const { t, token } = await appWith({
      WEATHER_URL: `${p.url}/broken`,
      GEO_URL: `${p.url}/slow`,
      WEATHER_TIMEOUT_MS: '300',
    });
    const res = await t.as(token, { method: 'GET', url: '/api/weather/?lat=51.5&lng=-0.12' });
    expect(res.statusCode).toBe(503);
    expect(ErrorBodySchema.parse(res.json()).data.errors[0]).toMatch(
      /^Weather service is unavailable: .*500/,
    );
    const geo = await t.as(token, { method: 'GET', url: '/api/geo/reverse/?lat=51.5&lng=-0.12' });
    expect(geo.statusCode).toBe(503);
    expect(ErrorBodySchema.parse(geo.json()).data.errors[0]).toContain('within 0.3 s');
  });

  it('answers 503 when OpenWeatherMap rejects the key', async () => {
    const { t, token } = await appWith({
      WEATHER_API_KEY: 'wrong',
      WEATHER_URL: `${p.url}/data/2.5/forecast`,
    });
    const res = await t.as(token, { method: 'GET', url: '/api/weather/?lat=51.5&lng=-0.12' });
    expect(res.statusCode).toBe(503);
    expect(ErrorBodySchema.parse(res.json()).data.errors[0]).toContain('401');
  });
});
