import { ErrorBodySchema } from '@forecourt/contract/common';
import { TurnPumpResponseSchema } from '@forecourt/contract/pumps';
import { RebootAcceptedSchema } from '@forecourt/contract/terminals';
import { TicketResponseSchema } from '@forecourt/contract/tickets';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FleetFixture, fleetFixture, settleCommands } from './fleet-fixture.ts';
import { buildTestApp, postgresUnavailable, type TestApp } from './helper.ts';

describe.skipIf(postgresUnavailable)('actions safe to retry (Idempotency-Key)', () => {
  let t: TestApp;
  let f: FleetFixture;
  let agent: string;
  let site: string;

  beforeAll(async () => {
    t = await buildTestApp();
    f = await fleetFixture(t.database);
    await settleCommands(t.database);
    [agent, site] = await Promise.all([t.login('agent'), t.login('site')]);
  });
  afterAll(async () => t?.close());

  const post = (token: string, url: string, key: string | null, payload?: object) =>
    t.as(token, {
      method: 'POST',
      url,
      ...(key === null ? {} : { headers: { 'idempotency-key': key } }),
      ...(payload === undefined ? {} : { payload }),
    });
  const count = async (sql: string, params: unknown[]) =>
    (await t.database.query<{ n: number }>(sql, params))[0].n;
  const commandsOf = (terminalId: number) =>
    count(`select count(*)::int as n from commands where terminal_id = $1`, [terminalId]);

  it('a retried reboot answers the first answer and reboots once', async () => {
    const url = `/api/terminal/${f.plainTerminalId}/reboot/`;
    const before = await commandsOf(f.plainTerminalId);
    const first = await post(agent, url, 'reboot-retry-1', { reboot_type: 'full' });
    expect(first.statusCode).toBe(202);
    const command = RebootAcceptedSchema.parse(first.json()).command;
    for (let i = 0; i < 2; i++) {
      const retry = await post(agent, url, 'reboot-retry-1', { reboot_type: 'full' });
      expect(retry.statusCode).toBe(202);
      expect(retry.headers['idempotent-replayed']).toBe('true');
      expect(retry.json()).toEqual(first.json());
    }
    expect(await commandsOf(f.plainTerminalId)).toBe(before + 1);

    // Without the key (or with a new one) a second reboot is refused while the first is pending.
    for (const key of [null, 'reboot-retry-2']) {
      const again = await post(agent, url, key, { reboot_type: 'full' });
      expect(again.statusCode).toBe(409);
      const err = ErrorBodySchema.parse(again.json());
      expect(err.error).toBe(true);
      expect(err.error_text).toBe(`Terminal ${command.terminal_number} has a reboot pending`);
    }
    expect(await commandsOf(f.plainTerminalId)).toBe(before + 1);
    await t.database.query(`update commands set state = 'expired' where id = $1`, [command.id]);
  });

  it('the same key with a different request answers 422 and does nothing', async () => {
    const url = `/api/terminal/${f.plainTerminalId}/reboot/`;
    const first = await post(agent, url, 'reboot-mismatch', { reboot_type: 'software' });
    expect(first.statusCode).toBe(202);
    const before = await commandsOf(f.plainTerminalId);
    const other = await post(agent, url, 'reboot-mismatch', { reboot_type: 'full' });
    expect(other.statusCode).toBe(422);
    const err = ErrorBodySchema.parse(other.json());
    expect(err.error).toBe(true);
    expect(err.error_text).toBe(
      'This Idempotency-Key was already used for a different request: use a new key.',
    );
    const pump = await post(agent, `/api/pump/${f.offPump.id}/turn/on/`, 'reboot-mismatch');
    expect(pump.statusCode).toBe(422);
    expect(await commandsOf(f.plainTerminalId)).toBe(before);
    await t.database.query(`update commands set state = 'expired' where id = $1`, [
      RebootAcceptedSchema.parse(first.json()).command.id,
    ]);
  });

  it('a retried pump switch answers the first 200 again, not 409, and queues one command', async () => {
    await t.database.query('update pumps set status = 0, last_synapse_status = 0 where id = $1', [
      f.offPump.id,
    ]);
    const url = `/api/pump/${f.offPump.id}/turn/on/`;
    const before = await commandsOf(f.offPump.terminalId);
    const first = await post(site, url, 'pump-on-1');
    expect(first.statusCode).toBe(200);
    const body = TurnPumpResponseSchema.parse(first.json());
    expect(body.error).toBe(false);
    const retry = await post(site, url, 'pump-on-1');
    expect(retry.statusCode).toBe(200);
    expect(TurnPumpResponseSchema.parse(retry.json())).toEqual(body);
    expect(await commandsOf(f.offPump.terminalId)).toBe(before + 1);
    // A new request (no key) is a new action: the pump is pending, so 409.
    expect((await post(site, url, null)).statusCode).toBe(409);

    // Keys are per user: the agent's same key is its own request.
    const agentTry = await post(agent, `/api/pump/${f.onPump.id}/turn/off/`, 'pump-on-1');
    expect(agentTry.statusCode).toBe(200);
    expect(agentTry.headers['idempotent-replayed']).toBeUndefined();
    await t.database.query(`update commands set state = 'expired' where state in ('queued', 'sent')`);
    await t.database.query('update pumps set status = last_synapse_status where id = any($1::int[])', [
      [f.offPump.id, f.onPump.id],
    ]);
  });

  it('concurrent requests with one key act once: each gets the first answer or a 409 to retry', async () => {
    const url = `/api/terminal/${f.companySite.terminalId}/reboot/`;
    const before = await commandsOf(f.companySite.terminalId);
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => post(agent, url, 'reboot-concurrent', { reboot_type: 'software' })),
    );
    const accepted = answers.filter((r) => r.statusCode === 202);
    expect(accepted.length).toBeGreaterThanOrEqual(1);
    const ids = new Set(accepted.map((r) => RebootAcceptedSchema.parse(r.json()).command.id));
    expect(ids.size).toBe(1);
    for (const r of answers.filter((a) => a.statusCode !== 202)) {
      expect(r.statusCode).toBe(409);
      expect(ErrorBodySchema.parse(r.json()).error_text).toBe(
        'A request with this Idempotency-Key is still being handled: retry in a moment.',
      );
    }
    expect(await commandsOf(f.companySite.terminalId)).toBe(before + 1);
    const retry = await post(agent, url, 'reboot-concurrent', { reboot_type: 'software' });
    expect(retry.statusCode).toBe(202);
    expect(RebootAcceptedSchema.parse(retry.json()).command.id).toBe([...ids][0]);
    await t.database.query(`update commands set state = 'expired' where id = $1`, [[...ids][0]]);
  });

  it('a retried ticket is stored once', async () => {
    const url = '/api/zendesk/ticket/';
    const payload = { subject: 'Pump 2 jammed', body: 'Since 9am.' };
    const tickets = () =>
      count(`select count(*)::int as n from tickets where subject = $1`, [payload.subject]);
    const first = await post(site, url, 'ticket-1', payload);
    expect(first.statusCode).toBe(200);
    const retry = await post(site, url, 'ticket-1', { body: payload.body, subject: payload.subject });
    expect(retry.statusCode).toBe(200);
    expect(TicketResponseSchema.parse(retry.json()).ticket_id).toBe(
      TicketResponseSchema.parse(first.json()).ticket_id,
    );
    expect(await tickets()).toBe(1);
  });

  it('keeps keys in the database for 24 hours, then forgets them', async () => {
    const url = '/api/zendesk/ticket/';
    const payload = { subject: 'Old key', body: 'Kept a day.' };
    const first = TicketResponseSchema.parse((await post(site, url, 'ticket-old', payload)).json());
    const [row] = await t.database.query<{ user_id: number; status: number; body: string }>(
      `select user_id, status, body from idempotency_keys where key = 'ticket-old'`,
    );
    const [user] = await t.database.query<{ id: number }>("select id from users where username = 'site'");
    expect(row).toMatchObject({ user_id: user.id, status: 200 });
    expect(JSON.parse(row.body)).toEqual(first);

    await t.database.query(
      `update idempotency_keys set created_at = now() - interval '25 hours' where key = 'ticket-old'`,
    );
    expect(await t.app.repos.idempotency.prune()).toBeGreaterThanOrEqual(1);
    const later = TicketResponseSchema.parse((await post(site, url, 'ticket-old', payload)).json());
    expect(later.ticket_id).not.toBe(first.ticket_id);
  });

  it('answers 400 naming the header for a bad key, and 401 before looking at it', async () => {
    const url = `/api/pump/${f.offPump.id}/turn/on/`;
    for (const key of ['', 'x'.repeat(256), 'has space']) {
      const res = await post(site, url, key);
      expect(res.statusCode, JSON.stringify(key)).toBe(400);
      expect(ErrorBodySchema.parse(res.json()).data.errors).toEqual([
        'Idempotency-Key must be one value of 1 to 255 visible ASCII characters.',
      ]);
    }
    const anonymous = await t.app.inject({ method: 'POST', url, headers: { 'idempotency-key': 'k' } });
    expect(anonymous.statusCode).toBe(401);
  });
});
