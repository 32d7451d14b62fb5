import { createHash } from 'node:crypto';
import { ErrorBodySchema } from '@forecourt/contract/common';
import { CommandAckResponseSchema, DeviceCommandSchema } from '@forecourt/contract/device';
import { PumpActivationLogRowSchema, RebootLogEntrySchema } from '@forecourt/contract/logs';
import { TurnPumpResponseSchema } from '@forecourt/contract/pumps';
import {
  CommandListSchema,
  CommandSchema,
  DeviceTokenResponseSchema,
  RebootAcceptedSchema,
} from '@forecourt/contract/terminals';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type FleetFixture, fleetFixture, settleCommands } from './fleet-fixture.ts';
import { buildTestApp, postgresUnavailable, type TestApp } from './helper.ts';

describe.skipIf(postgresUnavailable)('pump and reboot commands', () => {
  let t: TestApp;
  let f: FleetFixture;
  let agent: string;
  let company: string;
  let site: string;

  beforeAll(async () => {
    t = await buildTestApp();
    f = await fleetFixture(t.database);
    await settleCommands(t.database);
    [agent, company, site] = await Promise.all([t.login('agent'), t.login('company'), t.login('site')]);
  });
  afterAll(async () => t?.close());

  const pumpRow = async (id: number) =>
    (
      await t.database.query<{ status: number; last_synapse_status: number }>(
        'select status, last_synapse_status from pumps where id = $1',
        [id],
      )
    )[0];

  async function deviceToken(terminalId: number): Promise<string> {
    const res = await t.as(agent, { method: 'POST', url: `/api/terminal/${terminalId}/device-token/` });
    expect(res.statusCode).toBe(200);
    return DeviceTokenResponseSchema.parse(res.json()).token;
  }
  const device = (token: string, opts: { method: 'GET' | 'POST'; url: string; payload?: unknown }) =>
    t.app.inject({
      method: opts.method,
      url: `/api/device/v1/${opts.url}`,
      headers: { authorization: `Device ${token}` },
      ...(opts.payload === undefined ? {} : { payload: opts.payload as object }),
    });

  it('turns an off pump on: 200, pending until the device confirms, then on', async () => {
    const url = `/api/pump/${f.offPump.id}/turn/on/`;
    const res = await t.as(site, { method: 'POST', url });
    expect(res.statusCode).toBe(200);
    const body = TurnPumpResponseSchema.parse(res.json());
    expect(body.error).toBe(false);
    expect(body.error_text).toBe('');
    expect(body.pump).toMatchObject({
      id: f.offPump.id,
      pump_no: f.offPump.pumpNo,
      status: 1,
      last_synapse_status: 0,
    });
    expect(body.command_id).toBeGreaterThan(0);
    expect(await pumpRow(f.offPump.id)).toEqual({ status: 1, last_synapse_status: 0 });

    // Pending: neither another on nor an off is accepted.
    for (const word of ['on', 'off']) {
      const again = await t.as(agent, { method: 'POST', url: `/api/pump/${f.offPump.id}/turn/${word}/` });
      expect(again.statusCode).toBe(409);
      const err = ErrorBodySchema.parse(again.json());
      expect(err.error).toBe(true);
      expect(err.error_text).toBe(`Pump ${f.offPump.pumpNo} has a command pending`);
      expect(err.data.errors).toEqual([err.error_text]);
    }

    // The controller terminal fetches it: sent, and still unconfirmed.
    const token = await deviceToken(f.controllerId);
    const fetched = await device(token, { method: 'GET', url: 'commands' });
    expect(fetched.statusCode).toBe(200);
    const cmds = z.array(DeviceCommandSchema).parse(fetched.json());
    expect(cmds).toEqual([
      { id: body.command_id, kind: 'pump_on', pump_no: f.offPump.pumpNo, created_at: expect.any(String) },
    ]);
    expect(await pumpRow(f.offPump.id)).toEqual({ status: 1, last_synapse_status: 0 });

    const ack = await device(token, {
      method: 'POST',
      url: `commands/${body.command_id}/ack`,
      payload: { result: 'ok' },
    });
    expect(ack.statusCode).toBe(200);
    expect(CommandAckResponseSchema.parse(ack.json())).toEqual({ id: body.command_id, state: 'confirmed' });
    expect(await pumpRow(f.offPump.id)).toEqual({ status: 1, last_synapse_status: 1 });

    const cmd = await t.as(site, { method: 'GET', url: `/api/command/${body.command_id}/` });
    expect(cmd.statusCode).toBe(200);
    const command = CommandSchema.parse(cmd.json());
    expect(command).toMatchObject({
      kind: 'pump_on',
      state: 'confirmed',
      pump_id: f.offPump.id,
      terminal_id: f.controllerId,
      requested_by: 'Sam Site',
    });
    expect(command.history.map((h) => h.state)).toEqual(['queued', 'sent', 'confirmed']);
    const activation = z
      .array(PumpActivationLogRowSchema)
      .parse((await t.as(site, { method: 'GET', url: `/api/site/${f.siteId}/pump/activation/log/` })).json());
    expect(activation.find((r) => r.id === body.command_id)).toMatchObject({
      kind: 'pump_on',
      state: 'confirmed',
    });

    // Now on: turning on again is a conflict, turning off works.
    const already = await t.as(agent, { method: 'POST', url });
    expect(already.statusCode).toBe(409);
    expect(ErrorBodySchema.parse(already.json()).error_text).toBe(`Pump ${f.offPump.pumpNo} is already on`);
  });

  it('refuses to turn off a pump that is already off, and on one already on', async () => {
    await t.database.query('update pumps set status = 0, last_synapse_status = 0 where id = $1', [
      f.companySite.pump.id,
    ]);
    const res = await t.as(agent, { method: 'POST', url: `/api/pump/${f.companySite.pump.id}/turn/off/` });
    expect(res.statusCode).toBe(409);
    expect(ErrorBodySchema.parse(res.json())).toMatchObject({
      error: true,
      error_text: `Pump ${f.companySite.pump.pumpNo} is already off`,
    });
    const on = await t.as(agent, { method: 'POST', url: `/api/pump/${f.onPump.id}/turn/on/` });
    expect(on.statusCode).toBe(409);
    expect(ErrorBodySchema.parse(on.json()).error_text).toBe(`Pump ${f.onPump.pumpNo} is already on`);
  });

  it('a failed ack ends pending: the pump returns to its confirmed state', async () => {
    const res = await t.as(company, { method: 'POST', url: `/api/pump/${f.onPump.id}/turn/off/` });
    expect(res.statusCode).toBe(200);
    const { command_id } = TurnPumpResponseSchema.parse(res.json());
    expect(await pumpRow(f.onPump.id)).toEqual({ status: 0, last_synapse_status: 1 });
    const token = await deviceToken(f.controllerId);
    await device(token, { method: 'GET', url: 'commands' });
    const ack = await device(token, {
      method: 'POST',
      url: `commands/${command_id}/ack`,
      payload: { result: 'failed', detail: 'relay stuck' },
    });
    expect(ack.json()).toEqual({ id: command_id, state: 'failed' });
    expect(await pumpRow(f.onPump.id)).toEqual({ status: 1, last_synapse_status: 1 });
    const cmd = CommandSchema.parse(
      (await t.as(company, { method: 'GET', url: `/api/command/${command_id}/` })).json(),
    );
    expect(cmd.state).toBe('failed');
    expect(cmd.detail).toBe('relay stuck');
    expect(cmd.requested_by).toBe('Casey Company');
  });

  it('reboots: 202 with the queued command, listed in the terminal timeline', async () => {
    const res = await t.as(agent, {
      method: 'POST',
      url: `/api/terminal/${f.plainTerminalId}/reboot/`,
      payload: { reboot_type: 'full' },
    });
    expect(res.statusCode).toBe(202);
    const body = RebootAcceptedSchema.parse(res.json());
    expect(body).toMatchObject({ error: false, error_text: '' });
    expect(body.command).toMatchObject({
      kind: 'reboot',
      reboot_type: 'full',
      state: 'queued',
      terminal_id: f.plainTerminalId,
      requested_by: 'Alex Agent',
    });
    const list = await t.as(site, {
      method: 'GET',
      url: `/api/terminal/${f.plainTerminalId}/commands/?kind=reboot`,
    });
    expect(list.statusCode).toBe(200);
    const commands = CommandListSchema.parse(list.json());
    expect(commands[0].id).toBe(body.command.id);
    expect(commands.every((c) => c.kind === 'reboot')).toBe(true);

    const log = await t.as(site, { method: 'GET', url: `/api/site/${f.siteId}/reboot/log/` });
    expect(log.statusCode).toBe(200);
    const rebootLog = z.array(RebootLogEntrySchema).parse(log.json());
    expect(rebootLog.find((r) => r.id === body.command.id)).toMatchObject({
      reboot_type: 'full',
      state: 'queued',
    });

    const token = await deviceToken(f.plainTerminalId);
    const fetched = z
      .array(DeviceCommandSchema)
      .parse((await device(token, { method: 'GET', url: 'commands' })).json());
    expect(fetched).toEqual([
      { id: body.command.id, kind: 'reboot', reboot_type: 'full', created_at: body.command.created_at },
    ]);
    await device(token, {
      method: 'POST',
      url: `commands/${body.command.id}/ack`,
      payload: { result: 'ok' },
    });
  });

  it('refuses a second reboot while one is queued or sent: 409 with error_text, nothing queued', async () => {
    const url = `/api/terminal/${f.plainTerminalId}/reboot/`;
    const first = await t.as(agent, { method: 'POST', url, payload: { reboot_type: 'software' } });
    expect(first.statusCode).toBe(202);
    const queued = RebootAcceptedSchema.parse(first.json()).command;
    const count = async () =>
      (
        await t.database.query<{ n: number }>(
          `select count(*)::int as n from commands where terminal_id = $1 and kind = 'reboot'`,
          [f.plainTerminalId],
        )
      )[0].n;
    const before = await count();
    const token = await deviceToken(f.plainTerminalId);
    for (const stage of ['queued', 'sent']) {
      if (stage === 'sent') await device(token, { method: 'GET', url: 'commands' });
      const again = await t.as(site, { method: 'POST', url, payload: { reboot_type: 'full' } });
      expect(again.statusCode, stage).toBe(409);
      const err = ErrorBodySchema.parse(again.json());
      expect(err.error).toBe(true);
      expect(err.error_text).toBe(`Terminal ${queued.terminal_number} has a reboot pending`);
      expect(err.data.errors).toEqual([err.error_text]);
    }
    expect(await count()).toBe(before);
    await device(token, { method: 'POST', url: `commands/${queued.id}/ack`, payload: { result: 'ok' } });
    const after = await t.as(agent, { method: 'POST', url, payload: { reboot_type: 'full' } });
    expect(after.statusCode).toBe(202);
    await t.database.query(`update commands set state = 'expired' where id = $1`, [
      RebootAcceptedSchema.parse(after.json()).command.id,
    ]);
  });

  it('answers 400 naming reboot_type for a bad or missing type', async () => {
    for (const payload of [{ reboot_type: 'hard' }, {}, { reboot_type: 3 }]) {
      const res = await t.as(agent, {
        method: 'POST',
        url: `/api/terminal/${f.plainTerminalId}/reboot/`,
        payload,
      });
      expect(res.statusCode).toBe(400);
      expect(ErrorBodySchema.parse(res.json()).data.errors.join(' ')).toContain('reboot_type');
    }
  });

  it('takes reboot_type as a query parameter too, as the older client sends it', async () => {
    const res = await t.as(agent, {
      method: 'POST',
      url: `/api/terminal/${f.plainTerminalId}/reboot/?reboot_type=software`,
    });
    expect(res.statusCode).toBe(202);
    expect(RebootAcceptedSchema.parse(res.json()).command.reboot_type).toBe('software');
    const none = await t.as(agent, { method: 'POST', url: `/api/terminal/${f.plainTerminalId}/reboot/` });
    expect(none.statusCode).toBe(400);
    expect(ErrorBodySchema.parse(none.json()).data.errors).toEqual([
      "reboot_type must be 'software' or 'full'",
    ]);
  });

  it('checks the caller before the body: 401 without a token, 403 outside scope, whatever the body', async () => {
    const url = `/api/terminal/${f.companySite.terminalId}/reboot/`;
    expect((await t.app.inject({ method: 'POST', url, payload: { reboot_type: 'x' } })).statusCode).toBe(401);
    expect((await t.as(site, { method: 'POST', url })).statusCode).toBe(403);
    expect((await t.as(site, { method: 'POST', url, payload: { reboot_type: 'x' } })).statusCode).toBe(403);
    const list = `/api/pump/${f.companySite.pump.id}/commands/?limit_to=banana`;
    expect((await t.as(site, { method: 'GET', url: list })).statusCode).toBe(403);
  });

  it('lists a pump’s commands newest first with history, paged by id', async () => {
    const res = await t.as(site, { method: 'GET', url: `/api/pump/${f.offPump.id}/commands/?limit_to=1` });
    expect(res.statusCode).toBe(200);
    const [latest] = CommandListSchema.parse(res.json());
    expect(latest.pump_id).toBe(f.offPump.id);
    expect(latest.history[0].state).toBe('queued');
    const older = CommandListSchema.parse(
      (
        await t.as(site, { method: 'GET', url: `/api/pump/${f.offPump.id}/commands/?before=${latest.id}` })
      ).json(),
    );
    expect(older.every((c) => c.id < latest.id)).toBe(true);
    const bad = await t.as(site, { method: 'GET', url: `/api/pump/${f.offPump.id}/commands/?limit_to=0` });
    expect(bad.statusCode).toBe(400);
  });

  it('expires a command never fetched and times out one never acknowledged; pumps leave pending', async () => {
    const pump = f.otherCompanySite.pump;
    await t.database.query('update pumps set status = 0, last_synapse_status = 0 where id = $1', [pump.id]);
    const res = await t.as(agent, { method: 'POST', url: `/api/pump/${pump.id}/turn/on/` });
    const { command_id } = TurnPumpResponseSchema.parse(res.json());

    expect((await t.app.commands.sweep(new Date(Date.now() + 60_000))).map((s) => s.id)).not.toContain(
      command_id,
    );
    const swept = await t.app.commands.sweep(new Date(Date.now() + 6 * 60_000));
    expect(swept.map((s) => [s.id, s.state])).toContainEqual([command_id, 'expired']);
    expect(await pumpRow(pump.id)).toEqual({ status: 0, last_synapse_status: 0 });

    // A reboot fetched but never acknowledged times out after its 120 s.
    const reboot = RebootAcceptedSchema.parse(
      (
        await t.as(agent, {
          method: 'POST',
          url: `/api/terminal/${f.otherCompanySite.terminalId}/reboot/`,
          payload: { reboot_type: 'software' },
        })
      ).json(),
    ).command;
    const token = await deviceToken(f.otherCompanySite.terminalId);
    await device(token, { method: 'GET', url: 'commands' });
    expect((await t.app.commands.sweep(new Date(Date.now() + 100_000))).map((s) => s.id)).not.toContain(
      reboot.id,
    );
    const later = await t.app.commands.sweep(new Date(Date.now() + 125_000));
    expect(later.map((s) => [s.id, s.state])).toContainEqual([reboot.id, 'timed_out']);
    const cmd = CommandSchema.parse(
      (await t.as(agent, { method: 'GET', url: `/api/command/${reboot.id}/` })).json(),
    );
    expect(cmd.history.map((h) => h.state)).toEqual(['queued', 'sent', 'timed_out']);

    // A late ack changes nothing and is answered with the final state.
    const late = await device(token, {
      method: 'POST',
      url: `commands/${reboot.id}/ack`,
      payload: { result: 'ok' },
    });
    expect(late.json()).toEqual({ id: reboot.id, state: 'timed_out' });

    // A pump command fetched but not acknowledged within 60 s times out and the pump leaves pending.
    const turn = TurnPumpResponseSchema.parse(
      (await t.as(agent, { method: 'POST', url: `/api/pump/${pump.id}/turn/on/` })).json(),
    );
    const pumpToken = await deviceToken(pump.terminalId);
    await device(pumpToken, { method: 'GET', url: 'commands' });
    expect((await t.app.commands.sweep(new Date(Date.now() + 30_000))).map((s) => s.id)).not.toContain(
      turn.command_id,
    );
    const timedOut = await t.app.commands.sweep(new Date(Date.now() + 65_000));
    expect(timedOut.map((s) => [s.id, s.state])).toContainEqual([turn.command_id, 'timed_out']);
    expect(await pumpRow(pump.id)).toEqual({ status: 0, last_synapse_status: 0 });
  });

  it('provisions device tokens for agents only, stores them hashed, and rotation retires the old one', async () => {
    for (const token of [company, site]) {
      const res = await t.as(token, { method: 'POST', url: `/api/terminal/${f.controllerId}/device-token/` });
      expect(res.statusCode).toBe(403);
      ErrorBodySchema.parse(res.json());
    }
    const first = await deviceToken(f.controllerId);
    const stored = await t.database.query<{ token_hash: string }>(
      'select token_hash from device_tokens where terminal_id = $1',
      [f.controllerId],
    );
    expect(stored).toEqual([{ token_hash: createHash('sha256').update(first).digest('hex') }]);
    const all = await t.database.query<{ token_hash: string }>('select token_hash from device_tokens');
    expect(all.some((r) => r.token_hash.includes(first))).toBe(false);

    expect((await device(first, { method: 'GET', url: 'me' })).statusCode).toBe(200);
    const second = await deviceToken(f.controllerId);
    expect(second).not.toBe(first);
    const old = await device(first, { method: 'GET', url: 'me' });
    expect(old.statusCode).toBe(401);
    expect(ErrorBodySchema.parse(old.json()).data.errors).toEqual(['Unknown device token.']);
    const me = await device(second, { method: 'GET', url: 'me' });
    expect(me.statusCode).toBe(200);
    expect(me.json().terminal.id).toBe(f.controllerId);
    expect(me.json().pumps.map((p: { pump_no: number }) => p.pump_no)).toContain(f.offPump.pumpNo);
  });

  describe('scope', () => {
    const actions = (pumpId: number, terminalId: number) => [
      { method: 'POST' as const, url: `/api/pump/${pumpId}/turn/on/` },
      { method: 'POST' as const, url: `/api/pump/${pumpId}/turn/off/` },
      { method: 'GET' as const, url: `/api/pump/${pumpId}/commands/` },
      {
        method: 'POST' as const,
        url: `/api/terminal/${terminalId}/reboot/`,
        payload: { reboot_type: 'software' },
      },
      { method: 'GET' as const, url: `/api/terminal/${terminalId}/commands/` },
      { method: 'POST' as const, url: `/api/terminal/${terminalId}/device-token/` },
    ];

    it('answers 403 outside each role’s scope and leaves the pump untouched', async () => {
      const cases: [string, () => string, { pump: { id: number }; terminalId: number }][] = [
        ['agent', () => agent, { pump: f.outsider.pump, terminalId: f.outsider.terminalId }],
        ['company', () => company, f.otherCompanySite],
        ['site', () => site, f.companySite],
      ];
      for (const [who, token, place] of cases) {
        const before = await pumpRow(place.pump.id);
        for (const req of actions(place.pump.id, place.terminalId)) {
          const res = await t.as(token(), req);
          expect(res.statusCode, `${who} ${req.method} ${req.url}`).toBe(403);
          ErrorBodySchema.parse(res.json());
        }
        expect(await pumpRow(place.pump.id)).toEqual(before);
      }
    });

    it('reads a command only within scope', async () => {
      const reboot = RebootAcceptedSchema.parse(
        (
          await t.as(agent, {
            method: 'POST',
            url: `/api/terminal/${f.companySite.terminalId}/reboot/`,
            payload: { reboot_type: 'software' },
          })
        ).json(),
      ).command;
      expect((await t.as(company, { method: 'GET', url: `/api/command/${reboot.id}/` })).statusCode).toBe(
        200,
      );
      expect((await t.as(site, { method: 'GET', url: `/api/command/${reboot.id}/` })).statusCode).toBe(403);
      expect((await t.app.inject({ method: 'GET', url: `/api/command/${reboot.id}/` })).statusCode).toBe(401);
      expect((await t.as(agent, { method: 'GET', url: '/api/command/99999999/' })).statusCode).toBe(404);
      expect((await t.as(agent, { method: 'GET', url: '/api/command/abc/' })).statusCode).toBe(404);
    });

    it('answers 401 without a token and 404 for unknown or non-numeric ids', async () => {
      expect(
        (await t.app.inject({ method: 'POST', url: `/api/pump/${f.offPump.id}/turn/on/` })).statusCode,
      ).toBe(401);
      for (const url of [
        '/api/pump/99999999/turn/on/',
        '/api/pump/abc/turn/off/',
        '/api/terminal/x1/reboot/',
      ]) {
        const res = await t.as(agent, { method: 'POST', url, payload: { reboot_type: 'software' } });
        expect(res.statusCode, url).toBe(404);
        ErrorBodySchema.parse(res.json());
      }
    });
  });
});
