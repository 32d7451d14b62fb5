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
  weatherReachable: z
    .boolean()
    .describe(
      'Whether the weather provider behind GET /api/weather/ gave the server a usable forecast for one place ' +
        '(checked at most every 10 minutes; false for OpenWeatherMap without WEATHER_API_KEY). When false the ' +
        'weather widget asks for no forecast and says the service cannot be reached, so a browser never logs a 503.',
    ),
  geocoderReachable: z
    .boolean()
    .describe(
      'Whether the reverse geocoder behind GET /api/geo/reverse/ gave the server an answer for one place, as ' +
        'weatherReachable. When false the weather widget asks for no city name and shows the site name instead.',
    ),
});
export type WebConfig = z.infer<typeof WebConfigSchema>;
