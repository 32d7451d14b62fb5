import { WebConfigSchema } from '@forecourt/contract/config';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

/** Public runtime settings of the web app: which tile servers the maps use. */
export async function configRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const body = { tileUrlRoad: app.config.TILE_URL_ROAD, tileUrlSatellite: app.config.TILE_URL_SATELLITE };
  r.get(
    '/api/config',
    {
      schema: {
        tags: ['config'],
        summary: 'Runtime settings of the web app (map tile servers)',
        description:
          'Unauthenticated. `tileUrlRoad` and `tileUrlSatellite` come from TILE_URL_ROAD and TILE_URL_SATELLITE.',
        response: { 200: WebConfigSchema },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=300');
      return body;
    },
  );
}
