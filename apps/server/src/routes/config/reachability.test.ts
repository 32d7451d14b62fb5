import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendJson, startProviderServer } from '../../../test/provider-server.ts';
import { PROBE_POINT, providerChecks } from '../../services/weather/weather-service.ts';
import { everyTtl } from './reachability.ts';

describe('everyTtl', () => {
  it('runs the check once within the TTL, every caller sharing its verdict', async () => {
    let runs = 0;
    const reachable = everyTtl(async () => {
      runs++;
      return true;
    }, 60_000);
    expect(await Promise.all([reachable(), reachable()])).toEqual([true, true]);
    expect(await reachable()).toBe(true);
    expect(runs).toBe(1);
  });

  it('after the TTL checks again, answering with the previous verdict meanwhile; a throw is unreachable', async () => {
    let up: boolean | 'throw' = false;
    const reachable = everyTtl(async () => {
      if (up === 'throw') throw new Error('boom');
      return up;
    }, 0);
    expect(await reachable()).toBe(false);
    up = true;
    expect(await reachable()).toBe(false);
    expect(await reachable()).toBe(true);
    up = 'throw';
    expect(await reachable()).toBe(true);
    expect(await reachable()).toBe(false);
  });
});

/** Today and tomorrow hour by hour (UTC), as Open-Meteo names its hours. */
const HOURS = Array.from({ length: 48 }, (_, h) => {
  const midnight = new Date();
  midnight.setUTCHours(0, 0, 0, 0);
  return new Date(midnight.getTime() + h * 3600_000).toISOString().slice(0, 16);
});

describe('providerChecks against real HTTP providers', () => {
  let provider: Awaited<ReturnType<typeof startProviderServer>>;
  /** What each path answers: the status, or 'slow' (no answer for 3 s). */
  const answer = new Map<string, number | 'slow'>();
  beforeAll(async () => {
    provider = await startProviderServer(async (req, res) => {
      const how = answer.get(req.path) ?? 404;
      if (how === 'slow') await new Promise((r) => setTimeout(r, 3_000));
      if (req.path === '/v1/forecast' && how !== 404)
        return sendJson(res, how === 'slow' ? 200 : how, {
          hourly: { time: HOURS, temperature_2m: HOURS.map(() => 9) },
        });
      if (req.path === '/data/2.5/forecast')
        return sendJson(res, typeof how === 'number' ? how : 200, {
          list: [{ dt_txt: '2026-11-24 12:00:00', main: { temp: 9 } }],
        });
      if (req.path === '/reverse')
        return sendJson(res, typeof how === 'number' ? how : 200, { address: { town: 'Greenwich' } });
      return sendJson(res, 404, { error: 'not found' });
    });
  });
  afterAll(() => provider?.close());

  const options = (extra: Partial<Parameters<typeof providerChecks>[0]> = {}) => ({
    weatherProvider: 'open-meteo' as const,
    weatherUrl: `${provider.url}/v1/forecast`,
    geoProvider: 'nominatim' as const,
    geoUrl: `${provider.url}/reverse`,
    ...extra,
  });

  it('finds Open-Meteo and Nominatim reachable when they answer, asking once each for Greenwich', async () => {
    answer.set('/v1/forecast', 200).set('/reverse', 200);
    provider.requests.length = 0;
    const checks = providerChecks(options());
    expect(await checks.weather()).toBe(true);
    expect(await checks.geocoder()).toBe(true);
    expect(provider.requests.map((r) => r.path)).toEqual(['/v1/forecast', '/reverse']);
    expect(provider.requests[0].query.get('latitude')).toBe(String(PROBE_POINT.latitude));
    expect(provider.requests[1].query.get('lat')).toBe(String(PROBE_POINT.latitude));
  });

  it('finds a provider answering 503, one too slow and a closed port unreachable', async () => {
    answer.set('/v1/forecast', 503).set('/reverse', 'slow');
    const checks = providerChecks(options({ timeoutMs: 300 }));
    expect(await checks.weather()).toBe(false);
    expect(await checks.geocoder()).toBe(false);
    const closed = providerChecks(
      options({ weatherUrl: 'http://127.0.0.1:9/v1/forecast', geoUrl: 'http://127.0.0.1:9/reverse' }),
    );
    expect(await closed.weather()).toBe(false);
    expect(await closed.geocoder()).toBe(false);
  });

  it('finds OpenWeatherMap unreachable without a key, without asking it', async () => {
    answer.set('/data/2.5/forecast', 200);
    provider.requests.length = 0;
    const owm = (key?: string) =>
      providerChecks(
        options({
          weatherProvider: 'openweathermap',
          weatherUrl: `${provider.url}/data/2.5/forecast`,
          weatherApiKey: key,
        }),
      );
    expect(await owm().weather()).toBe(false);
    expect(provider.requests).toHaveLength(0);
    expect(await owm('key').weather()).toBe(true);
    answer.set('/data/2.5/forecast', 401);
    expect(await owm('wrong').weather()).toBe(false);
  });
});
