import { randomBytes } from 'node:crypto';
import { ErrorBodySchema } from '@forecourt/contract/common';
import {
  AcceptedSchema,
  CommandAckResponseSchema,
  DeviceCommandSchema,
  DeviceInfoSchema,
} from '@forecourt/contract/device';
import { TurnPumpResponseSchema } from '@forecourt/contract/pumps';
import { DeviceTokenResponseSchema } from '@forecourt/contract/terminals';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { hashDeviceToken } from '../src/services/device-tokens.ts';
import {
  DEVICE_FIELDS,
  deviceCall,
  type FleetFixture,
  fleetFixture,
  provisionDevice,
  settleCommands,
} from './fleet-fixture.ts';
import { buildTestApp, postgresUnavailable, type TestApp } from './helper.ts';

type Method = 'GET' | 'POST';

describe.skipIf(postgresUnavailable)('device API', () => {
  let t: TestApp;
  let f: FleetFixture;
  let agent: string;
  /** Device tokens of the site's pump controller and of a plain terminal. */
  let ctl: string;
  let plain: string;

  const device = (token: string, method: Method, url: string, payload?: unknown) =>
    deviceCall(t, token, method, url, payload);
  const count = async (sql: string, params: unknown[] = []) =>
    Number((await t.database.query<{ n: string | number }>(sql, params))[0].n);
  const provision = (terminalId: number) => provisionDevice(t, agent, terminalId);

  beforeAll(async () => {
    t = await buildTestApp();
    f = await fleetFixture(t.database);
    await settleCommands(t.database);
    agent = await t.login('agent');
    ctl = await provision(f.controllerId);
    plain = await provision(f.plainTerminalId);
  });
  afterAll(async () => t?.close());

  it('answers 401 without a device token, with another scheme, or an unknown token', async () => {
    const jwt = await t.app.inject({
      method: 'POST',
      url: '/api/device/v1/telemetry',
      headers: { authorization: `JWT ${agent}` },
      payload: { battery_life: 50 },
    });
    expect(jwt.statusCode).toBe(401);
    for (const headers of [
      {},
      { authorization: 'Device fcd_this-token-does-not-exist-000' },
      { authorization: 'Device' },
    ]) {
      for (const [method, url] of [
        ['POST', 'telemetry'],
        ['POST', 'events'],
        ['POST', 'shocks'],
        ['POST', 'transactions'],
        ['POST', 'pumps/status'],
        ['GET', 'commands'],
        ['POST', 'commands/1/ack'],
        ['GET', 'me'],
      ] as const) {
        const res = await t.app.inject({
          method,
          url: `/api/device/v1/${url}`,
          headers,
          payload: method === 'POST' ? {} : undefined,
        });
        expect(res.statusCode, `${method} ${url}`).toBe(401);
        ErrorBodySchema.parse(res.json());
      }
    }
  });

  it('tells a terminal who it is and which pumps it carries', async () => {
    const res = await device(ctl, 'GET', 'me');
    const me = DeviceInfoSchema.parse(res.json());
    expect(me.terminal.id).toBe(f.controllerId);
    expect(me.pumps.map((p) => p.pump_no)).toEqual(
      expect.arrayContaining([f.offPump.pumpNo, f.onPump.pumpNo]),
    );
    expect(DeviceInfoSchema.parse((await device(plain, 'GET', 'me')).json()).pumps).toEqual([]);
  });

  it('stores telemetry, one point or a batch, and keeps the terminal’s latest readings', async () => {
    await t.database.query("update terminals set telemetry_at = now() - interval '1 day' where id = $1", [
      f.plainTerminalId,
    ]);
    const before = await count('select count(*) as n from telemetry where terminal_id = $1', [
      f.plainTerminalId,
    ]);
    const now = Date.now();
    const ago = (s: number) => new Date(now - s * 1000).toISOString();
    const batch = [
      { at: ago(120), battery_life: 70, flash_left: 60, humidity_inside_cabinet: 40 },
      { at: ago(60), battery_life: 69.5, temperature_inside_cabinet: 22.5 },
      { at: ago(180), flash_left: 99 },
    ];
    const res = await device(plain, 'POST', 'telemetry', batch);
    expect(res.statusCode).toBe(202);
    expect(AcceptedSchema.parse(res.json())).toEqual({ accepted: 3 });
    const latest = async () =>
      (
        await t.database.query<Record<string, number>>(
          `select battery_life, flash_left, temperature_inside_cabinet, humidity_inside_cabinet, temperature_main_board
             from terminals where id = $1`,
          [f.plainTerminalId],
        )
      )[0];
    // Each reading from the newest point of the batch that carries it.
    expect(await latest()).toMatchObject({
      battery_life: 69.5,
      flash_left: 60,
      temperature_inside_cabinet: 22.5,
      humidity_inside_cabinet: 40,
    });

    const one = await device(plain, 'POST', 'telemetry', { battery_life: 81.5, temperature_main_board: 41 });
    expect(one.statusCode).toBe(202);
    expect(one.json()).toEqual({ accepted: 1 });
    // A late upload of old points is stored but does not replace newer readings.
    expect((await device(plain, 'POST', 'telemetry', { at: ago(3600), battery_life: 12 })).statusCode).toBe(
      202,
    );
    expect(await latest()).toEqual({
      battery_life: 81.5,
      flash_left: 60,
      temperature_inside_cabinet: 22.5,
      humidity_inside_cabinet: 40,
      temperature_main_board: 41,
    });
    expect(
      await count('select count(*) as n from telemetry where terminal_id = $1', [f.plainTerminalId]),
    ).toBe(before + 5);
  });

  it('rejects a batch with one bad item naming index and field, storing nothing', async () => {
    const before = await count('select count(*) as n from telemetry');
    const batch = [{ battery_life: 50 }, { battery_life: 51 }, { flash_left: 3 }, { battery_life: 140 }];
    const res = await device(plain, 'POST', 'telemetry', batch);
    expect(res.statusCode).toBe(400);
    expect(ErrorBodySchema.parse(res.json()).data.errors).toEqual([
      '[3].battery_life: battery_life must be 0 to 100',
    ]);
    expect(await count('select count(*) as n from telemetry')).toBe(before);

    const single = await device(plain, 'POST', 'telemetry', { battery_life: '50' });
    expect(single.json().data.errors).toEqual(['battery_life must be 0 to 100']);
    const cases: [string, unknown, string][] = [
      ['telemetry', { battery_life: 1, colour: 'red' }, 'colour: unknown field'],
      ['telemetry', {}, 'a telemetry point needs at least one reading'],
      ['telemetry', [{ battery_life: 1, at: 'yesterday' }], '[0].at: at must be an ISO 8601 date-time'],
      ['telemetry', [], 'body must contain at least one item'],
      ['telemetry', 42, 'body must be a JSON object or an array of objects'],
      [
        'events',
        [{ event_type: 1, text: 'Printer failure: jam' }, { text: 'x' }],
        '[1].event_type: event_type is required',
      ],
      ['events', { event_type: 0, text: 'x' }, 'event_type must be a whole number from 1 to 999'],
      ['shocks', [{ reading: -1 }], '[0].reading: reading must be 0 to 1000'],
      ['transactions', { volume_l: 1, amount: 2 }, 'at is required'],
      [
        'transactions',
        [{ at: '1999-12-31T23:00:00Z', volume_l: 1, amount: 2 }],
        '[0].at: at must be between 2000 and 2099',
      ],
      ['pumps/status', { pump_no: 1, status: 2, code: 4000, text: 'ok' }, 'status must be 0 (off) or 1 (on)'],
      [
        'pumps/status',
        [{ pump_no: 98, status: 1, code: 4000, text: 'ok' }],
        "[0].pump_no: no pump 98 at this terminal's site",
      ],
    ];
    for (const [url, payload, message] of cases) {
      const r = await device(ctl, 'POST', url, payload);
      expect(r.statusCode, `${url} ${JSON.stringify(payload)}`).toBe(400);
      expect(ErrorBodySchema.parse(r.json()).data.errors.join(' | ')).toContain(message);
    }
    const all = await count(
      `select (select count(*) from alerts) + (select count(*) from shocks) + (select count(*) from transactions)
            + (select count(*) from pump_status_entries) as n`,
    );
    const again = await device(ctl, 'POST', 'events', [
      { event_type: 1, text: 'ok: fine' },
      { event_type: 'x', text: 'y' },
    ]);
    expect(again.statusCode).toBe(400);
    expect(
      await count(
        `select (select count(*) from alerts) + (select count(*) from shocks) + (select count(*) from transactions)
              + (select count(*) from pump_status_entries) as n`,
      ),
    ).toBe(all);
  });

  it('turns events into alerts with the terminal’s agent, company and site', async () => {
    const res = await device(plain, 'POST', 'events', [
      { event_type: 2, text: 'Printer failure: paper jam' },
      { event_type: 7, text: 'Door opened: cabinet door', at: '2024-05-01T12:00:00Z' },
    ]);
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ accepted: 2 });
    const rows = await t.database.query<Record<string, unknown>>(
      `select a.event_type, a.text, a.site_id, a.company_id, a.agent_id, a.started_at
         from alerts a where a.terminal_id = $1 order by a.id desc limit 2`,
      [f.plainTerminalId],
    );
    const [terminal] = await t.database.query<{ site_id: number; company_id: number; agent_id: number }>(
      'select site_id, company_id, agent_id from terminals where id = $1',
      [f.plainTerminalId],
    );
    expect(rows.map((r) => r.event_type)).toEqual([7, 2]);
    expect(rows[1]).toMatchObject({ text: 'Printer failure: paper jam', ...terminal });
    expect(new Date(rows[0].started_at as string).toISOString()).toBe('2024-05-01T12:00:00.000Z');
  });

  it('stores shocks and transactions', async () => {
    const shocks = await device(plain, 'POST', 'shocks', { reading: 7.5 });
    expect(shocks.statusCode).toBe(202);
    const [shock] = await t.database.query<{ reading: number; company_id: number }>(
      'select reading, company_id from shocks where terminal_id = $1 order by id desc limit 1',
      [f.plainTerminalId],
    );
    expect(shock.reading).toBe(7.5);

    const at = new Date().toISOString();
    const txs = [
      { at, volume_l: 32.4, amount: 51.2 },
      { at, volume_l: 0.4, amount: 0.66 },
      { at, volume_l: 10, amount: 0 },
    ];
    const res = await device(plain, 'POST', 'transactions', txs);
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ accepted: 3 });
    const rows = await t.database.query<{ volume_l: string | number; amount: string | number }>(
      'select volume_l, amount from transactions where terminal_id = $1 order by id desc limit 3',
      [f.plainTerminalId],
    );
    expect(rows.map((r) => [Number(r.volume_l), Number(r.amount)]).reverse()).toEqual(
      txs.map((x) => [x.volume_l, x.amount]),
    );
  });

  it('pump status reports are stored and set last_synapse_status', async () => {
    const pumpNo = f.offPump.pumpNo;
    await t.database.query('update pumps set status = 0, last_synapse_status = 0 where id = $1', [
      f.offPump.id,
    ]);
    const res = await device(ctl, 'POST', 'pumps/status', {
      pump_no: pumpNo,
      status: 1,
      code: 4000,
      text: 'Normal',
    });
    expect(res.statusCode).toBe(202);
    const [pump] = await t.database.query('select status, last_synapse_status from pumps where id = $1', [
      f.offPump.id,
    ]);
    // Nothing pending: the requested status follows what the pump reports.
    expect(pump).toEqual({ status: 1, last_synapse_status: 1 });
    const [entry] = await t.database.query<Record<string, unknown>>(
      'select reported_status, code, text from pump_status_entries where pump_id = $1 order by id desc limit 1',
      [f.offPump.id],
    );
    expect(entry).toEqual({ reported_status: 1, code: 4000, text: 'Normal' });

    // With a command pending the request stands: the report only records what the pump says.
    const turn = TurnPumpResponseSchema.parse(
      (await t.as(agent, { method: 'POST', url: `/api/pump/${f.offPump.id}/turn/off/` })).json(),
    );
    await device(ctl, 'POST', 'pumps/status', [{ pump_no: pumpNo, status: 1, code: 4000, text: 'Normal' }]);
    expect(
      (
        await t.database.query('select status, last_synapse_status from pumps where id = $1', [f.offPump.id])
      )[0],
    ).toEqual({ status: 0, last_synapse_status: 1 });
    await device(ctl, 'GET', 'commands');
    await device(ctl, 'POST', `commands/${turn.command_id}/ack`, { result: 'ok' });
  });

  it('wakes a waiting long-poll as soon as a command is queued for its terminal', async () => {
    await t.database.query('update pumps set status = 0, last_synapse_status = 0 where id = $1', [
      f.offPump.id,
    ]);
    const waiting = t.app.commands.waiting();
    const poll = device(ctl, 'GET', 'commands?wait=30');
    await expect.poll(() => t.app.commands.waiting(), { timeout: 5_000 }).toBe(waiting + 1);
    // A command for another terminal does not release it.
    await t.as(agent, {
      method: 'POST',
      url: `/api/terminal/${f.plainTerminalId}/reboot/`,
      payload: { reboot_type: 'software' },
    });
    expect(t.app.commands.waiting()).toBe(waiting + 1);
    const turn = TurnPumpResponseSchema.parse(
      (await t.as(agent, { method: 'POST', url: `/api/pump/${f.offPump.id}/turn/on/` })).json(),
    );
    const res = await poll;
    expect(res.statusCode).toBe(200);
    expect(
      z
        .array(DeviceCommandSchema)
        .parse(res.json())
        .map((c) => c.id),
    ).toEqual([turn.command_id]);
    expect(t.app.commands.waiting()).toBe(waiting);
    await device(ctl, 'POST', `commands/${turn.command_id}/ack`, { result: 'ok' });
    // The plain terminal's reboot is fetched once only.
    const rebooted = z.array(DeviceCommandSchema).parse((await device(plain, 'GET', 'commands')).json());
    expect(rebooted).toHaveLength(1);
    expect((await device(plain, 'GET', 'commands')).json()).toEqual([]);
    await device(plain, 'POST', `commands/${rebooted[0].id}/ack`, { result: 'ok' });
    // A 30 s wait inside a 20 s test: it passes only when the queued command woke the long-poll.
  }, 20_000);

  it('answers an empty list when nothing comes, and checks wait', async () => {
    const res = await device(ctl, 'GET', 'commands?wait=1');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
    for (const wait of ['31', '-1', 'soon', '1.5']) {
      const bad = await device(ctl, 'GET', `commands?wait=${wait}`);
      expect(bad.statusCode, wait).toBe(400);
      expect(ErrorBodySchema.parse(bad.json()).data.errors.join(' ')).toContain('wait');
    }
  });

  it('acknowledges once: repeated and concurrent acks answer the same and change nothing', async () => {
    const reboot = (
      await t.as(agent, {
        method: 'POST',
        url: `/api/terminal/${f.plainTerminalId}/reboot/`,
        payload: { reboot_type: 'full' },
      })
    ).json().command.id as number;
    await device(plain, 'GET', 'commands');
    const acks = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        device(plain, 'POST', `commands/${reboot}/ack`, { result: i % 2 ? 'failed' : 'ok' }),
      ),
    );
    const bodies = acks.map((r) => CommandAckResponseSchema.parse(r.json()));
    expect(new Set(bodies.map((b) => b.state)).size).toBe(1);
    expect(acks.every((r) => r.statusCode === 200)).toBe(true);
    const final = bodies[0].state;
    const repeat = await device(plain, 'POST', `commands/${reboot}/ack`, { result: 'ok' });
    expect(repeat.json()).toEqual({ id: reboot, state: final });
    const events = await t.database.query<{ state: string }>(
      'select state from command_events where command_id = $1 order by id',
      [reboot],
    );
    expect(events.map((e) => e.state)).toEqual(['queued', 'sent', final]);
  });

  it('answers 404 for another terminal’s command or a bad id, 400 for a bad result', async () => {
    const reboot = (
      await t.as(agent, {
        method: 'POST',
        url: `/api/terminal/${f.plainTerminalId}/reboot/`,
        payload: { reboot_type: 'software' },
      })
    ).json().command.id as number;
    const other = await device(ctl, 'POST', `commands/${reboot}/ack`, { result: 'ok' });
    expect(other.statusCode).toBe(404);
    ErrorBodySchema.parse(other.json());
    expect((await device(ctl, 'POST', 'commands/abc/ack', { result: 'ok' })).statusCode).toBe(404);
    expect((await device(ctl, 'POST', 'commands/99999999/ack', { result: 'ok' })).statusCode).toBe(404);
    const bad = await device(plain, 'POST', `commands/${reboot}/ack`, { result: 'done' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().data.errors.join(' ')).toContain("result must be 'ok' or 'failed'");
    expect((await t.app.repos.commands.get(reboot))!.state).toBe('queued');
  });

  it('never answers 500 to fuzzed bodies', async () => {
    let seed = 42;
    const rnd = () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed / 0x7fffffff;
    };
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)];
    const keys = [...DEVICE_FIELDS, '__proto__', 'constructor', ''];
    const value = (depth: number): unknown => {
      switch (Math.floor(rnd() * 12)) {
        case 0:
          return null;
        case 1:
          return pick([0, 1, -1, 4000, 1e308, -1e308, 2 ** 31, 0.5, 99, 100, 101]);
        case 2:
          return pick([
            '',
            'x',
            '2024-05-01T12:00:00Z',
            '0000-01-01T00:00:00Z',
            '9999-12-31T23:59:59Z',
            'ok',
            '\u0000',
            'a'.repeat(600),
          ]);
        case 3:
          return rnd() < 0.5;
        case 4:
          return depth > 2 ? 1 : Array.from({ length: Math.floor(rnd() * 3) }, () => value(depth + 1));
        case 5:
          return depth > 2 ? {} : obj(depth + 1);
        default:
          return rnd() * 200 - 50;
      }
    };
    const obj = (depth: number) => {
      const o: Record<string, unknown> = {};
      const n = Math.floor(rnd() * 5);
      for (let i = 0; i < n; i++) o[pick(keys)] = value(depth);
      return o;
    };
    const urls = ['telemetry', 'events', 'shocks', 'transactions', 'pumps/status', 'commands/1/ack'];
    for (let i = 0; i < 300; i++) {
      const url = pick(urls);
      const body = rnd() < 0.3 ? Array.from({ length: Math.floor(rnd() * 4) }, () => obj(0)) : value(0);
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/device/v1/${url}`,
        headers: { authorization: `Device ${plain}`, 'content-type': 'application/json' },
        payload: JSON.stringify(body),
      });
      expect(res.statusCode, `${url} ${JSON.stringify(body).slice(0, 300)}`).toBeLessThan(500);
      if (res.statusCode >= 400) ErrorBodySchema.parse(res.json());
    }
    for (const raw of ['{', 'nope', '[1,', '"str"', '']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/device/v1/telemetry',
        headers: { authorization: `Device ${plain}`, 'content-type': 'application/json' },
        payload: raw,
      });
      expect(res.statusCode, raw).toBe(400);
    }
  });
});

describe.skipIf(postgresUnavailable)('device token rotation', () => {
  let t: TestApp;
  let f: FleetFixture;
  let agent: string;

  const device = (token: string, method: Method, url: string, payload?: unknown) =>
    deviceCall(t, token, method, url, payload);
  const provision = (terminalId: number) => provisionDevice(t, agent, terminalId);
  /** Starts a long-poll with `token`; resolves, once the server holds it, with its pending answer. */
  const waitingPoll = async (token: string) => {
    const before = t.app.commands.waiting();
    const answer = device(token, 'GET', 'commands?wait=30');
    await expect.poll(() => t.app.commands.waiting(), { timeout: 5_000 }).toBe(before + 1);
    return { answer };
  };

  beforeAll(async () => {
    t = await buildTestApp();
    f = await fleetFixture(t.database);
    await settleCommands(t.database);
    agent = await t.login('agent');
  });
  afterAll(async () => t?.close());

  it('rotation ends a long-poll already waiting with the old token: 401, and the new token gets the command', async () => {
    const terminal = f.plainTerminalId;
    const old = await provision(terminal);
    const poll = (await waitingPoll(old)).answer;
    const fresh = await provision(terminal);
    const res = await poll;
    expect(res.statusCode).toBe(401);
    expect(ErrorBodySchema.parse(res.json()).data.errors).toEqual([
      'This device token is no longer valid: it was rotated.',
    ]);

    const reboot = await t.as(agent, {
      method: 'POST',
      url: `/api/terminal/${terminal}/reboot/`,
      payload: { reboot_type: 'software' },
    });
    expect(reboot.statusCode).toBe(202);
    expect((await device(old, 'GET', 'commands')).statusCode).toBe(401);
    const fetched = z.array(DeviceCommandSchema).parse((await device(fresh, 'GET', 'commands')).json());
    expect(fetched.map((c) => c.kind)).toEqual(['reboot']);
    await device(fresh, 'POST', `commands/${fetched[0].id}/ack`, { result: 'ok' });
    // A 30 s wait inside a 20 s test: it passes only when the rotation ended the long-poll.
  }, 20_000);

  it('retiring a token (decommissioning) ends its waiting long-poll and every later call with 401', async () => {
    const terminal = f.otherCompanySite.terminalId;
    const token = await provision(terminal);
    const poll = (await waitingPoll(token)).answer;
    await t.app.deviceTokens.retire(terminal);
    expect((await poll).statusCode).toBe(401);
    expect((await device(token, 'GET', 'me')).statusCode).toBe(401);
    expect((await device(token, 'POST', 'telemetry', { battery_life: 50 })).statusCode).toBe(401);
  }, 20_000);

  it('a long-poll whose token was rotated elsewhere (another node) is never handed a command', async () => {
    const pump = f.companySite.pump;
    await t.database.query('update pumps set status = 0, last_synapse_status = 0 where id = $1', [pump.id]);
    const old = await provision(pump.terminalId);
    const poll = (await waitingPoll(old)).answer;
    // Another node rotates the token: this node's cache and waiters know nothing of it.
    const fresh = `fcd_${randomBytes(32).toString('base64url')}`;
    await t.database.query('update device_tokens set token_hash = $2 where terminal_id = $1', [
      pump.terminalId,
      hashDeviceToken(fresh),
    ]);
    const turn = TurnPumpResponseSchema.parse(
      (await t.as(agent, { method: 'POST', url: `/api/pump/${pump.id}/turn/on/` })).json(),
    );
    const res = await poll;
    expect(res.statusCode).toBe(401);
    const fetched = z.array(DeviceCommandSchema).parse((await device(fresh, 'GET', 'commands')).json());
    expect(fetched.map((c) => c.id)).toEqual([turn.command_id]);
    await device(fresh, 'POST', `commands/${turn.command_id}/ack`, { result: 'ok' });
  }, 20_000);
});

describe.skipIf(postgresUnavailable)('device API shutdown', () => {
  it('releases waiting long-polls when the server closes', async () => {
    const t = await buildTestApp();
    const f = await fleetFixture(t.database);
    const agent = await t.login('agent');
    const token = DeviceTokenResponseSchema.parse(
      (await t.as(agent, { method: 'POST', url: `/api/terminal/${f.plainTerminalId}/device-token/` })).json(),
    ).token;
    await t.app.inject({
      method: 'GET',
      url: '/api/device/v1/commands',
      headers: { authorization: `Device ${token}` },
    });
    const poll = t.app.inject({
      method: 'GET',
      url: '/api/device/v1/commands?wait=30',
      headers: { authorization: `Device ${token}` },
    });
    await expect.poll(() => t.app.commands.waiting(), { timeout: 5_000 }).toBe(1);
    await t.close();
    const res = await poll;
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
    // A 30 s wait inside a 20 s test: it passes only when closing the server released the long-poll.
  }, 20_000);
});
