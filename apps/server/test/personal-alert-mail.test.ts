import { ContactPointSchema } from '@forecourt/contract/notifications';
import { startSmtpServer } from '@forecourt/test-support/smtp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type FleetFixture, fleetFixture, provisionDevice } from './fleet-fixture.ts';
import { buildTestApp, postgresUnavailable, type TestApp } from './helper.ts';
import { demoBesideDatabaseUpTo } from './old-database.ts';

const MINUTE = 60_000;
const Points = z.array(ContactPointSchema);

/** The tables a user's scope is made of, in the order their keys allow. */
const ORG_TABLES = ['agents', 'companies', 'sites', 'users', 'user_companies', 'user_sites'];

/**
 * A user's alert-mail preference as an email contact point of its own (docs/decisions/0025-notifications.md): the
 * migration creates one for every user with the preference on, the profile's toggle keeps it in step, and the user
 * still gets the windowed alert mail once (the outbox queues nothing for it).
 */
describe.skipIf(postgresUnavailable)('alert mail as a contact point', () => {
  describe('migration personal_alert_mail', () => {
    const dbs = demoBesideDatabaseUpTo('0014_target_predicate');

    beforeAll(async () => {
      // The demo fleet's organisation, as a database of the old shape holds it.
      for (const table of ORG_TABLES) {
        const rows = await dbs.demo.query(`select * from ${table}`);
        await dbs.old.query(
          `insert into ${table} select * from json_populate_recordset(null::${table}, $1::json)`,
          [JSON.stringify(rows)],
        );
      }
    });

    it('gives every user with the preference on an email contact point in its scope, and nobody else', async () => {
      await dbs.old.query(`update users set email_min_severity = 'critical' where username = 'agent'`);
      await dbs.old.query(`update users set email_min_severity = 'major' where username = 'company'`);
      await dbs.old.query(`update users set email_min_severity = 'info' where username = 'site'`);
      const wanting = await dbs.old.query<{ id: number; email: string; agent_id: number | null }>(
        `select id, email, agent_id from users where email_min_severity is not null order by id`,
      );
      expect(wanting).toHaveLength(3);

      await dbs.old.migrate();

      const points = await dbs.old.query<{
        user_id: number;
        kind: string;
        addresses: string[];
        owner_kind: string;
        owner_id: number;
      }>(`select user_id, kind, addresses, owner_kind, owner_id from contact_points order by user_id`);
      expect(points.map((p) => Number(p.user_id))).toEqual(wanting.map((u) => Number(u.id)));
      for (const u of wanting) {
        const p = points.find((x) => Number(x.user_id) === Number(u.id))!;
        expect(p.kind).toBe('email');
        expect(p.addresses).toEqual([u.email]);
        if (u.agent_id) expect(p).toMatchObject({ owner_kind: 'agent', owner_id: u.agent_id });
      }
      const byName = async (username: string) =>
        (
          await dbs.old.query<{ owner_kind: string; owner_id: number }>(
            `select c.owner_kind, c.owner_id from contact_points c join users u on u.id = c.user_id
              where u.username = $1`,
            [username],
          )
        )[0];
      const [company] = await dbs.old.query<{ company_id: number }>(
        `select min(uc.company_id) as company_id from user_companies uc join users u on u.id = uc.user_id
          where u.username = 'company'`,
      );
      expect(await byName('company')).toMatchObject({ owner_kind: 'company', owner_id: company!.company_id });
      const [site] = await dbs.old.query<{ site_id: number }>(
        `select min(us.site_id) as site_id from user_sites us join users u on u.id = us.user_id
          where u.username = 'site'`,
      );
      expect(await byName('site')).toMatchObject({ owner_kind: 'site', owner_id: site!.site_id });
      // No policy names them, so the outbox sends them nothing: their mail stays the one windowed alert mail.
      expect(await dbs.old.query('select id from notification_policies')).toEqual([]);

      // Kept in step afterwards: off removes it, a new address follows.
      await dbs.old.query(`update users set email_min_severity = null where username = 'site'`);
      await dbs.old.query(`update users set email = 'agent.new@example.test' where username = 'agent'`);
      const after = await dbs.old.query<{ username: string; addresses: string[] }>(
        `select u.username, c.addresses from contact_points c join users u on u.id = c.user_id order by u.username`,
      );
      expect(after).toEqual([
        { username: 'agent', addresses: ['agent.new@example.test'] },
        { username: 'company', addresses: [expect.any(String)] },
      ]);
    }, 120_000);
  });

  describe('the profile toggle and the mail', () => {
    let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
    let t: TestApp;
    let f: FleetFixture;
    let agent: string;
    let company: string;
    let agentEmail: string;
    let token: string;

    const mine = async (tok: string, email: string) => {
      const res = await t.as(tok, { method: 'GET', url: '/api/contact-points/' });
      expect(res.statusCode, res.body).toBe(200);
      return Points.parse(res.json()).filter((p) => p.addresses.includes(email));
    };
    const setPref = async (tok: string, email_min_severity: string | null) => {
      const res = await t.as(tok, {
        method: 'PUT',
        url: '/api/user/notifications/',
        payload: { email_min_severity },
      });
      expect(res.statusCode, res.body).toBe(200);
    };

    beforeAll(async () => {
      smtp = await startSmtpServer();
      t = await buildTestApp({ SMTP_URL: smtp.url, DELIVERY_RETRY_DELAYS: '1,1,1' });
      f = await fleetFixture(t.database);
      agent = await t.login('agent');
      company = await t.login('company');
      agentEmail = (await t.as(agent, { method: 'GET', url: '/api/user/' })).json().email;
      token = await provisionDevice(t, agent, f.plainTerminalId);
    });
    afterAll(async () => {
      await t?.close();
      await smtp?.close();
    });

    it('turning alert mail on creates the contact point, off deletes it, audited', async () => {
      expect(await mine(agent, agentEmail)).toEqual([]);
      await setPref(agent, 'critical');
      const [point] = await mine(agent, agentEmail);
      expect(point).toMatchObject({ kind: 'email', addresses: [agentEmail], url: null });
      expect(point!.owner.kind).toBe('agent');
      await setPref(agent, 'major');
      expect((await mine(agent, agentEmail)).map((p) => p.id)).toEqual([point!.id]);
      await setPref(agent, null);
      expect(await mine(agent, agentEmail)).toEqual([]);
      const audits = await t.database.query<{ after: { email_min_severity: string | null } }>(
        `select after from audit_log where entity = 'alert_mail' order by id`,
      );
      expect(audits.map((a) => a.after.email_min_severity)).toEqual(['critical', 'major', null]);

      // A company user's lands in its company.
      const companyEmail = (await t.as(company, { method: 'GET', url: '/api/user/' })).json().email;
      await setPref(company, 'info');
      const [cp] = await mine(company, companyEmail);
      expect(cp!.owner.kind).toBe('company');
      // Deleting the contact point turns the preference off.
      expect(
        (await t.as(company, { method: 'DELETE', url: `/api/contact-points/${cp!.id}/` })).statusCode,
      ).toBe(200);
      expect((await t.as(company, { method: 'GET', url: '/api/user/notifications/' })).json()).toEqual({
        email_min_severity: null,
      });
    });

    it('a critical alert reaches the user once: the alert mail, not also the outbox', async () => {
      await setPref(agent, 'critical');
      const [point] = await mine(agent, agentEmail);
      const before = smtp.mails.filter((m) => m.to.includes(agentEmail)).length;
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/device/v1/events',
        headers: { authorization: `Device ${token}` },
        payload: { event_type: 14, text: 'Power supply failure: mains lost, running on battery' },
      });
      expect(res.statusCode).toBe(202);
      const later = new Date(Date.now() + MINUTE);
      await t.app.deliveries.tick(later);
      expect(await t.app.alertMail.tick(later)).toBe(1);
      await t.app.deliveries.tick(new Date(later.getTime() + MINUTE));
      const mails = smtp.mails.filter((m) => m.to.includes(agentEmail));
      expect(mails).toHaveLength(before + 1);
      expect(mails.at(-1)!.text).toMatch(/Power supply failure: mains lost/);
      expect(
        await t.database.query('select id from notification_deliveries where contact_point_id = $1', [
          point!.id,
        ]),
      ).toEqual([]);
    });
  });
});
