import { WebConfigSchema } from '@forecourt/contract/config';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, postgresUnavailable, type TestApp } from './helper.ts';
import { sendJson, startProviderServer } from './provider-server.ts';

describe.skipIf(postgresUnavailable)('GET /api/config', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({
      TILE_URL_ROAD: 'http://tiles.example.test/road/{z}/{x}/{y}.png',
      TILE_URL_SATELLITE: 'http://tiles.example.test/sat/{z}/{y}/{x}.jpg',
      // A closed port: nothing listens there.
      WEATHER_URL: 'http://127.0.0.1:9/v1/forecast',
      GEO_URL: 'http://127.0.0.1:9/reverse',
    });
  });
  afterAll(async () => t?.close());

  it('gives the tile servers from TILE_URL_ROAD and TILE_URL_SATELLITE without a sign-in', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/config' });
    expect(res.statusCode).toBe(200);
    expect(WebConfigSchema.parse(res.json())).toEqual({
      tileUrlRoad: 'http://tiles.example.test/road/{z}/{x}/{y}.png',
      tileUrlSatellite: 'http://tiles.example.test/sat/{z}/{y}/{x}.jpg',
      // .test names never resolve: the server found neither tile server.
      tileRoadReachable: false,
      tileSatelliteReachable: false,
      weatherReachable: false,
      geocoderReachable: false,
    });
  });

  it('answers with a trailing slash too', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/config/' });
    expect(res.statusCode).toBe(200);
    expect(res.json().tileUrlRoad).toBe('http://tiles.example.test/road/{z}/{x}/{y}.png');
  });
});

describe.skipIf(postgresUnavailable)(
  'GET /api/config with the weather provider and geocoder answering',
  () => {
    let t: TestApp;
    let provider: Awaited<ReturnType<typeof startProviderServer>>;
    beforeAll(async () => {
      provider = await startProviderServer((req, res) => {
        if (req.path === '/v1/forecast') {
          const midnight = new Date();
          midnight.setUTCHours(0, 0, 0, 0);
          const time = Array.from({ length: 48 }, (_, h) =>
            new Date(midnight.getTime() + h * 3600_000).toISOString().slice(0, 16),
          );
          return sendJson(res, 200, { hourly: { time, temperature_2m: time.map(() => 8) } });
        }
        if (req.path === '/reverse') return sendJson(res, 200, { address: { town: 'Greenwich' } });
        sendJson(res, 404, {});
      });
      t = await buildTestApp({
        WEATHER_URL: `${provider.url}/v1/forecast`,
        GEO_URL: `${provider.url}/reverse`,
      });
    });
    afterAll(async () => {
      await t?.close();
      await provider?.close();
    });

    it('says both are reachable, and asks each of them once for many reads', async () => {
      for (let i = 0; i < 3; i++) {
        const res = await t.app.inject({ method: 'GET', url: '/api/config' });
        expect(res.json()).toMatchObject({ weatherReachable: true, geocoderReachable: true });
      }
      expect(provider.requests.map((r) => r.path).sort()).toEqual(['/reverse', '/v1/forecast']);
    });
  },
);

describe.skipIf(postgresUnavailable)('GET /api/config defaults', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => t?.close());

  it('falls back to OpenStreetMap road tiles and Esri imagery', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/config' });
    const body = WebConfigSchema.parse(res.json());
    expect(body.tileUrlRoad).toBe('https://tile.openstreetmap.org/{z}/{x}/{y}.png');
    expect(body.tileUrlSatellite).toContain('World_Imagery');
  });
});
