import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fleetFixture } from './fleet-fixture.ts';
import { buildTestApp, postgresUnavailable, type TestApp } from './helper.ts';

interface Operation {
  method: string;
  path: string;
  query: string[];
  body: boolean;
  device: boolean;
}

/** Every operation of the OpenAPI document that needs a token (JWT or device). */
function securedOperations(doc: {
  paths: Record<
    string,
    Record<
      string,
      { security?: unknown[]; parameters?: Array<{ in: string; name: string }>; requestBody?: unknown }
    >
  >;
}): Operation[] {
  const ops: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      if (!op.security?.length) continue;
      ops.push({
        method: method.toUpperCase(),
        path,
        query: (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
        body: Boolean(op.requestBody),
        device: path.startsWith('/api/device/'),
      });
    }
  }
  return ops;
}

/** Every declared query parameter set to a value no schema accepts (repeated, so arrays are wrong too). */
function junkQuery(op: Operation): string {
  const params = new URLSearchParams();
  for (const name of op.query) {
    params.append(name, 'zz%junk');
    params.append(name, '-1e999');
  }
  const s = params.toString();
  return s ? `?${s}` : '';
}

type Kind = 'agent' | 'company' | 'site' | 'terminal' | 'pump' | 'command';

/** The kind of entity a path's first id names. */
function kindOf(path: string): Kind | null {
  const m =
    /^\/api\/(?:alerts\/)?(agent|company|site|terminal|pump|command|transactions)\/\{(?:id|siteId)\}/.exec(
      path,
    );
  if (!m) return null;
  return m[1] === 'transactions' ? 'site' : (m[1] as Kind);
}

describe.skipIf(postgresUnavailable)('authentication and scope come before validation', () => {
  let t: TestApp;
  let ops: Operation[];
  let site: string;
  const outsider = {} as Record<Kind, number>;

  beforeAll(async () => {
    t = await buildTestApp();
    const f = await fleetFixture(t.database);
    const [org] = await t.database.query<{ agent_id: number; company_id: number }>(
      'select agent_id, company_id from sites where id = $1',
      [f.outsider.siteId],
    );
    const queued = await t.app.commands.reboot(f.outsider.terminalId, 'software', {
      userId: 1,
      name: 'fixture',
    });
    if (!queued.ok) throw new Error(`fixture reboot not queued: ${queued.reason}`);
    const { command } = queued;
    Object.assign(outsider, {
      agent: org.agent_id,
      company: org.company_id,
      site: f.outsider.siteId,
      terminal: f.outsider.terminalId,
      pump: f.outsider.pump.id,
      command: command.id,
    });
    site = await t.login('site');
    ops = securedOperations((await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json());
  });
  afterAll(async () => t?.close());

  function send(op: Operation, url: string, headers: Record<string, string> = {}) {
    return t.app.inject({
      method: op.method as 'GET',
      url,
      headers: op.body ? { ...headers, 'content-type': 'application/json' } : headers,
      ...(op.body ? { payload: '{"broken": ' } : {}),
    });
  }

  it('finds the secured operations in the OpenAPI document', () => {
    expect(ops.length).toBeGreaterThan(60);
    expect(ops.filter((o) => o.device).length).toBeGreaterThan(5);
    expect(ops.filter((o) => kindOf(o.path)).length).toBeGreaterThan(50);
  });

  it('answers 401, not 400, to a caller without a token sending bad input', async () => {
    for (const op of ops) {
      const url = op.path.replace(/\{[^}]+\}/g, '1') + junkQuery(op);
      const res = await send(op, url);
      expect(res.statusCode, `${op.method} ${url}: ${res.body.slice(0, 200)}`).toBe(401);
      expect(res.json().data.errors.length).toBeGreaterThan(0);
    }
  });

  it('answers 401 to a forged token sending bad input', async () => {
    for (const op of ops.filter((o) => !o.device)) {
      const url = op.path.replace(/\{[^}]+\}/g, '1') + junkQuery(op);
      const res = await send(op, url, { authorization: 'JWT aaaa.bbbb.cccc' });
      expect(res.statusCode, `${op.method} ${url}`).toBe(401);
    }
  });

  it('answers 403, not 400, to a signed-in caller outside its scope sending bad input', async () => {
    const scoped = ops.filter((o) => !o.device && kindOf(o.path));
    for (const op of scoped) {
      const id = outsider[kindOf(op.path)!];
      const url = op.path.replace(/\{[^}]+\}/, String(id)).replace(/\{[^}]+\}/g, String(outsider.site));
      const res = await send(op, url + junkQuery(op), { authorization: `JWT ${site}` });
      expect(res.statusCode, `${op.method} ${url}: ${res.body.slice(0, 200)}`).toBe(403);
      expect(res.json().data.errors.length).toBeGreaterThan(0);
    }
  });

  it('answers 404, not 400, for an unknown or non-numeric id with bad input', async () => {
    const scoped = ops.filter((o) => !o.device && kindOf(o.path));
    for (const op of scoped) {
      for (const id of ['2147483000', 'abc']) {
        const url = op.path.replace(/\{[^}]+\}/g, id) + junkQuery(op);
        const res = await send(op, url, { authorization: `JWT ${site}` });
        expect(res.statusCode, `${op.method} ${url}: ${res.body.slice(0, 200)}`).toBe(404);
      }
    }
  });
});
