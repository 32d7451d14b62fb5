import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient } from './admin-client.ts';
import { buildTestApp, postgresUnavailable, type TestApp } from './helper.ts';
import { orgFixture } from './org-fixtures.ts';

/**
 * Moving a site to another company, or a terminal to another site, moves what happened there with it: the new
 * owner sees and acts on its alerts and commands, the old owner no longer reaches them (docs/decisions, the write
 * path record).
 */
describe.skipIf(postgresUnavailable)('moving a site or a terminal moves its history', () => {
  let t: TestApp;
  let agent: string;
  const { uniq, as, post, patch, get, newCompany, newTerminal, ...admin } = adminClient(
    () => t,
    () => agent,
  );
  // Sites and terminals of their own, told apart from the administration suite's.
  const newSite = (companyId: number) => admin.newSite(companyId, { title: 'Wetherby Road' });

  /** A company user of one company (the demo user's password), signed in. */
  async function companyUser(companyId: number) {
    const username = uniq('cu');
    const rows = await t.database.query<{ id: number }>(
      `insert into users (username, email, name, password_hash)
       select $1, $2, 'Move test', password_hash from users where username = 'company' returning id`,
      [username, `${username}@mail.example`],
    );
    await t.database.query('insert into user_companies (user_id, company_id) values ($1, $2)', [
      rows[0].id,
      companyId,
    ]);
    return t.login(username);
  }
  /** A terminal with a device token that reported an alert, and a reboot queued for it. */
  async function withHistory(terminalId: number) {
    const token = (await post(`/api/terminal/${terminalId}/device-token/`, undefined)).json().token as string;
    const sent = await t.app.inject({
      method: 'POST',
      url: '/api/device/v1/events',
      headers: { authorization: `Device ${token}` },
      payload: { event_type: 1, text: 'Card reader fault: no answer' },
    });
    expect(sent.statusCode, sent.body).toBe(202);
    const alert = await t.database.query<{ id: number }>(
      `select id from alerts where terminal_id = $1 and state = 'active' order by id desc limit 1`,
      [terminalId],
    );
    expect(alert.length).toBe(1);
    const reboot = await post(`/api/terminal/${terminalId}/reboot/`, { reboot_type: 'software' });
    expect(reboot.statusCode, reboot.body).toBe(202);
    return { alertId: Number(alert[0].id), commandId: reboot.json().command.id as number };
  }
  const bell = async (token: string, kind: string, id: number) => {
    const res = await get(`/api/alerts/${kind}/${id}/count/?state=active`, token);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().count as number;
  };
  const ack = (id: number, token: string) => post(`/api/alerts/${id}/ack/`, { note: 'seen' }, token);

  beforeAll(async () => {
    t = await buildTestApp();
    await orgFixture(t.database);
    agent = await t.login('agent');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a site moved to another company takes its alerts and commands: the new owner acts, the old one gets 403', async () => {
    const from = await newCompany();
    const to = await newCompany();
    const site = await newSite(from.id);
    const terminal = await newTerminal(site.id, { card_acceptor_name: 'WETHERBY RD' });
    const { alertId, commandId } = await withHistory(terminal.id);
    const oldUser = await companyUser(from.id);
    const newUser = await companyUser(to.id);
    expect(await bell(oldUser, 'company', from.id)).toBe(1);
    expect(await bell(newUser, 'company', to.id)).toBe(0);

    const moved = await patch(`/api/admin/sites/${site.id}/`, { company_id: to.id });
    expect(moved.statusCode, moved.body).toBe(200);

    expect((await get(`/api/command/${commandId}/`, oldUser)).statusCode).toBe(403);
    expect((await get(`/api/terminal/${terminal.id}/commands/`, oldUser)).statusCode).toBe(403);
    expect((await ack(alertId, oldUser)).statusCode).toBe(403);
    expect(await bell(oldUser, 'company', from.id)).toBe(0);

    expect(await bell(newUser, 'company', to.id)).toBe(1);
    const alerts = await get(`/api/alerts/company/${to.id}/?limit_to=10`, newUser);
    expect(alerts.json().map((a: { id: number }) => a.id)).toEqual([alertId]);
    expect((await get(`/api/command/${commandId}/`, newUser)).statusCode).toBe(200);
    const commands = await get(`/api/terminal/${terminal.id}/commands/`, newUser);
    expect(commands.statusCode).toBe(200);
    expect(commands.json().map((c: { id: number }) => c.id)).toContain(commandId);
    const acked = await ack(alertId, newUser);
    expect(acked.statusCode, acked.body).toBe(200);
    const reboots = await get(`/api/company/${to.id}/reboot/log/?limit_to=10`, newUser);
    expect(reboots.statusCode, reboots.body).toBe(200);
    expect(reboots.json().map((r: { id: number }) => r.id)).toContain(commandId);
  });

  it('a terminal moved to a site of another company takes its alerts and commands along', async () => {
    const from = await newCompany();
    const to = await newCompany();
    const oldSite = await newSite(from.id);
    const newSite_ = await newSite(to.id);
    const terminal = await newTerminal(oldSite.id, { card_acceptor_name: 'WETHERBY RD' });
    const { alertId, commandId } = await withHistory(terminal.id);
    const oldUser = await companyUser(from.id);
    const newUser = await companyUser(to.id);

    const moved = await patch(`/api/admin/terminals/${terminal.id}/`, { site_id: newSite_.id });
    expect(moved.statusCode, moved.body).toBe(200);

    expect((await get(`/api/command/${commandId}/`, oldUser)).statusCode).toBe(403);
    expect((await ack(alertId, oldUser)).statusCode).toBe(403);
    expect(await bell(oldUser, 'site', oldSite.id)).toBe(0);
    expect(await bell(newUser, 'site', newSite_.id)).toBe(1);
    expect((await get(`/api/command/${commandId}/`, newUser)).statusCode).toBe(200);
    expect((await ack(alertId, newUser)).statusCode).toBe(200);
  });
});
