import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, describe, it } from 'node:test';
import { parseCsv } from '@forecourt/test-support/csv';
import { journey, networkQuiet, type Page, shot, watchNetwork } from '../src/journey.ts';

/**
 * The log screens behind every widget link, in both forms a user meets (hash routes and plain paths),
 * with CSV exports that match the table; and the profile page.
 */

const logs = journey();
const { signedIn } = logs;

/** Every log screen the widgets link to (docs/product.md#log-screens-and-widget-links; ids of the demo fleet), with its title. */
const SCREENS: Array<{ path: string; title: string; csv: string }> = [
  { path: 'agent/1/alert/log/', title: 'Alert log', csv: 'alert-log-agent-1.csv' },
  { path: 'company/1/alert/log/', title: 'Alert log', csv: 'alert-log-company-1.csv' },
  { path: 'site/1/alert/log/', title: 'Alert log', csv: 'alert-log-site-1.csv' },
  { path: 'agent/1/connectivity/log', title: 'Connectivity log', csv: 'connectivity-log-agent-1.csv' },
  { path: 'company/1/connectivity/log', title: 'Connectivity log', csv: 'connectivity-log-company-1.csv' },
  {
    path: 'site/1/pump/activation/log/',
    title: 'Pump activation log',
    csv: 'pump-activation-log-site-1.csv',
  },
  { path: 'site/1/pump/status/log', title: 'Pump status log', csv: 'pump-status-log-site-1.csv' },
  { path: 'company/1/shock/alert/log', title: 'Shock alert log', csv: 'shock-log-company-1.csv' },
  { path: 'site/1/terminal/battery/log', title: 'Battery log', csv: 'battery-log-site-1.csv' },
  { path: 'site/1/terminal/environment/log', title: 'Environment log', csv: 'environment-log-site-1.csv' },
  { path: 'site/1/terminal/flashdrive/log', title: 'Flash drive log', csv: 'flashdrive-log-site-1.csv' },
  {
    path: 'company/1/site/1/terminal/hardware/log/',
    title: 'Hardware log',
    csv: 'hardware-log-company-1-site-1.csv',
  },
  { path: 'agent/1/terminal/reboot/log/', title: 'Reboot log', csv: 'reboot-log-agent-1.csv' },
  { path: 'company/1/terminal/reboot/log/', title: 'Reboot log', csv: 'reboot-log-company-1.csv' },
  { path: 'site/1/terminal/reboot/log/', title: 'Reboot log', csv: 'reboot-log-site-1.csv' },
];

const toggleSlash = (p: string) => (p.endsWith('/') ? p.slice(0, -1) : `${p}/`);

async function tableIds(p: Page): Promise<string[]> {
  return p
    .locator('tbody tr[data-row-id]')
    .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-row-id') ?? ''));
}

async function openLog(p: Page, title: string) {
  await p.getByRole('heading', { level: 1, name: title }).waitFor();
  await p.locator('tbody tr[data-row-id]').first().waitFor();
}

