import { WebConfigSchema } from '@forecourt/contract/config';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { tileProbe } from './tile-probe.ts';

/** Public runtime settings of the web app: which tile servers the maps use, and whether they answer. */
export async function configRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const road = app.config.TILE_URL_ROAD;
  const satellite = app.config.TILE_URL_SATELLITE;
  const reachable = tileProbe();
  // A listening server checks at once, so the first visitor does not wait for it.
  app.addHook('onListen', async () => {
    void reachable(road);
    void reachable(satellite);
  });
  r.get(
    '/api/config',
    {
      schema: {
        tags: ['config'],
        summary: 'Runtime settings of the web app (map tile servers)',
        description:
          'Unauthenticated. `tileUrlRoad` and `tileUrlSatellite` come from TILE_URL_ROAD and TILE_URL_SATELLITE; ' +
          '`tileRoadReachable` and `tileSatelliteReachable` say whether the server could fetch one tile from each ' +
          '(checked at most every 10 minutes).',
        response: { 200: WebConfigSchema },
      },
    },
    async (_request, reply) => {
      const [tileRoadReachable, tileSatelliteReachable] = await Promise.all([
        reachable(road),
        reachable(satellite),
      ]);
      reply.header('cache-control', 'public, max-age=300');
      return { tileUrlRoad: road, tileUrlSatellite: satellite, tileRoadReachable, tileSatelliteReachable };
    },
  );
}
