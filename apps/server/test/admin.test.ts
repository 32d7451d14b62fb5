import {
  AdminSiteSchema,
  AdminUserSchema,
  AuditEntrySchema,
  CompanySchema,
  ImportResultSchema,
} from '@forecourt/contract/admin';
import { ErrorBodySchema } from '@forecourt/contract/common';
import { startSmtpServer } from '@forecourt/test-support/smtp';
import { waitFor } from '@forecourt/test-support/wait';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { adminClient } from './admin-client.ts';
import { buildTestApp, postgresUnavailable, type TestApp } from './helper.ts';
import { type OrgFixture, orgFixture } from './org-fixtures.ts';

const errorsOf = (res: { json(): unknown }) => ErrorBodySchema.parse(res.json()).data.errors;
const HOSTILE = `<img src=x onerror=alert(1)> "'; drop table sites; -- =SUM(A1) ${'\u202e'}مرحبا`;

describe.skipIf(postgresUnavailable)('fleet administration', () => {
  let t: TestApp;
  let org: OrgFixture;
  let agent: string;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  const { uniq, as, post, patch, get, del, newCompany, newSite, newTerminal } = adminClient(
    () => t,
    () => agent,
  );

  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await buildTestApp({ SMTP_URL: smtp.url, PUBLIC_URL: 'http://forecourt.test' });
    org = await orgFixture(t.database);
    agent = await t.login('agent');
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  describe('scope', () => {
    const paths: Array<[string, string, unknown?]> = [
      ['GET', '/api/admin/companies/'],
      ['POST', '/api/admin/companies/', { name: 'Nope' }],
      ['GET', '/api/admin/sites/'],
      ['POST', '/api/admin/terminals/', { site_id: 1, terminal_id: 'X', card_acceptor_name: 'X' }],
      ['GET', '/api/admin/pumps/'],
      ['DELETE', '/api/admin/pumps/1/'],
      ['GET', '/api/admin/users/'],
      ['PATCH', '/api/admin/users/1/', { disabled: true }],
      ['GET', '/api/admin/audit/'],
      ['POST', '/api/admin/import/?dry_run=true'],
    ];
    it.each(['company', 'site'])('a %s user gets 403 everywhere', async (who) => {
      const token = await t.login(who);
      for (const [method, url, payload] of paths) {
        const res = await as(token, {
          method: method as 'GET',
          url,
          ...(payload ? { payload: payload as object } : {}),
        });
        expect(res.statusCode, `${method} ${url}`).toBe(403);
      }
    });
    it('without a token: 401', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/api/admin/companies/' });
      expect(res.statusCode).toBe(401);
    });
    it("another agent's objects are 403, unknown ids and non-numeric ids 404", async () => {
      expect((await get(`/api/admin/companies/${org.outsider.companyId}/`)).statusCode).toBe(403);
      expect((await get(`/api/admin/sites/${org.outsider.siteId}/`)).statusCode).toBe(403);
      expect((await patch(`/api/admin/sites/${org.outsider.siteId}/`, { title: 'x' })).statusCode).toBe(403);
      expect((await get('/api/admin/sites/99999999/')).statusCode).toBe(404);
      expect((await get('/api/admin/terminals/abc/')).statusCode).toBe(404);
      expect((await del('/api/admin/pumps/99999999/')).statusCode).toBe(404);
      const list = z.array(CompanySchema).parse((await get('/api/admin/companies/?limit_to=1000')).json());
      expect(list.map((c) => c.id)).toContain(org.companyId);
      expect(list.map((c) => c.id)).not.toContain(org.outsider.companyId);
    });
  });

  describe('companies, sites, terminals, pumps', () => {
    it('creates with 201, reads, patches with 200; hostile text is stored as given', async () => {
      const company = await newCompany(HOSTILE);
      expect(company.name).toBe(HOSTILE);
      const site = await newSite(company.id, { title: HOSTILE, address: HOSTILE });
      expect(site).toMatchObject({ title: HOSTILE, address: HOSTILE, timezone: 'Europe/London', lat: 53.99 });
      const read = await get(`/api/admin/sites/${site.id}/`);
      expect(read.statusCode).toBe(200);
      expect(read.json()).toEqual(site);
      const changed = await patch(`/api/admin/sites/${site.id}/`, {
        timezone: 'America/New_York',
        lat: -33.5,
      });
      expect(changed.statusCode).toBe(200);
      expect(changed.json()).toMatchObject({ timezone: 'America/New_York', lat: -33.5, title: HOSTILE });
      const terminal = await newTerminal(site.id);
      expect(terminal).toMatchObject({ site_id: site.id, lat: -33.5, lng: -1.54 });
      const pump = await post('/api/admin/pumps/', { site_id: site.id, pump_no: 3 });
      expect(pump.statusCode, pump.body).toBe(201);
      expect(pump.json()).toMatchObject({ site_id: site.id, pump_no: 3 });
      // The new site is in the agent's reads at once, with its title as given.
      const sites = await get(`/api/agent/${org.agentId}/sites/`);
      expect(sites.statusCode).toBe(200);
      expect(JSON.stringify(sites.json())).toContain(JSON.stringify(HOSTILE).slice(1, -1));
    });

    it('400 names every bad field', async () => {
      const res = await post('/api/admin/sites/', {
        company_id: 'one',
        title: '',
        lat: 123,
        lng: -200,
        timezone: 'Europe/Atlantis',
      });
      expect(res.statusCode).toBe(400);
      const errors = errorsOf(res).join('\n');
      for (const field of ['company_id', 'title', 'number', 'lat', 'lng', 'timezone'])
        expect(errors).toContain(field);
      const pump = await post('/api/admin/pumps/', { site_id: org.siteId, pump_no: 0, colour: 'red' });
      expect(pump.statusCode).toBe(400);
      expect(errorsOf(pump).join('\n')).toMatch(/pump_no[\s\S]*colour|colour[\s\S]*pump_no/);
      const elsewhere = await post('/api/admin/terminals/', {
        site_id: org.outsider.siteId,
        terminal_id: uniq('T'),
        card_acceptor_name: 'X',
      });
      expect(elsewhere.statusCode).toBe(400);
      expect(errorsOf(elsewhere)[0]).toMatch(/^site_id/);
    });

    it('409 for duplicates: company name, site number in a company, terminal number, pump number in a site', async () => {
      const company = await newCompany();
      expect((await post('/api/admin/companies/', { name: company.name.toUpperCase() })).statusCode).toBe(
        409,
      );
      const site = await newSite(company.id);
      const again = await post('/api/admin/sites/', { ...site, id: undefined });
      expect(again.statusCode).toBe(409);
      expect(errorsOf(again)[0]).toMatch(/^number/);
      // The same number in another company is fine.
      const other = await newCompany();
      await newSite(other.id, { number: site.number });
      const terminal = await newTerminal(site.id);
      const dup = await post('/api/admin/terminals/', {
        site_id: site.id,
        terminal_id: terminal.terminal_id,
        card_acceptor_name: 'X',
      });
      expect(dup.statusCode).toBe(409);
      expect(errorsOf(dup)[0]).toMatch(/^terminal_id/);
      expect((await post('/api/admin/pumps/', { site_id: site.id, pump_no: 1 })).statusCode).toBe(201);
      expect((await post('/api/admin/pumps/', { site_id: site.id, pump_no: 1 })).statusCode).toBe(409);
      const site2 = await newSite(company.id);
      const p2 = await post('/api/admin/pumps/', { site_id: site2.id, pump_no: 1 });
      // A site with no terminal cannot carry pump commands yet.
      expect(p2.statusCode).toBe(409);
    });

    it('a delete with live children is 409 naming them; decommissioning goes bottom-up and then 404', async () => {
      const company = await newCompany();
      const site = await newSite(company.id);
      const terminal = await newTerminal(site.id);
      const pump = (await post('/api/admin/pumps/', { site_id: site.id, pump_no: 1 })).json() as {
        id: number;
      };
      const blocked = await del(`/api/admin/companies/${company.id}/`);
      expect(blocked.statusCode).toBe(409);
      expect(blocked.json().children).toEqual([{ entity: 'site', id: site.id, label: expect.any(String) }]);
      const siteBlocked = await del(`/api/admin/sites/${site.id}/`);
      expect(siteBlocked.statusCode).toBe(409);
      expect(
        siteBlocked.json().children.map((c: { entity: string; id: number }) => [c.entity, c.id]),
      ).toEqual([
        ['terminal', terminal.id],
        ['pump', pump.id],
      ]);
      // The site's last terminal carries its pump: it stays while the pump does.
      expect((await del(`/api/admin/terminals/${terminal.id}/`)).statusCode).toBe(409);
      const pumpGone = await del(`/api/admin/pumps/${pump.id}/`);
      expect(pumpGone.statusCode).toBe(200);
      expect(pumpGone.json()).toMatchObject({ id: pump.id, site_id: site.id });
      expect((await del(`/api/admin/terminals/${terminal.id}/`)).statusCode).toBe(200);
      expect((await del(`/api/admin/sites/${site.id}/`)).statusCode).toBe(200);
      expect((await del(`/api/admin/companies/${company.id}/`)).statusCode).toBe(200);
      for (const url of [
        `/api/admin/companies/${company.id}/`,
        `/api/admin/sites/${site.id}/`,
        `/api/admin/terminals/${terminal.id}/`,
        `/api/admin/pumps/${pump.id}/`,
      ]) {
        expect((await get(url)).statusCode, url).toBe(404);
        expect((await patch(url, {})).statusCode, url).toBe(404);
        expect((await del(url)).statusCode, url).toBe(404);
      }
      // Gone from the console's reads and scope checks at once.
      expect((await get(`/api/site/${site.id}/terminals/`)).statusCode).toBe(404);
      const companies = z
        .array(CompanySchema)
        .parse((await get('/api/admin/companies/?limit_to=1000')).json());
      expect(companies.map((c) => c.id)).not.toContain(company.id);
      // The number is free again.
      const reuse = await post('/api/admin/companies/', { name: company.name });
      expect(reuse.statusCode).toBe(201);
    });

    it("decommissioning a terminal cuts its device token, a waiting long-poll included; the site's pumps move to another terminal", async () => {
      const company = await newCompany();
      const site = await newSite(company.id);
      const first = await newTerminal(site.id);
      const second = await newTerminal(site.id);
      const pump = (await post('/api/admin/pumps/', { site_id: site.id, pump_no: 2 })).json() as {
        id: number;
      };
      const tokenRes = await post(`/api/terminal/${first.id}/device-token/`, undefined);
      expect(tokenRes.statusCode).toBe(200);
      const token = tokenRes.json().token as string;
      const device = (url: string) =>
        t.app.inject({
          method: 'GET',
          url: `/api/device/v1/${url}`,
          headers: { authorization: `Device ${token}` },
        });
      expect((await device('commands?wait=0')).statusCode).toBe(200);
      const before = t.app.commands.waiting();
      const waiting = device('commands?wait=30');
      await expect.poll(() => t.app.commands.waiting(), { timeout: 5_000 }).toBe(before + 1);
      expect((await del(`/api/admin/terminals/${first.id}/`)).statusCode).toBe(200);
      expect((await waiting).statusCode).toBe(401);
      expect((await device('commands?wait=0')).statusCode).toBe(401);
      // The pump now hangs off the other terminal: switching it still works.
      const on = await post(`/api/pump/${pump.id}/turn/on/`, {});
      expect(on.statusCode, on.body).toBe(200);
      const carrier = await t.database.query<{ terminal_id: number }>(
        'select terminal_id from pumps where id = $1',
        [pump.id],
      );
      expect(Number(carrier[0].terminal_id)).toBe(second.id);
    });

    it('a new fleet shows on the dashboards and map; decommissioned parts leave every read at once, history stays', async () => {
      const company = await newCompany();
      const site = await newSite(company.id, { title: 'Ripon Road' });
      const keep = await newTerminal(site.id);
      const gone = await newTerminal(site.id);
      const pumps = [];
      for (const pump_no of [1, 2, 3, 4])
        pumps.push((await post('/api/admin/pumps/', { site_id: site.id, pump_no })).json() as { id: number });
      const token = (await post(`/api/terminal/${gone.id}/device-token/`, undefined)).json().token as string;
      const sent = await t.app.inject({
        method: 'POST',
        url: '/api/device/v1/telemetry',
        headers: { authorization: `Device ${token}` },
        payload: { battery_life: 64 },
      });
      expect(sent.statusCode).toBe(202);
      const ids = async (url: string, pick: (row: Record<string, unknown>) => unknown) =>
        ((await get(url)).json() as Array<Record<string, unknown>>).map(pick);
      const connectivity = `/api/company/${company.id}/connectivity/`;
      const map = `/api/company/${company.id}/map/terminals/`;
      const sites = `/api/company/${company.id}/sites/`;
      expect(await ids(connectivity, (r) => r.number)).toEqual(
        expect.arrayContaining([keep.terminal_id, gone.terminal_id]),
      );
      expect(await ids(`/api/site/${site.id}/terminals/battery/`, (r) => r.life)).toEqual([64]);
      expect(await ids(`/api/site/${site.id}/pumps/`, (r) => r.pump_no)).toEqual([1, 2, 3, 4]);
      expect(await ids(sites, (r) => r.id)).toEqual([site.id]);
      expect(
        (await get(`/api/agent/${org.agentId}/sites/`)).json().map((s: { id: number }) => s.id),
      ).toContain(site.id);

      expect((await del(`/api/admin/pumps/${pumps[3].id}/`)).statusCode).toBe(200);
      expect(await ids(`/api/site/${site.id}/pumps/`, (r) => r.pump_no)).toEqual([1, 2, 3]);
      expect((await get(`/api/pump/${pumps[3].id}/commands/`)).statusCode).toBe(404);

      expect((await del(`/api/admin/terminals/${gone.id}/`)).statusCode).toBe(200);
      expect(await ids(connectivity, (r) => r.number)).toEqual([keep.terminal_id]);
      const mapped = (await get(map)).json() as Array<{ terminals: Array<{ terminal_id: string }> }>;
      expect(mapped.flatMap((s) => s.terminals.map((x) => x.terminal_id))).toEqual([keep.terminal_id]);
      expect(await ids(`/api/site/${site.id}/terminals/`, (r) => r.terminal_id)).toEqual([keep.terminal_id]);
      expect(await ids(`/api/site/${site.id}/terminals/battery/`, (r) => r.life)).toEqual([]);
      expect((await get(`/api/terminal/${gone.id}/commands/`)).statusCode).toBe(404);
      // Its history stays in the logs.
      const log = (await get(`/api/company/${company.id}/connectivity/log/?limit_to=1000`)).json() as Array<{
        number: string;
      }>;
      expect(log.map((r) => r.number)).toContain(gone.terminal_id);

      for (const p of pumps.slice(0, 3))
        expect((await del(`/api/admin/pumps/${p.id}/`)).statusCode).toBe(200);
      expect((await del(`/api/admin/terminals/${keep.id}/`)).statusCode).toBe(200);
      expect((await del(`/api/admin/sites/${site.id}/`)).statusCode).toBe(200);
      expect(await ids(sites, (r) => r.id)).toEqual([]);
      expect((await get(map)).json()).toEqual([]);
      expect((await get(`/api/site/${site.id}/terminals/`)).statusCode).toBe(404);
      expect(
        (await get(`/api/agent/${org.agentId}/sites/`)).json().map((s: { id: number }) => s.id),
      ).not.toContain(site.id);
    });

    it('lists search with q and page with limit_to and before', async () => {
      const company = await newCompany();
      const tag = uniq('Needle');
      const sites = [];
      for (let i = 0; i < 3; i++) sites.push(await newSite(company.id, { title: `${tag} ${i}` }));
      await newSite(company.id, { title: 'Haystack' });
      const page1 = await get(`/api/admin/sites/?q=${encodeURIComponent(tag.toLowerCase())}&limit_to=2`);
      expect(page1.statusCode).toBe(200);
      expect(page1.json().map((s: { id: number }) => s.id)).toEqual([sites[2].id, sites[1].id]);
      expect(page1.headers['x-next-cursor']).toBe(String(sites[1].id));
      const page2 = await get(
        `/api/admin/sites/?q=${encodeURIComponent(tag)}&limit_to=2&before=${page1.headers['x-next-cursor']}`,
      );
      expect(page2.json().map((s: { id: number }) => s.id)).toEqual([sites[0].id]);
      const byCompany = await get(`/api/admin/sites/?company_id=${company.id}`);
      expect(byCompany.json()).toHaveLength(4);
      const bad = await get('/api/admin/sites/?limit_to=0&before=x');
      expect(bad.statusCode).toBe(400);
      expect(errorsOf(bad)).toHaveLength(2);
    });
  });

  describe('users', () => {
    it('a new site user gets a set-password link by mail, sets it, signs in and reaches only its site', async () => {
      const username = uniq('siteop');
      const email = `${username}@mail.example`;
      const res = await post('/api/admin/users/', {
        username,
        email,
        name: 'Sam Site',
        role: 'site',
        site_ids: [org.siteId],
      });
      expect(res.statusCode, res.body).toBe(201);
      const user = AdminUserSchema.parse(res.json());
      expect(user).toMatchObject({ role: 'site', site_ids: [org.siteId], company_ids: [], disabled: false });
      const mail = await waitFor(() => smtp.mails.find((m) => m.to.includes(email)));
      const link = /reset_password_token=([A-Za-z0-9_-]+)/.exec(mail.text);
      expect(link).not.toBeNull();
      const reset = await t.app.inject({
        method: 'PUT',
        url: '/api/auth/reset-pass',
        payload: { password: 'chosen-pass', confirmPassword: 'chosen-pass', reset_password_token: link![1] },
      });
      expect(reset.statusCode, reset.body).toBe(200);
      const token = await t.login(username, 'chosen-pass');
      expect((await get(`/api/site/${org.siteId}/terminals/`, token)).statusCode).toBe(200);
      expect((await get(`/api/site/${org.companySiteId}/terminals/`, token)).statusCode).toBe(403);

      // Role and scope change: a company user of the company, at once.
      const changed = await patch(`/api/admin/users/${user.id}/`, {
        role: 'company',
        company_ids: [org.companyId],
      });
      expect(changed.statusCode, changed.body).toBe(200);
      expect(changed.json()).toMatchObject({ role: 'company', company_ids: [org.companyId], site_ids: [] });
      expect((await get(`/api/site/${org.companySiteId}/terminals/`, token)).statusCode).toBe(200);

      // Disabling ends its sessions at once and refuses sign-in.
      const disabled = await patch(`/api/admin/users/${user.id}/`, { disabled: true });
      expect(disabled.json()).toMatchObject({ disabled: true });
      expect((await get('/api/user/', token)).statusCode).toBe(401);
      const login = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username, password: 'chosen-pass' },
      });
      expect(login.statusCode).toBe(401);
      const enabled = await patch(`/api/admin/users/${user.id}/`, { disabled: false });
      expect(enabled.json()).toMatchObject({ disabled: false });
      // Re-enabled: it signs in again; the token from before the disable stays refused.
      expect((await get('/api/user/', token)).statusCode).toBe(401);
      const again = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username, password: 'chosen-pass' },
      });
      expect(again.statusCode).toBe(200);
      expect((await get('/api/user/', again.json().token)).statusCode).toBe(200);
    });

    it('disabling a user never touches the device tokens it provisioned', async () => {
      const username = uniq('installer');
      const created = await post('/api/admin/users/', {
        username,
        email: `${username}@mail.example`,
        role: 'agent',
      });
      expect(created.statusCode).toBe(201);
      const id = created.json().id as number;
      await t.database.query(
        'update users set password_hash = (select password_hash from users where username = $1) where id = $2',
        ['agent', id],
      );
      const installer = await t.login(username);
      const site = await newSite((await newCompany()).id);
      const terminal = await newTerminal(site.id);
      const token = (await post(`/api/terminal/${terminal.id}/device-token/`, undefined, installer)).json()
        .token;
      expect((await patch(`/api/admin/users/${id}/`, { disabled: true })).statusCode).toBe(200);
      expect((await get('/api/user/', installer)).statusCode).toBe(401);
      const device = await t.app.inject({
        method: 'POST',
        url: '/api/device/v1/telemetry',
        headers: { authorization: `Device ${token}` },
        payload: { battery_life: 80 },
      });
      expect(device.statusCode).toBe(202);
    });

    it('a self-registered user has no role and no scope until an agent gives it one', async () => {
      const email = `${uniq('self')}@mail.example`;
      const reg = await t.app.inject({
        method: 'POST',
        url: '/api/auth/register',
        payload: { email, name: 'Self Starter', password: 'self-pass' },
      });
      expect(reg.statusCode).toBe(200);
      const token = reg.json().token as string;
      const me = await get('/api/user/', token);
      expect(me.json()).toMatchObject({ agent: null, companies: [], sites: [] });
      expect((await get(`/api/site/${org.siteId}/terminals/`, token)).statusCode).toBe(403);
      expect((await get(`/api/agent/${org.agentId}/sites/`, token)).statusCode).toBe(403);
      const waiting = z
        .array(AdminUserSchema)
        .parse((await get('/api/admin/users/?role=none&limit_to=1000')).json());
      const mine = waiting.find((u) => u.email === email)!;
      expect(mine).toMatchObject({ role: null, company_ids: [], site_ids: [] });
      const granted = await patch(`/api/admin/users/${mine.id}/`, { role: 'site', site_ids: [org.siteId] });
      expect(granted.statusCode).toBe(200);
      expect((await get(`/api/site/${org.siteId}/terminals/`, token)).statusCode).toBe(200);
    });

    it('400, 409 and 403 paths of users', async () => {
      const bad = await post('/api/admin/users/', { username: 'a b', email: 'no', role: 'king' });
      expect(bad.statusCode).toBe(400);
      expect(errorsOf(bad).join('\n')).toMatch(/username[\s\S]*email[\s\S]*role/);
      const noScope = await post('/api/admin/users/', {
        username: uniq('u'),
        email: `${uniq('u')}@x.io`,
        role: 'company',
      });
      expect(errorsOf(noScope)).toEqual(['company_ids must name at least one company for a company user']);
      const foreign = await post('/api/admin/users/', {
        username: uniq('u'),
        email: `${uniq('u')}@x.io`,
        role: 'company',
        company_ids: [org.outsider.companyId],
      });
      expect(foreign.statusCode).toBe(400);
      expect(errorsOf(foreign)[0]).toContain(String(org.outsider.companyId));
      expect(
        (await post('/api/admin/users/', { username: 'AGENT', email: 'fresh@x.io', role: 'agent' }))
          .statusCode,
      ).toBe(409);
      const emailDup = await post('/api/admin/users/', {
        username: uniq('u'),
        email: 'Agent@forecourt.test',
        role: 'agent',
      });
      expect([409, 201]).toContain(emailDup.statusCode);
      const me = (await get('/api/user/')).json().id as number;
      expect((await patch(`/api/admin/users/${me}/`, { disabled: true })).statusCode).toBe(409);
      const hostile = await post('/api/admin/users/', {
        username: uniq('h'),
        email: `${uniq('h')}@x.io`,
        name: '<b>x</b>',
        role: 'agent',
      });
      expect(hostile.json().name).toBe('<b>x</b>');
    });
  });

  describe('import', () => {
    const header = 'company,site_number,site_title,lat,lng,timezone,terminal_id,pumps';
    const importCsv = (csv: string, dryRun: boolean, token = agent) =>
      as(token, {
        method: 'POST',
        url: `/api/admin/import/?dry_run=${dryRun}`,
        headers: { 'content-type': 'text/csv' },
        payload: csv,
      });

    it('dry run answers row by row and writes nothing; a bad row writes nothing; then it imports and matches', async () => {
      const company = uniq('Imported');
      const t1 = uniq('IT');
      const t2 = uniq('IT');
      const good = [
        header,
        `${company},100,Leeds North,53.8,-1.55,Europe/London,${t1},4`,
        `${company},100,Leeds North,53.8,-1.55,Europe/London,${t2},4`,
      ].join('\n');
      const bad = `${good}\n${company},101,"=HYPERLINK(""x"")",95,-1.55,Mars/Base,${t1},2\n`;
      const dry = await importCsv(bad, true);
      expect(dry.statusCode, dry.body).toBe(200);
      const result = ImportResultSchema.parse(dry.json());
      expect(result).toMatchObject({ created: 2, errors: 1 });
      expect(result.rows[2]).toMatchObject({ row: 4, action: 'error' });
      expect(result.rows[2].errors.join('\n')).toMatch(/lat[\s\S]*timezone[\s\S]*|timezone/);
      const real = await importCsv(bad, false);
      expect(ImportResultSchema.parse(real.json()).errors).toBe(1);
      const companies = z
        .array(CompanySchema)
        .parse((await get(`/api/admin/companies/?q=${company}`)).json());
      expect(companies).toHaveLength(0);

      const ok = ImportResultSchema.parse((await importCsv(good, false)).json());
      expect(ok).toMatchObject({ created: 2, updated: 0, unchanged: 0, errors: 0 });
      const [created] = z
        .array(CompanySchema)
        .parse((await get(`/api/admin/companies/?q=${company}`)).json());
      const [site] = z
        .array(AdminSiteSchema)
        .parse((await get(`/api/admin/sites/?company_id=${created.id}`)).json());
      expect(site).toMatchObject({ number: '100', title: 'Leeds North', timezone: 'Europe/London' });
      expect((await get(`/api/admin/terminals/?site_id=${site.id}`)).json()).toHaveLength(2);
      expect((await get(`/api/admin/pumps/?site_id=${site.id}`)).json()).toHaveLength(4);

      const again = ImportResultSchema.parse((await importCsv(good, false)).json());
      expect(again).toMatchObject({ created: 0, updated: 0, unchanged: 2, errors: 0 });
      const renamed = good.replaceAll('Leeds North', 'Leeds North Services').replace(/,4$/gm, ',6');
      const upd = ImportResultSchema.parse((await importCsv(renamed, false)).json());
      expect(upd).toMatchObject({ created: 0, updated: 2, errors: 0 });
      expect((await get(`/api/admin/sites/${site.id}/`)).json().title).toBe('Leeds North Services');
      expect((await get(`/api/admin/pumps/?site_id=${site.id}`)).json()).toHaveLength(6);
      const audit = z.array(AuditEntrySchema).parse((await get('/api/admin/audit/?entity=import')).json());
      expect(audit[0]).toMatchObject({ action: 'import', user: 'agent' });
    });

    it('a malformed file or header is 400; the body must be CSV', async () => {
      const noHeader = await importCsv('a,b\n1,2\n', true);
      expect(noHeader.statusCode).toBe(400);
      expect(errorsOf(noHeader)[0]).toContain('missing: company');
      const broken = await importCsv(`${header}\n"unclosed,1,2\n`, true);
      expect(broken.statusCode).toBe(400);
      const json = await post('/api/admin/import/?dry_run=true', { rows: [] });
      expect(json.statusCode).toBe(400);
    });

    it('imports 10,000 rows in one go', async () => {
      const company = uniq('Bulk');
      const lines = [header];
      for (let i = 0; i < 10_000; i++) {
        lines.push(
          `${company},${Math.floor(i / 4)},Site ${Math.floor(i / 4)},51.5,-0.12,Europe/London,${company}-T${i},4`,
        );
      }
      const res = await importCsv(lines.join('\n'), false);
      expect(res.statusCode, res.body.slice(0, 500)).toBe(200);
      expect(ImportResultSchema.parse(res.json())).toMatchObject({ created: 10_000, errors: 0 });
      const [c] = z.array(CompanySchema).parse((await get(`/api/admin/companies/?q=${company}`)).json());
      const count = await t.database.query<{ n: number }>(
        'select count(*)::int as n from terminals t join sites s on s.id = t.site_id where s.company_id = $1',
        [c.id],
      );
      expect(Number(count[0].n)).toBe(10_000);
    }, 120_000);
  });

  describe('audit', () => {
    it('records who changed what, before and after, and device-token provisioning; filters by entity and user', async () => {
      const company = await newCompany();
      await patch(`/api/admin/companies/${company.id}/`, { name: `${company.name} Ltd` });
      const site = await newSite(company.id);
      const terminal = await newTerminal(site.id);
      await post(`/api/terminal/${terminal.id}/device-token/`, undefined);
      const entries = z
        .array(AuditEntrySchema)
        .parse((await get(`/api/admin/audit/?entity=company&entity_id=${company.id}`)).json());
      expect(entries.map((e) => e.action)).toEqual(['update', 'create']);
      expect(entries[0]).toMatchObject({
        user: 'agent',
        before: { name: company.name },
        after: { name: `${company.name} Ltd` },
      });
      const tokens = z
        .array(AuditEntrySchema)
        .parse((await get(`/api/admin/audit/?entity=terminal&entity_id=${terminal.id}`)).json());
      expect(tokens.map((e) => e.action)).toEqual(['provision_token', 'create']);
      expect(JSON.stringify(tokens)).not.toContain('fcd_');
      const byNobody = await get('/api/admin/audit/?user=nobody-at-all');
      expect(byNobody.json()).toEqual([]);
      const paged = await get('/api/admin/audit/?limit_to=1');
      expect(paged.headers['x-next-cursor']).toBe(String(paged.json()[0].id));
      expect((await get('/api/admin/audit/?entity=planet')).statusCode).toBe(400);
    });

    it("lists the acknowledgements of the agent's alerts, and not another agent's entries", async () => {
      const [alert] = await t.database.query<{ id: number }>(
        'select id from alerts where agent_id = $1 and acknowledged_at is null order by id desc limit 1',
        [org.agentId],
      );
      const ack = await post(`/api/alerts/${alert.id}/ack/`, { note: 'on it' });
      expect(ack.statusCode, ack.body).toBe(200);
      const entries = z
        .array(AuditEntrySchema)
        .parse((await get(`/api/admin/audit/?entity=alert&entity_id=${alert.id}`)).json());
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({ action: 'acknowledge', user: 'agent', after: { note: 'on it' } });
      await t.database.query(
        `insert into audit_log (user_id, username, agent_id, action, entity, entity_id)
         values (null, 'stranger', $1, 'create', 'company', $2)`,
        [org.outsider.agentId, org.outsider.companyId],
      );
      expect((await get('/api/admin/audit/?user=stranger')).json()).toEqual([]);
    });
  });

  it('the admin routes are in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    for (const p of [
      '/api/admin/companies/',
      '/api/admin/sites/{id}/',
      '/api/admin/terminals/',
      '/api/admin/pumps/{id}/',
      '/api/admin/users/{id}/',
      '/api/admin/import/',
      '/api/admin/audit/',
    ]) {
      expect(Object.keys(doc.paths), p).toContain(p);
    }
  });
});
