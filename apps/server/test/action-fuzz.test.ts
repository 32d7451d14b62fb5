import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEVICE_FIELDS, fleetFixture } from './fleet-fixture.ts';
import { buildTestApp, postgresUnavailable, type TestApp } from './helper.ts';

interface Operation {
  method: string;
  path: string;
  query: string[];
  body: boolean;
}

function operations(doc: {
  paths: Record<
    string,
    Record<string, { parameters?: Array<{ in: string; name: string }>; requestBody?: unknown }>
  >;
}): Operation[] {
  return Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({
      method: method.toUpperCase(),
      path,
      query: (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
      body: Boolean(op.requestBody),
    })),
  );
}

const HUGE = '9'.repeat(400);

/** JSON texts of the wrong shape, type or size, and texts that are not JSON at all. */
const BODIES: string[] = [
  '',
  '{',
  '{"a":',
  'null',
  'true',
  '0',
  '-1',
  HUGE,
  '1e999',
  '"text"',
  '[]',
  '[{}]',
  '[null, 1, "x"]',
  '{}',
  '{"__proto__": {"polluted": true}, "constructor": {"prototype": {"x": 1}}}',
  `{"a": ${'['.repeat(2000)}${']'.repeat(2000)}}`,
  JSON.stringify({ x: 'y'.repeat(200_000) }),
  '\u0000\u0001\u0002',
  '{"subject": "a"} trailing',
];

/** Every field name any endpoint takes, each set to a value of the wrong type or an absurd one. */
const FIELDS = [
  'username',
  'password',
  'rememberMe',
  'email',
  'name',
  'fullName',
  'confirmPassword',
  'terms',
  'token',
  'reset_password_token',
  'newPassword',
  'oldPassword',
  'subject',
  'body',
  'reboot_type',
  ...DEVICE_FIELDS,
  'avatar',
  'picture',
];
const WRONG_VALUES: unknown[] = [
  null,
  true,
  -1,
  0,
  1e308,
  -1e308,
  2 ** 63,
  Number.MAX_SAFE_INTEGER + 2,
  1.5,
  '',
  ' ',
  '1e999',
  'NaN',
  '0000-00-00T99:99:99Z',
  '9999-12-31T23:59:59Z',
  '\u0000',
  '💥'.repeat(3000),
  [],
  [1, 2],
  {},
  { $gt: '' },
];

function fieldBodies(count: number, seed: number): string[] {
  let s = seed;
  const rand = () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s / 2 ** 31;
  };
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const obj: Record<string, unknown> = {};
    for (const f of FIELDS)
      if (rand() < 0.45) obj[f] = WRONG_VALUES[Math.floor(rand() * WRONG_VALUES.length)];
    out.push(JSON.stringify(rand() < 0.2 ? [obj, obj] : obj));
  }
  return out;
}

const CONTENT_TYPES = [
  'application/json',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/json; charset=latin1',
  'application/xml',
];

const GARBAGE_IDS = [
  '%E0%A4%A',
  '%',
  '0',
  '-1',
  '1.5',
  '1e3',
  'abc',
  '%00',
  '99999999999',
  HUGE,
  '0x10',
  '%E2%9C%93',
];

function junkQuery(op: Operation, i: number): string {
  const junk = ['abc', '-1', HUGE, '1e999', '', '%FF', 'true&x=1'];
  const params = op.query.map((name) => `${name}=${junk[i % junk.length]}`);
  return params.length ? `?${params.join('&')}` : '';
}

