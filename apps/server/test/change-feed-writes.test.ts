import { createHash } from 'node:crypto';
import { DeviceTokenResponseSchema } from '@forecourt/contract/terminals';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FleetFixture, fleetFixture, refuseBatteryReading, settleCommands } from './fleet-fixture.ts';
import { buildTestApp, postgresUnavailable, type TestApp } from './helper.ts';

/**
 * Every write that changes what a screen shows records its change on the feed (docs/product.md "Live updates"), in the
 * same transaction: each write here goes through the real HTTP API (device API, console actions, administration,
 * sign-out and passwords) or the background job that makes it, and the rows it left in `changes` are checked.
 */

interface ChangeRow {
  kind: string;
  agent_id: number | null;
  company_id: number | null;
  site_id: number | null;
  terminal_id: number | null;
  pump_id: number | null;
  user_id: number | null;
}

interface Place {
  agent_id: number;
  company_id: number;
  site_id: number;
  terminal_id: number;
}

describe.skipIf(postgresUnavailable)('the change feed records every screen-changing write', () => {
  let t: TestApp;
  let f: FleetFixture;
  let agent: string;
  let agentId: number;
  let ctl: string;
  let plain: string;
  let seq = 0;
  const uniq = (p: string) => `${p}-${Date.now().toString(36)}-${seq++}`;

  const as = (token: string, opts: InjectOptions) => t.as(token, opts);
  const device = (token: string, method: 'GET' | 'POST', url: string, payload?: unknown) =>
    t.app.inject({
      method,
      url: `/api/device/v1/${url}`,
      headers: { authorization: `Device ${token}` },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });

  /** The last change id before a write: the write's changes are those after it. */
  async function mark(): Promise<number> {
    const rows = await t.database.query<{ id: string | number | null }>('select max(id) as id from changes');
    return Number(rows[0]?.id ?? 0);
  }
  async function since(after: number, kind?: string): Promise<ChangeRow[]> {
    const rows = await t.database.query<ChangeRow>(
      `select kind, agent_id, company_id, site_id, terminal_id, pump_id, user_id from changes
        where id > $1 and ($2::text is null or kind = $2) order by id`,
      [after, kind ?? null],
    );
    return rows.map((r) => ({
      kind: r.kind,
      agent_id: r.agent_id,
      company_id: r.company_id,
      site_id: r.site_id,
      terminal_id: r.terminal_id,
      pump_id: r.pump_id,
      user_id: r.user_id,
    }));
  }
  const change = (kind: string, place: Partial<Omit<ChangeRow, 'kind'>>): ChangeRow => ({
    kind,
    agent_id: null,
    company_id: null,
    site_id: null,
    terminal_id: null,
    pump_id: null,
    user_id: null,
    ...place,
  });
  async function placeOf(terminalId: number): Promise<Place> {
    const rows = await t.database.query<Place>(
      'select agent_id, company_id, site_id, id as terminal_id from terminals where id = $1',
      [terminalId],
    );
    return rows[0]!;
  }
  async function provision(terminalId: number) {
    const res = await as(agent, { method: 'POST', url: `/api/terminal/${terminalId}/device-token/` });
    expect(res.statusCode).toBe(200);
    return DeviceTokenResponseSchema.parse(res.json()).token;
  }

  beforeAll(async () => {
    t = await buildTestApp();
    f = await fleetFixture(t.database);
    await settleCommands(t.database);
    agent = await t.login('agent');
    agentId = (
      await t.database.query<{ agent_id: number }>("select agent_id from users where username = 'agent'")
    )[0]!.agent_id;
    ctl = await provision(f.controllerId);
    plain = await provision(f.plainTerminalId);
    // Both terminals report once, so their return online is behind them.
    for (const token of [ctl, plain]) expect((await device(token, 'GET', 'me')).statusCode).toBe(200);
  });
  afterAll(async () => t?.close());

  it("provisioning or rotating a device token records 'device' and 'fleet' for the terminal", async () => {
    const at = await placeOf(f.plainTerminalId);
    const before = await mark();
    plain = await provision(f.plainTerminalId);
    expect(await since(before)).toEqual([change('device', at), change('fleet', at)]);
  });

  it('a batch of 1,000 telemetry points records one telemetry change, in the same transaction', async () => {
    const at = await placeOf(f.controllerId);
    const before = await mark();
    const points = Array.from({ length: 1000 }, (_, i) => ({
      battery_life: 50 + (i % 40),
      at: new Date(Date.now() - (1000 - i) * 1000).toISOString(),
    }));
    expect((await device(ctl, 'POST', 'telemetry', points)).statusCode).toBe(202);
    expect(await since(before)).toEqual([change('telemetry', at)]);
    // The change row was written by the transaction that updated the terminal's latest readings.
    const [row] = await t.database.query<{ same: boolean }>(
      `select (c.xid::text::numeric % 4294967296) = t.xmin::text::numeric as same
         from changes c, terminals t where c.id > $1 and t.id = $2`,
      [before, f.controllerId],
    );
    expect(row?.same).toBe(true);
  });

  it('shocks and transactions record their kind', async () => {
    const at = await placeOf(f.controllerId);
    let before = await mark();
    expect((await device(ctl, 'POST', 'shocks', [{ reading: 2.5 }, { reading: 3.1 }])).statusCode).toBe(202);
    expect(await since(before)).toEqual([change('shock', at)]);
    before = await mark();
    const tx = { at: new Date().toISOString(), volume_l: 40.5, amount: 71.2 };
    expect((await device(ctl, 'POST', 'transactions', [tx, tx])).statusCode).toBe(202);
    expect(await since(before)).toEqual([change('transaction', at)]);
  });

  it('device events: raising and clearing alerts record an alert change; a clear that finds nothing records none', async () => {
    const at = await placeOf(f.controllerId);
    let before = await mark();
    const raise = [
      { event_type: 1, text: 'Printer jammed' },
      { event_type: 2, text: 'Cabinet open' },
    ];
    expect((await device(ctl, 'POST', 'events', raise)).statusCode).toBe(202);
    expect(await since(before)).toEqual([change('alert', at)]);
    before = await mark();
    expect((await device(ctl, 'POST', 'events', { event_type: 2, clear: true })).statusCode).toBe(202);
    expect(await since(before)).toEqual([change('alert', at)]);
    before = await mark();
    expect((await device(ctl, 'POST', 'events', { event_type: 2, clear: true })).statusCode).toBe(202);
    expect(await since(before)).toEqual([]);
  });

  it('an operator acknowledging an alert records an alert change; acknowledging again records none', async () => {
    const at = await placeOf(f.controllerId);
    const [alert] = await t.database.query<{ id: number }>(
      `select id from alerts where terminal_id = $1 and state = 'active' and acknowledged_at is null
        order by id desc limit 1`,
      [f.controllerId],
    );
    const before = await mark();
    const ack = () =>
      as(agent, { method: 'POST', url: `/api/alerts/${alert!.id}/ack/`, payload: { note: 'on it' } });
    expect((await ack()).statusCode).toBe(200);
    expect(await since(before)).toEqual([change('alert', at)]);
    const again = await mark();
    expect((await ack()).statusCode).toBe(200);
    expect(await since(again)).toEqual([]);
  });

  it('a pump command records a pump change at every state: requested, sent, confirmed; and on each status report', async () => {
    const at = { ...(await placeOf(f.controllerId)), pump_id: f.offPump.id };
    let before = await mark();
    const turned = await as(agent, { method: 'POST', url: `/api/pump/${f.offPump.id}/turn/on/` });
    expect(turned.statusCode).toBe(200);
    expect(await since(before)).toEqual([change('pump', at)]);

    // A refused request (pending) writes nothing.
    before = await mark();
    expect((await as(agent, { method: 'POST', url: `/api/pump/${f.offPump.id}/turn/off/` })).statusCode).toBe(
      409,
    );
    expect(await since(before)).toEqual([]);

    before = await mark();
    const fetched = await device(ctl, 'GET', 'commands');
    expect(fetched.statusCode).toBe(200);
    const [command] = fetched.json() as Array<{ id: number }>;
    expect(await since(before)).toEqual([change('pump', at)]);

    before = await mark();
    expect((await device(ctl, 'POST', `commands/${command!.id}/ack`, { result: 'ok' })).statusCode).toBe(200);
    expect(await since(before)).toEqual([change('pump', at)]);

    // A repeated acknowledgement changes nothing.
    before = await mark();
    expect((await device(ctl, 'POST', `commands/${command!.id}/ack`, { result: 'ok' })).statusCode).toBe(200);
    expect(await since(before)).toEqual([]);

    before = await mark();
    const report = [f.offPump, f.onPump].map((p) => ({
      pump_no: p.pumpNo,
      status: 1,
      code: 4000,
      text: 'ok',
    }));
    // Reported by the site's other terminal: the change names the terminal that carries the pump's commands.
    expect((await device(plain, 'POST', 'pumps/status', [...report, ...report])).statusCode).toBe(202);
    expect(await since(before)).toEqual([
      change('pump', at),
      change('pump', { ...at, terminal_id: f.onPump.terminalId, pump_id: f.onPump.id }),
    ]);
  });

  it('a pump command that nobody fetches records a pump change when it expires (the deadline sweep)', async () => {
    const at = { ...(await placeOf(f.onPump.terminalId)), pump_id: f.onPump.id };
    expect((await as(agent, { method: 'POST', url: `/api/pump/${f.onPump.id}/turn/off/` })).statusCode).toBe(
      200,
    );
    const before = await mark();
    const swept = await t.app.commands.sweep(new Date(Date.now() + 10 * 60_000));
    expect(swept.map((s) => s.pumpId)).toContain(f.onPump.id);
    expect(await since(before)).toEqual([change('pump', at)]);
  });

  it('a reboot records a reboot change when requested, fetched and acknowledged', async () => {
    const at = await placeOf(f.plainTerminalId);
    let before = await mark();
    const res = await as(agent, {
      method: 'POST',
      url: `/api/terminal/${f.plainTerminalId}/reboot/`,
      payload: { reboot_type: 'software' },
    });
    expect(res.statusCode).toBe(202);
    expect(await since(before)).toEqual([change('reboot', at)]);
    before = await mark();
    const [command] = (await device(plain, 'GET', 'commands')).json() as Array<{ id: number }>;
    expect(await since(before)).toEqual([change('reboot', at)]);
    before = await mark();
    expect(
      (await device(plain, 'POST', `commands/${command!.id}/ack`, { result: 'failed' })).statusCode,
    ).toBe(200);
    expect(await since(before)).toEqual([change('reboot', at)]);
  });

  it('the watchdog records connectivity and alert changes; a terminal that reports again records them too', async () => {
    const at = await placeOf(f.controllerId);
    let before = await mark();
    const gone = await t.app.heartbeats.sweep(new Date(Date.now() + (t.app.heartbeats.timeoutS + 5) * 1000));
    expect(gone).toContain(f.controllerId);
    const off = await since(before);
    expect(off).toEqual(expect.arrayContaining([change('connectivity', at), change('alert', at)]));
    // One of each per terminal that went silent, nothing else.
    expect(off.filter((c) => c.kind === 'connectivity').map((c) => c.terminal_id)).toEqual(
      expect.arrayContaining(gone),
    );
    expect(off).toHaveLength(gone.length * 2);

    before = await mark();
    expect((await device(ctl, 'GET', 'me')).statusCode).toBe(200);
    // Back online: the connectivity change, and its offline alert cleared.
    expect(await since(before)).toEqual([change('connectivity', at), change('alert', at)]);
    before = await mark();
    expect((await device(ctl, 'GET', 'me')).statusCode).toBe(200);
    expect(await since(before)).toEqual([]);
  });

  describe('administration', () => {
    const post = (url: string, payload: unknown) =>
      as(agent, { method: 'POST', url, payload: payload as object });
    const patch = (url: string, payload: unknown) =>
      as(agent, { method: 'PATCH', url, payload: payload as object });
    const del = (url: string) => as(agent, { method: 'DELETE', url });
    async function created(url: string, payload: unknown): Promise<{ id: number }> {
      const res = await post(url, payload);
      expect(res.statusCode, res.body).toBe(201);
      return res.json();
    }
    const newSite = (companyId: number) =>
      created('/api/admin/sites/', {
        company_id: companyId,
        title: 'Ripon Road',
        number: uniq('S'),
        lat: 54,
        lng: -1.5,
        timezone: 'Europe/London',
      });

    it('creating, renaming, moving and decommissioning records fleet changes naming each place (old and new)', async () => {
      let before = await mark();
      const a = await created('/api/admin/companies/', { name: uniq('North') });
      const b = await created('/api/admin/companies/', { name: uniq('South') });
      expect(await since(before)).toEqual([
        change('fleet', { agent_id: agentId, company_id: a.id }),
        change('fleet', { agent_id: agentId, company_id: b.id }),
      ]);

      before = await mark();
      expect((await patch(`/api/admin/companies/${a.id}/`, { name: uniq('Northern') })).statusCode).toBe(200);
      expect(await since(before)).toEqual([change('fleet', { agent_id: agentId, company_id: a.id })]);

      before = await mark();
      const s1 = await newSite(a.id);
      const s2 = await newSite(b.id);
      const A1 = { agent_id: agentId, company_id: a.id, site_id: s1.id };
      const B2 = { agent_id: agentId, company_id: b.id, site_id: s2.id };
      expect(await since(before)).toEqual([change('fleet', A1), change('fleet', B2)]);

      before = await mark();
      const t1 = await created('/api/admin/terminals/', {
        site_id: s1.id,
        terminal_id: uniq('T'),
        card_acceptor_name: 'RIPON',
      });
      const t2 = await created('/api/admin/terminals/', {
        site_id: s1.id,
        terminal_id: uniq('T'),
        card_acceptor_name: 'RIPON 2',
      });
      expect(await since(before)).toEqual([
        change('fleet', { ...A1, terminal_id: t1.id }),
        change('fleet', { ...A1, terminal_id: t2.id }),
      ]);

      before = await mark();
      const pump = await created('/api/admin/pumps/', { site_id: s1.id, pump_no: 1 });
      expect(await since(before)).toEqual([change('fleet', { ...A1, terminal_id: t1.id, pump_id: pump.id })]);

      before = await mark();
      expect((await patch(`/api/admin/sites/${s1.id}/`, { title: 'Ripon Road North' })).statusCode).toBe(200);
      expect(await since(before)).toEqual([change('fleet', A1)]);

      // A terminal moves to a site of another company: the old place and the new one.
      before = await mark();
      expect((await patch(`/api/admin/terminals/${t2.id}/`, { site_id: s2.id })).statusCode).toBe(200);
      expect(await since(before)).toEqual([
        change('fleet', { ...A1, terminal_id: t2.id }),
        change('fleet', { ...B2, terminal_id: t2.id }),
      ]);

      // A pump moves: it leaves its carrier at s1 for the carrier at s2.
      before = await mark();
      expect((await patch(`/api/admin/pumps/${pump.id}/`, { site_id: s2.id })).statusCode).toBe(200);
      expect(await since(before)).toEqual([
        change('fleet', { ...A1, terminal_id: t1.id, pump_id: pump.id }),
        change('fleet', { ...B2, terminal_id: t2.id, pump_id: pump.id }),
      ]);

      // A site moves to another company, with its terminal.
      before = await mark();
      expect((await patch(`/api/admin/sites/${s2.id}/`, { company_id: a.id })).statusCode).toBe(200);
      const A2 = { agent_id: agentId, company_id: a.id, site_id: s2.id };
      expect(await since(before)).toEqual([change('fleet', B2), change('fleet', A2)]);
      expect((await patch(`/api/admin/sites/${s2.id}/`, { company_id: b.id })).statusCode).toBe(200);

      // A duplicate is refused and records nothing; so does an unchanged patch.
      before = await mark();
      const dup = await post('/api/admin/terminals/', {
        site_id: s1.id,
        terminal_id: (
          await t.database.query<{ n: string }>('select terminal_no as n from terminals where id = $1', [
            t1.id,
          ])
        )[0]!.n,
        card_acceptor_name: 'X',
      });
      expect(dup.statusCode).toBe(409);
      expect((await patch(`/api/admin/sites/${s1.id}/`, { title: 'Ripon Road North' })).statusCode).toBe(200);
      expect(await since(before)).toEqual([]);

      before = await mark();
      expect((await del(`/api/admin/pumps/${pump.id}/`)).statusCode).toBe(200);
      expect(await since(before)).toEqual([change('fleet', { ...B2, terminal_id: t2.id, pump_id: pump.id })]);

      // A decommissioned terminal: its token goes ('device'), and its active alerts are cleared.
      await t.database.query(
        `insert into alerts (terminal_id, site_id, company_id, agent_id, event_type, text, started_at, severity)
         values ($1, $2, $3, $4, 1, 'Printer jammed', now(), 'major')`,
        [t2.id, s2.id, b.id, agentId],
      );
      before = await mark();
      expect((await del(`/api/admin/terminals/${t2.id}/`)).statusCode).toBe(200);
      const T2 = { ...B2, terminal_id: t2.id };
      expect(await since(before)).toEqual([change('fleet', T2), change('device', T2), change('alert', T2)]);

      // Decommissioning a site or a company takes them from their users: a 'session' change for each.
      const siteUser = await created('/api/admin/users/', {
        username: uniq('s'),
        email: `${uniq('s')}@users.example`,
        name: 'Site User',
        role: 'site',
        site_ids: [s2.id],
      });
      const companyUser = await created('/api/admin/users/', {
        username: uniq('c'),
        email: `${uniq('c')}@users.example`,
        name: 'Company User',
        role: 'company',
        company_ids: [b.id],
      });
      before = await mark();
      expect((await del(`/api/admin/sites/${s2.id}/`)).statusCode).toBe(200);
      expect(await since(before)).toEqual([change('fleet', B2), change('session', { user_id: siteUser.id })]);
      before = await mark();
      expect((await del(`/api/admin/companies/${b.id}/`)).statusCode).toBe(200);
      expect(await since(before)).toEqual([
        change('fleet', { agent_id: agentId, company_id: b.id }),
        change('session', { user_id: companyUser.id }),
      ]);
    });

    it("users: created → 'fleet'; changed or disabled → 'fleet' and 'session'; unchanged → nothing", async () => {
      const [company] = await t.database.query<{ id: number }>(
        'select id from companies where agent_id = $1 and decommissioned_at is null order by id limit 1',
        [agentId],
      );
      let before = await mark();
      const user = await created('/api/admin/users/', {
        username: uniq('u'),
        email: `${uniq('u')}@users.example`,
        name: 'New User',
        role: 'company',
        company_ids: [company!.id],
      });
      expect(await since(before)).toEqual([change('fleet', { agent_id: agentId, user_id: user.id })]);
      for (const body of [{ disabled: true }, { disabled: false }, { role: 'agent' }, { name: 'Renamed' }]) {
        before = await mark();
        expect((await patch(`/api/admin/users/${user.id}/`, body)).statusCode).toBe(200);
        expect(await since(before), JSON.stringify(body)).toEqual([
          change('fleet', { agent_id: agentId, user_id: user.id }),
          change('session', { user_id: user.id }),
        ]);
      }
      before = await mark();
      expect((await patch(`/api/admin/users/${user.id}/`, { name: 'Renamed' })).statusCode).toBe(200);
      expect(await since(before)).toEqual([]);
    });

    it('an import records one fleet change per new company and per site it touched; a dry run or a bad file none', async () => {
      const header = 'company,site_number,site_title,lat,lng,timezone,terminal_id,pumps';
      const company = uniq('Imported');
      const rows = [
        `${company},1,Alpha,51.5,-0.12,Europe/London,${uniq('IT')},2`,
        `${company},1,Alpha,51.5,-0.12,Europe/London,${uniq('IT')},2`,
        `${company},2,Beta,51.6,-0.13,Europe/London,${uniq('IT')},1`,
      ];
      const send = (csv: string, dryRun: boolean) =>
        as(agent, {
          method: 'POST',
          url: `/api/admin/import/?dry_run=${dryRun}`,
          headers: { 'content-type': 'text/csv' },
          payload: csv,
        });
      let before = await mark();
      expect((await send([header, ...rows].join('\n'), true)).statusCode).toBe(200);
      expect(
        (await send([header, ...rows, `${company},3,Gamma,91,0,Europe/London,X,1`].join('\n'), false)).json(),
      ).toMatchObject({ errors: 1 });
      expect(await since(before)).toEqual([]);

      before = await mark();
      const res = await send([header, ...rows].join('\n'), false);
      expect(res.statusCode, res.body).toBe(200);
      const [c] = await t.database.query<{ id: number }>('select id from companies where name = $1', [
        company,
      ]);
      const sites = await t.database.query<{ id: number }>(
        'select id from sites where company_id = $1 order by number',
        [c!.id],
      );
      expect(await since(before)).toEqual([
        change('fleet', { agent_id: agentId, company_id: c!.id }),
        ...sites.map((s) => change('fleet', { agent_id: agentId, company_id: c!.id, site_id: s.id })),
      ]);

      // Importing the same file again changes nothing.
      before = await mark();
      expect((await send([header, ...rows].join('\n'), false)).json()).toMatchObject({ unchanged: 3 });
      expect(await since(before)).toEqual([]);
    });
  });

  describe("sessions ('session' changes: nodes forget the principal and reload revoked tokens)", () => {
    const login = async (username: string, password: string) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username, password },
      });
      expect(res.statusCode).toBe(200);
      return res.json().token as string;
    };
    let user: { id: number; username: string };
    const password = 'first-pass';

    beforeAll(async () => {
      const email = `${uniq('live')}@example.org`;
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/register',
        payload: { email, name: 'Live User', password },
      });
      expect(res.statusCode).toBe(200);
      const rows = await t.database.query<{ id: number; username: string }>(
        'select id, username from users where email = $1',
        [email],
      );
      user = rows[0]!;
    });

    it('signing out records a session change; signing out again with the revoked token records none', async () => {
      const token = await login(user.username, password);
      let before = await mark();
      expect((await as(token, { method: 'DELETE', url: '/api/auth/logout' })).statusCode).toBeLessThan(300);
      expect(await since(before)).toEqual([change('session', { user_id: user.id })]);
      before = await mark();
      await as(token, { method: 'DELETE', url: '/api/auth/logout' });
      expect(await since(before)).toEqual([]);
    });

    it('changing the password, resetting it and editing the profile record session changes', async () => {
      const token = await login(user.username, password);
      let before = await mark();
      const changed = await as(token, {
        method: 'POST',
        url: '/api/user/change/password/',
        payload: { oldPassword: password, password: 'second-pass', confirmPassword: 'second-pass' },
      });
      expect(changed.statusCode).toBe(200);
      // The new password and the retired token: one change each, both naming the user.
      expect(await since(before)).toEqual([
        change('session', { user_id: user.id }),
        change('session', { user_id: user.id }),
      ]);

      const reset = 'a-reset-token-for-the-feed';
      await t.app.repos.users.createResetToken(
        user.id,
        createHash('sha256').update(reset).digest('hex'),
        3600,
      );
      before = await mark();
      const res = await t.app.inject({
        method: 'PUT',
        url: '/api/auth/reset-pass',
        payload: { password: 'third-pass', confirmPassword: 'third-pass', reset_password_token: reset },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(await since(before)).toEqual([change('session', { user_id: user.id })]);

      const fresh = await login(user.username, 'third-pass');
      before = await mark();
      expect(
        (
          await as(fresh, {
            method: 'POST',
            url: '/api/user/update/',
            payload: { name: 'Live User Renamed' },
          })
        ).statusCode,
      ).toBe(200);
      expect(await since(before)).toEqual([change('session', { user_id: user.id })]);
    });
  });

  it('a write that rolls back records nothing', async () => {
    // A check at commit fails the telemetry transaction after its change row was written.
    const lift = await refuseBatteryReading(t.database, 13.5, 'commit');
    try {
      const before = await mark();
      const res = await device(ctl, 'POST', 'telemetry', [{ battery_life: 60 }, { battery_life: 13.5 }]);
      expect(res.statusCode).not.toBe(202);
      expect(await since(before)).toEqual([]);
      expect((await device(ctl, 'POST', 'telemetry', [{ battery_life: 61 }])).statusCode).toBe(202);
      expect(await since(before, 'telemetry')).toHaveLength(1);
    } finally {
      await lift();
    }
  });
});
