import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, postgresUnavailable, type TestApp } from './helper.ts';
import { fill, READ_ROUTES } from './read-routes-table.ts';

const GARBAGE_QUERIES = [
  'limit_to=abc',
  'limit_to=-1',
  'limit_to=0',
  'limit_to=1.5',
  'limit_to=1e309',
  'limit_to=99999999999999999999999',
  'limit_to=',
  'limit_to=1&limit_to=2',
  'limit_to[]=1',
  'event_type=abc',
  'event_type=99999999999',
  'event_type=-3',
  `${Array.from({ length: 60 }, () => 'event_type=1').join('&')}`,
  'before=abc',
  'before=-5',
  'before=0',
  'before=99999999999999999999999999',
  'before=123456789012345678',
  'from=garbage',
  'from=0000-01-01T00:00:00Z',
  'to=9999-12-31T23:59:59Z',
  'from=2024-02-30T00:00:00Z',
  `q=${encodeURIComponent('💥 ünïcödé \u0000 %_\\ \'";--')}`,
  `q=${'x'.repeat(500)}`,
  `terminal=${encodeURIComponent('\u0000💥')}`,
  'terminal=99999999999999',
  'offline=maybe',
  'offline=true&offline=false',
  'latest=%FF',
  'format=csv&format=json',
  'state=💥',
  'pump=abc',
  'pump=1e9',
  'min=NaN',
  'status=sideways',
  '%ZZ=%ZZ',
  'a[b][c]=d',
];

const GARBAGE_IDS = [
  '-1',
  '0',
  '99999999999',
  '1.5',
  '%E2%9C%93',
  '1e3',
  '00001',
  'null',
  `${'9'.repeat(300)}`,
];

describe.skipIf(postgresUnavailable)('fuzzed queries and ids on every read route', () => {
  let t: TestApp;
  let agent: string;
  beforeAll(async () => {
    t = await buildTestApp();
    agent = await t.login('agent');
  });
  afterAll(async () => t?.close());

  it.each(READ_ROUTES.map((r) => [r.path, r] as const))('%s never answers 5xx', async (_p, route) => {
    for (const qs of GARBAGE_QUERIES) {
      const res = await t.as(agent, { method: 'GET', url: `${fill(route.path, 1, 1)}?${qs}` });
      expect(res.statusCode, `${qs}: ${res.body.slice(0, 300)}`).toBeLessThan(500);
      expect([200, 400]).toContain(res.statusCode);
      if (res.statusCode === 400) expect(res.json().data.errors.length).toBeGreaterThan(0);
    }
    for (const id of GARBAGE_IDS) {
      const res = await t.as(agent, { method: 'GET', url: fill(route.path, id, id) });
      // 414 is the router's answer for a parameter longer than it accepts.
      const expected = id === '00001' ? [200] : id.length > 200 ? [404, 414] : [404];
      expect(expected, `id ${id}: ${res.statusCode}`).toContain(res.statusCode);
    }
  });
});
