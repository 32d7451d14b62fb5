import { WebConfigSchema } from '@forecourt/contract/config';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, postgresUnavailable, type TestApp } from './helper.ts';

describe.skipIf(postgresUnavailable)('GET /api/config', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({
      TILE_URL_ROAD: 'http://tiles.example.test/road/{z}/{x}/{y}.png',
      TILE_URL_SATELLITE: 'http://tiles.example.test/sat/{z}/{y}/{x}.jpg',
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
    });
  });

  it('answers with a trailing slash too', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/config/' });
    expect(res.statusCode).toBe(200);
    expect(res.json().tileUrlRoad).toBe('http://tiles.example.test/road/{z}/{x}/{y}.png');
  });
});

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