describe('log screens', () => {
  let agent: Page;
  before(async () => {
    agent = await signedIn('agent');
  });

  for (const screen of SCREENS) {
    it(`${screen.path}: hash and plain forms show the same rows, and the CSV matches the table`, async () => {
      await agent.goto(`${logs.server.url}/#/${screen.path}`);
      await openLog(agent, screen.title);
      const ids = await tableIds(agent);
      assert.ok(ids.length > 0, 'rows from the demo data');
      assert.match(await agent.getByTestId('log-zone').innerText(), /Europe\/London/);

      // The plain path typed into the address bar, with and without the trailing slash.
      for (const plain of [screen.path, toggleSlash(screen.path)]) {
        await agent.goto(`${logs.server.url}/${plain}`);
        await agent.waitForFunction((h) => window.location.hash === h, `#/${plain}`);
        assert.equal(new URL(agent.url()).pathname, '/');
        await openLog(agent, screen.title);
        assert.deepEqual((await tableIds(agent)).slice(0, 10), ids.slice(0, 10));
      }

      const [download] = await Promise.all([
        agent.waitForEvent('download'),
        agent.getByRole('button', { name: 'Export CSV' }).click(),
      ]);
      assert.equal(download.suggestedFilename(), screen.csv);
      const file = await download.path();
      const csv = parseCsv(readFileSync(file, 'utf8'));
      assert.equal(csv[0]?.[0], 'id');
      const shown = await tableIds(agent);
      assert.deepEqual(
        csv.slice(1).map((r) => r[0]),
        shown,
        'the CSV has exactly the rows of the table, in order',
      );
    });
  }

  it('filters and search live in the URL: a copied link reopens the same view, and the CSV follows them', async () => {
    await agent.goto(`${logs.server.url}/#/agent/1/alert/log/`);
    await openLog(agent, 'Alert log');
    await agent.getByLabel('Search the log').fill('printer');
    await agent.waitForFunction(() => window.location.hash.includes('q=printer'));
    await agent.waitForFunction(() => {
      const cells = [...document.querySelectorAll('tbody tr[data-row-id] td:nth-child(2)')];
      return cells.length > 0 && cells.every((c) => /printer/i.test(c.textContent ?? ''));
    });
    const link = agent.url();
    const ids = await tableIds(agent);

    const other = await await agent.context().newPage();
    await other.goto(link);
    await openLog(other, 'Alert log');
    assert.equal(await other.getByLabel('Search the log').inputValue(), 'printer');
    assert.deepEqual(await tableIds(other), ids);

    const [download] = await Promise.all([
      other.waitForEvent('download'),
      other.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    const csv = parseCsv(readFileSync(await download.path(), 'utf8'));
    const text = csv[0]?.indexOf('text') ?? -1;
    assert.ok(text >= 0);
    assert.deepEqual(
      csv.slice(1).map((r) => r[0]),
      ids,
    );
    for (const row of csv.slice(1)) assert.match(row[text] ?? '', /printer/i);
    await other.close();
  });

  it('a plain path keeps its query string: the filters arrive with it', async () => {
    await agent.goto(`${logs.server.url}/site/1/pump/status/log/?abnormal=true&pump=2`);
    await agent.waitForFunction(
      () => window.location.hash === '#/site/1/pump/status/log/?abnormal=true&pump=2',
    );
    await openLog(agent, 'Pump status log');
    assert.equal(await agent.getByLabel('Only abnormal (not 4000)').isChecked(), true);
    assert.equal(await agent.getByLabel('Pump number').inputValue(), '2');
    const pumps = await agent.locator('tbody tr[data-row-id] td:nth-child(2)').allInnerTexts();
    assert.ok(pumps.length > 0 && pumps.every((p) => p.trim() === '2'), `only pump 2: ${pumps.join(',')}`);
    const codes = await agent.locator('tbody tr[data-row-id] td:nth-child(3)').allInnerTexts();
    assert.ok(
      codes.every((c) => c.trim() !== '4000'),
      'only abnormal entries',
    );
  });

  it('Load more follows the cursor to older rows', async () => {
    await agent.goto(`${logs.server.url}/#/agent/1/alert/log/?limit_to=25`);
    await openLog(agent, 'Alert log');
    const first = await tableIds(agent);
    assert.equal(first.length, 25);
    await agent.getByRole('button', { name: 'Load more' }).click();
    await agent.waitForFunction(() => document.querySelectorAll('tbody tr[data-row-id]').length === 50);
    const all = await tableIds(agent);
    assert.deepEqual(all.slice(0, 25), first);
    assert.ok(Number(all[25]) < Number(first[24]), 'the next page is older');
  });

  it('screenshots: light, cosmic and 390px', async () => {
    await agent.setViewportSize({ width: 1366, height: 900 });
    await agent.goto(`${logs.server.url}/#/agent/1/alert/log/`);
    await openLog(agent, 'Alert log');
    await shot(agent, 'log-alert-agent-light');
    await agent.goto(`${logs.server.url}/#/site/1/pump/status/log?abnormal=true`);
    await openLog(agent, 'Pump status log');
    await shot(agent, 'log-pump-status-light');

    const dark = await signedIn('agent', { dark: true });
    await dark.goto(`${logs.server.url}/#/company/1/site/1/terminal/hardware/log/`);
    await openLog(dark, 'Hardware log');
    await shot(dark, 'log-hardware-cosmic');
    await dark.goto(`${logs.server.url}/#/site/1/terminal/reboot/log/`);
    await openLog(dark, 'Reboot log');
    await shot(dark, 'log-reboot-cosmic');
    await dark.context().close();

    const small = await signedIn('agent', { width: 390 });
    await small.goto(`${logs.server.url}/#/company/1/shock/alert/log`);
    await openLog(small, 'Shock alert log');
    await shot(small, 'log-shock-390', 'view');
    await small.getByRole('button', { name: 'Filters' }).click();
    await shot(small, 'log-shock-390-filters', 'view');
    await small.goto(`${logs.server.url}/#/site/1/terminal/environment/log`);
    await openLog(small, 'Environment log');
    await shot(small, 'log-environment-390', 'view');
    await small.context().close();
  });
});

describe('widget links', () => {
  it('every log link on the dashboards opens its log screen', async () => {
    const p = await signedIn('agent');
    watchNetwork(p);
    const hrefs = new Set<string>();
    for (const dashboard of ['agent/dashboard', 'company/1/dashboard', 'company/1/site/1/dashboard']) {
      await p.goto(`${logs.server.url}/#/${dashboard}`);
      await networkQuiet(p);
      await p.waitForTimeout(1500);
      for (const href of await p
        .locator('main a[href*="/log"]')
        .evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? '')))
        hrefs.add(href);
    }
    assert.ok(hrefs.size >= 8, `log links found on the dashboards: ${[...hrefs].join(' ')}`);
    for (const href of hrefs) {
      await p.goto(`${logs.server.url}/${href.startsWith('#') ? href : `#${href}`}`);
      await p.getByRole('heading', { level: 1, name: / log$/ }).waitFor();
      await p.locator('tbody tr[data-row-id]').or(p.getByText('No entries yet.')).first().waitFor();
    }
    await p.context().close();
  });
});

describe('log scope', () => {
  it('a company user outside its company sees a clear not-allowed message', async () => {
    const p = await signedIn('company');
    await p.goto(`${logs.server.url}/#/company/2/alert/log/`);
    await p.getByRole('heading', { level: 1, name: 'Alert log' }).waitFor();
    await p.getByText('Not allowed', { exact: true }).waitFor();
    await p.getByText('You are not allowed to see this log', { exact: false }).waitFor();
    await shot(p, 'log-not-allowed');
    // Its own company's log opens.
    await p.goto(`${logs.server.url}/company/1/alert/log`);
    await openLog(p, 'Alert log');
    await p.context().close();
  });
});

describe('profile', () => {
  it('shows the user, updates the profile and changes the password end to end', async () => {
    const p = await signedIn('site');
    await p.goto(`${logs.server.url}/#/profile`);
    await p.getByRole('heading', { level: 1, name: 'Profile' }).waitFor();
    assert.equal(await p.getByTestId('profile-name').innerText(), 'Sam Site');
    assert.equal(await p.getByTestId('profile-email').innerText(), 'site@forecourt.local');
    await shot(p, 'profile-light');

    const profile = p.getByRole('form', { name: 'Edit profile' });
    await profile.getByLabel('Full name').fill('ab');
    await profile.getByLabel('Email address').click();
    await profile.getByText('Full name should contains from 4 to 50 characters').waitFor();
    await profile.getByLabel('Full name').fill('Samantha Site');
    await profile.getByLabel('Email address').fill('samantha@forecourt.local');
    // A new email address needs the current password: a stolen session alone cannot take the account.
    await profile.getByLabel(/^Current password/).fill('demo1234');
    await profile.getByRole('button', { name: 'Save profile' }).click();
    await profile.getByText('Your profile has been successfully updated.').waitFor();
    assert.equal(await p.getByTestId('profile-name').innerText(), 'Samantha Site');
    assert.equal(await p.getByTestId('profile-email').innerText(), 'samantha@forecourt.local');

    const password = p.getByRole('form', { name: 'Change password' });
    await password.getByLabel('New Password', { exact: true }).fill('ab');
    await password.getByLabel('Confirm Password', { exact: true }).click();
    await password.getByText('Password should contains from 4 to 50 characters').waitFor();
    await password.getByLabel('New Password', { exact: true }).fill('newpass1');
    await password.getByLabel('Confirm Password', { exact: true }).fill('newpass2');
    await password.getByLabel('New Password', { exact: true }).click();
    await password.getByText('Password does not match the confirm password.').waitFor();
    await password.getByLabel('Confirm Password', { exact: true }).fill('newpass1');
    await password.getByLabel(/^Current password/).fill('demo1234');
    await password.getByRole('button', { name: 'Change password' }).click();
    await password.getByText('Your password has been successfully changed.').waitFor();
    // The session goes on with the fresh token.
    await p.reload();
    await p.getByRole('heading', { level: 1, name: 'Profile' }).waitFor();
    assert.equal(await p.getByTestId('profile-name').innerText(), 'Samantha Site');
    await p.context().close();

    // The new password signs in; the old one no longer does.
    const again = await signedIn('site', { password: 'newpass1' });
    await again.goto(`${logs.server.url}/profile`);
    await again.getByRole('heading', { level: 1, name: 'Profile' }).waitFor();
    assert.equal(await again.getByTestId('profile-name').innerText(), 'Samantha Site');
    await again.context().close();
    const res = await fetch(`${logs.server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'site', password: 'demo1234' }),
    });
    assert.notEqual(res.status, 200);
  });

  it('screenshots: cosmic and 390px', async () => {
    const dark = await signedIn('agent', { dark: true });
    await dark.goto(`${logs.server.url}/#/profile`);
    await dark.getByRole('heading', { level: 1, name: 'Profile' }).waitFor();
    await shot(dark, 'profile-cosmic');
    await dark.context().close();
    const small = await signedIn('agent', { width: 390 });
    await small.goto(`${logs.server.url}/#/profile`);
    await small.getByRole('heading', { level: 1, name: 'Profile' }).waitFor();
    await shot(small, 'profile-390');
    await small.context().close();
  });
});
