import { z } from 'zod';

/** Runtime settings of the web app, served by `GET /api/config` (public: the sign-in page may need them). */
export const WebConfigSchema = z.object({
  tileUrlRoad: z
    .string()
    .describe(
      'Leaflet URL template of the road map tiles (TILE_URL_ROAD), e.g. https://tile.openstreetmap.org/{z}/{x}/{y}.png',
    ),
  tileUrlSatellite: z.string().describe('Leaflet URL template of the satellite tiles (TILE_URL_SATELLITE)'),
  tileRoadReachable: z
    .boolean()
    .describe(
      'Whether the server reached the road tile server with one zoom-0 tile (checked at most every 10 minutes). ' +
        'When false the maps add no tile layer, so a browser never fills its console with failed tiles.',
    ),
  tileSatelliteReachable: z
    .boolean()
    .describe('Whether the server reached the satellite tile server, as tileRoadReachable'),
});
export type WebConfig = z.infer<typeof WebConfigSchema>;
