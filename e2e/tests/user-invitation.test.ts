import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { startSmtpServer } from '@forecourt/test-support/smtp';
import { apiGet, apiSignIn, eventually, journey, signIn } from '../src/journey.ts';

/**
 * A colleague joins: the agent creates a site user in Administration → Users; the user gets the set-password
 * link by mail (a real SMTP server started here), sets a password, signs in and reaches only that site.
 */

const smtp = await startSmtpServer();
const users = journey({ env: { SMTP_URL: smtp.url, MAIL_FROM: 'forecourt@example.test' }, timeout: 30_000 });
after(() => smtp.close());

const RUN = Date.now().toString(36).slice(-5);
const USERNAME = `site-${RUN}`;
const EMAIL = `site-${RUN}@example.test`;
const PASSWORD = 'harbour-road-9';

describe('a new site user', () => {
  it('sets a password through the mailed link, signs in and sees only its site', async () => {
    const token = await apiSignIn(users.server.url, 'agent');
    const [site] = await apiGet<{ id: number; title: string; number: string; company_id: number }[]>(
      users.server.url,
      token,
      '/api/admin/sites/?limit_to=1',
    );
    const p = await users.signedIn('agent');
    await p.goto(users.url('/admin/users'));
    await p.getByRole('button', { name: 'New user' }).click();
    const form = p.getByRole('form', { name: 'New user', exact: true });
    await form.getByLabel(/^Username/).fill(USERNAME);
    await form.getByLabel(/^Email/).fill(EMAIL);
    const sites = form.getByLabel(/^Sites/);
    await sites.click();
    await sites.fill(site.title);
    await p.getByRole('option', { name: `${site.title} (${site.number})`, exact: true }).click();
    await sites.press('Escape');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.waitFor({ state: 'detached' });
    await p.getByRole('cell', { name: USERNAME, exact: true }).waitFor();
    await p.context().close();

    const mail = await eventually('the set-password mail', async () =>
      smtp.mails.find((m) => m.to.includes(EMAIL)),
    );
    const resetToken = /reset_password_token=([A-Za-z0-9._~-]+)/.exec(mail.text)?.[1];
    assert.ok(resetToken, 'the mail carries a set-password link');

    const q = await users.page();
    await q.goto(users.url(`/auth/reset-password?reset_password_token=${resetToken}`));
    await q.getByLabel('New Password', { exact: true }).fill(PASSWORD);
    await q.getByLabel('Confirm Password', { exact: true }).fill(PASSWORD);
    await q.getByRole('button', { name: 'Change password' }).click();
    await q.waitForURL(/#\/auth\/login/);
    await signIn(q, users.server.url, USERNAME, PASSWORD);
    await q.waitForURL(new RegExp(`#/company/${site.company_id}/site/${site.id}/dashboard`));

    const own = await apiSignIn(users.server.url, USERNAME, PASSWORD);
    const me = await apiGet<{ agent: number | null; companies: unknown[]; sites: { id: number }[] }>(
      users.server.url,
      own,
      '/api/user/',
    );
    assert.deepEqual(
      { agent: me.agent, companies: me.companies, sites: me.sites.map((s) => s.id) },
      { agent: null, companies: [], sites: [site.id] },
    );
    const other = await fetch(`${users.server.url}/api/admin/sites/`, {
      headers: { Authorization: `JWT ${own}` },
    });
    assert.equal(other.status, 403);
    await q.context().close();
  });
});
