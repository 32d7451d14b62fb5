import { ErrorBodySchema } from '@forecourt/contract/common';
import {
  GeoReverseQuerySchema,
  GeoReverseResponseSchema,
  WeatherQuerySchema,
  WeatherResponseSchema,
} from '@forecourt/contract/weather';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { unavailable } from '../../lib/errors.ts';
import { ProviderUnavailableError } from '../../services/weather/errors.ts';
import { createWeatherService, weatherOptionsFromEnv } from '../../services/weather/weather-service.ts';

const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 503: ErrorBodySchema };

/** Weather forecast and reverse geocoding through the server: cached, shared, 503 when the provider is unreachable. */
export async function weatherRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const service = createWeatherService(weatherOptionsFromEnv(app.config));

  r.get(
    '/api/weather/',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['weather'],
        summary: 'Weather forecast for a place (3-hourly items, 5 days)',
        description:
          'Open-Meteo by default (keyless), OpenWeatherMap when WEATHER_API_KEY is set. Cached 10 minutes per ' +
          'coordinates rounded to 2 decimals; wind speed in km/h. 503 when the provider cannot be reached.',
        security: [{ jwt: [] }],
        querystring: WeatherQuerySchema,
        response: { 200: WeatherResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { lat, lng, units } = request.query;
      try {
        return await service.forecast(lat, lng, units);
      } catch (err) {
        if (err instanceof ProviderUnavailableError) {
          request.log.warn({ error: err.message }, 'weather provider unavailable');
          throw unavailable(`Weather service is unavailable: ${err.message}`);
        }
        throw err;
      }
    },
  );

  r.get(
    '/api/geo/reverse/',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['weather'],
        summary: 'City name of a place (reverse geocoding)',
        description:
          'Nominatim by default (keyless); Google Geocoding when GEO_API_KEY is set (first of postal_town, locality, ' +
          'administrative_area_level_3). Cached per coordinates rounded to 2 decimals. 503 when the provider cannot be reached.',
        security: [{ jwt: [] }],
        querystring: GeoReverseQuerySchema,
        response: { 200: GeoReverseResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { lat, lng } = request.query;
      try {
        return await service.reverse(lat, lng);
      } catch (err) {
        if (err instanceof ProviderUnavailableError) {
          request.log.warn({ error: err.message }, 'geocoding provider unavailable');
          throw unavailable(`Geocoding service is unavailable: ${err.message}`);
        }
        throw err;
      }
    },
  );
}