describe.skipIf(postgresUnavailable)('fuzzed bodies, content types, ids and queries on every route', () => {
  let t: TestApp;
  let ops: Operation[];
  let agent: string;
  let deviceToken: string;
  let ids: { pump: number; terminal: number; site: number; company: number; agent: number; command: number };

  beforeAll(async () => {
    // Weather and geocoding point at a closed port: they answer 503 (provider unreachable), never the internet.
    t = await buildTestApp({
      WEATHER_URL: 'http://127.0.0.1:9/v1/forecast',
      GEO_URL: 'http://127.0.0.1:9/reverse',
    });
    const f = await fleetFixture(t.database);
    const [org] = await t.database.query<{ agent_id: number; company_id: number }>(
      'select agent_id, company_id from sites where id = $1',
      [f.siteId],
    );
    const queued = await t.app.commands.reboot(f.controllerId, 'software', { userId: 1, name: 'fixture' });
    if (!queued.ok) throw new Error(`fixture reboot not queued: ${queued.reason}`);
    const { command } = queued;
    ids = {
      pump: f.offPump.id,
      terminal: f.controllerId,
      site: f.siteId,
      company: org.company_id,
      agent: org.agent_id,
      command: command.id,
    };
    agent = await t.login('agent');
    ops = operations((await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json());
  });
  afterAll(async () => t?.close());

  /** The path with ids the agent reaches (the first id names the entity kind of the path). */
  function validUrl(path: string): string {
    const m = /^\/api\/(?:alerts\/)?(agent|company|site|terminal|pump|command|transactions)\//.exec(path);
    const kind = m ? (m[1] === 'transactions' ? 'site' : m[1]) : 'site';
    return path
      .replace(/\{(id|siteId)\}/, String(ids[kind as keyof typeof ids] ?? ids.site))
      .replace(/\{siteId\}/, String(ids.site))
      .replace(/\{id\}/, String(ids.command));
  }

  // Administration comes after the device routes (a fuzzed DELETE decommissions the fixture's terminal) and
  // signing out comes last.
  const order = (op: Operation) =>
    /logout|sign-out/.test(op.path)
      ? 4
      : op.path.startsWith('/api/admin/')
        ? 3
        : op.path.startsWith('/api/device/')
          ? 2
          : 1;

  async function fuzz(op: Operation, auth: Record<string, string>) {
    const seen: string[] = [];
    const check = async (url: string, payload?: string, contentType?: string) => {
      const res = await t.app.inject({
        method: op.method as 'POST',
        url,
        headers: { ...auth, ...(contentType ? { 'content-type': contentType } : {}) },
        ...(payload !== undefined ? { payload } : {}),
      });
      seen.push(`${res.statusCode}`);
      const providerDown = res.statusCode === 503 && /^\/api\/(weather|geo)\//.test(op.path);
      expect(
        providerDown ? 0 : res.statusCode,
        `${op.method} ${url} [${contentType ?? '-'}] ${String(payload).slice(0, 80)}: ${res.body.slice(0, 300)}`,
      ).toBeLessThan(500);
      if (res.statusCode >= 400 && res.headers['content-type']?.toString().includes('json')) {
        const errors = (res.json() as { data?: { errors?: unknown } }).data?.errors;
        expect(
          Array.isArray(errors) && errors.length > 0,
          `${op.method} ${url}: ${res.statusCode} ${res.body.slice(0, 300)}`,
        ).toBe(true);
      }
    };
    const url = validUrl(op.path);
    for (let i = 0; i < 4; i++) await check(url + junkQuery(op, i));
    if (op.path.includes('{')) {
      for (const id of GARBAGE_IDS) await check(op.path.replace(/\{[^}]+\}/g, id) + junkQuery(op, 1));
    }
    if (op.method !== 'GET' && op.method !== 'DELETE') {
      for (const body of [...BODIES, ...fieldBodies(25, op.path.length)])
        await check(url, body, 'application/json');
      for (const type of CONTENT_TYPES.slice(1)) {
        await check(url, 'subject=a&body=b', type);
        await check(url, '{"subject":"a","body":"b"}', type);
      }
    }
    return seen;
  }

  it('never answers 5xx, and every error names what is wrong', async () => {
    const sorted = [...ops].sort((a, b) => order(a) - order(b));
    let deviceReady = false;
    let requests = 0;
    for (const op of sorted) {
      if (op.path.startsWith('/api/device/') && !deviceReady) {
        const res = await t.as(agent, {
          method: 'POST',
          url: `/api/terminal/${ids.terminal}/device-token/`,
        });
        expect(res.statusCode).toBe(200);
        deviceToken = res.json().token;
        deviceReady = true;
      }
      const auth = op.path.startsWith('/api/device/')
        ? { authorization: `Device ${deviceToken}` }
        : { authorization: `JWT ${agent}` };
      requests += (await fuzz(op, auth)).length;
    }
    expect(ops.length).toBeGreaterThan(80);
    expect(requests).toBeGreaterThan(2000);
    // Thousands of requests one after the other: 10–15 s alone, twice that and more beside other suites.
  }, 180_000);
});
