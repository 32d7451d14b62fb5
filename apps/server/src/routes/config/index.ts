import { WebConfigSchema } from '@forecourt/contract/config';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { providerChecks, weatherOptionsFromEnv } from '../../services/weather/weather-service.ts';
import { everyTtl } from './reachability.ts';
import { tileProbe } from './tile-probe.ts';

/**
 * Public runtime settings of the web app: which tile servers the maps use, and whether the tile servers, the
 * weather provider and the geocoder answer (so a browser never asks one that cannot be reached).
 */
export async function configRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const road = app.config.TILE_URL_ROAD;
  const satellite = app.config.TILE_URL_SATELLITE;
  const reachable = tileProbe();
  const checks = providerChecks(weatherOptionsFromEnv(app.config));
  const weatherReachable = everyTtl(checks.weather);
  const geocoderReachable = everyTtl(checks.geocoder);
  // A listening server checks at once, so the first visitor does not wait for it.
  app.addHook('onListen', async () => {
    void reachable(road);
    void reachable(satellite);
    void weatherReachable();
    void geocoderReachable();
  });
  r.get(
    '/api/config',
    {
      schema: {
        tags: ['config'],
        summary: 'Runtime settings of the web app (map tile servers, weather and geocoding reachability)',
        description:
          'Unauthenticated. `tileUrlRoad` and `tileUrlSatellite` come from TILE_URL_ROAD and TILE_URL_SATELLITE; ' +
          '`tileRoadReachable` and `tileSatelliteReachable` say whether the server could fetch one tile from each; ' +
          '`weatherReachable` and `geocoderReachable` whether the weather provider and the reverse geocoder behind ' +
          '`/api/weather/` and `/api/geo/reverse/` gave a usable answer for one place (each checked at most every ' +
          '10 minutes, within 2.5 s; only the very first check is waited for).',
        response: { 200: WebConfigSchema },
      },
    },
    async (_request, reply) => {
      const [tileRoadReachable, tileSatelliteReachable, weather, geocoder] = await Promise.all([
        reachable(road),
        reachable(satellite),
        weatherReachable(),
        geocoderReachable(),
      ]);
      reply.header('cache-control', 'public, max-age=300');
      return {
        tileUrlRoad: road,
        tileUrlSatellite: satellite,
        tileRoadReachable,
        tileSatelliteReachable,
        weatherReachable: weather,
        geocoderReachable: geocoder,
      };
    },
  );
}
