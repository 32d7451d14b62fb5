import { z } from 'zod';

/** A coordinate from a query string; an empty value is missing, not 0. */
const coordinate = (min: number, max: number, what: string) =>
  z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.coerce
      .number({ error: `must be a number (${what})` })
      .min(min, `must be from ${min} to ${max}`)
      .max(max, `must be from ${min} to ${max}`),
  );

export const WeatherQuerySchema = z.object({
  lat: coordinate(-90, 90, 'latitude'),
  lng: coordinate(-180, 180, 'longitude'),
  units: z.enum(['metric', 'imperial']).default('metric'),
});

/** The forecast service shape (a list of 3-hourly items). */
export const ForecastItemSchema = z.object({
  dt_txt: z.string(),
  main: z.object({ temp: z.number(), temp_max: z.number(), temp_min: z.number(), humidity: z.number() }),
  weather: z.array(z.object({ main: z.string(), description: z.string(), icon: z.string() })),
  wind: z.object({ speed: z.number().describe('km/h'), deg: z.number() }),
});
export type ForecastItem = z.infer<typeof ForecastItemSchema>;

export const WeatherResponseSchema = z.object({
  city: z.string().nullable(),
  units: z.enum(['metric', 'imperial']),
  list: z.array(ForecastItemSchema),
  fetched_at: z.string(),
});
export type WeatherResponse = z.infer<typeof WeatherResponseSchema>;

export const GeoReverseQuerySchema = z.object({
  lat: coordinate(-90, 90, 'latitude'),
  lng: coordinate(-180, 180, 'longitude'),
});
export const GeoReverseResponseSchema = z.object({
  latitude: z.number(),
  longitude: z.number(),
  city: z.string().nullable(),
});
