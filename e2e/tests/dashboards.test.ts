import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { journey, type Page, shot, toCosmic, widget } from '../src/journey.ts';

/** Each demo user lands on its own dashboard and watches live widgets fed by the simulator. */

const { signedIn } = journey({ env: { SIMULATOR: 'on' } });

/** A table widget shows rows of live data (a header row plus at least one data row). */
async function expectRows(p: Page, name: string) {
  const table = widget(p, name).getByRole('table');
  await table.waitFor();
  await p.waitForFunction((n) => {
    const region = [...document.querySelectorAll('section')].find(
      (s) => s.querySelector('h2')?.textContent === n,
    );
    return (region?.querySelectorAll('tbody tr:not([aria-hidden])').length ?? 0) > 0;
  }, name);
}

async function expectUpdated(p: Page, name: string) {
  await widget(p, name)
    .getByText(/^Updated /)
    .waitFor();
}

describe('dashboards', () => {
  it('the agent lands on the agent dashboard with live monitoring widgets', async () => {
    const p = await signedIn('agent');
    await p.waitForFunction(() => window.location.hash === '#/agent/dashboard');
    await p.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    assert.equal(await p.getByTestId('dashboard-scope').textContent(), `Agent ${await agentId(p)}`);
    for (const name of ['Alerts', 'Connectivity', 'Hardware issues', 'Shock alert']) {
      await expectRows(p, name);
      await expectUpdated(p, name);
    }
    // Both readings of the sites counter, padded to 3 digits.
    const sites = widget(p, 'Sites online');
    await sites.getByRole('group', { name: /^Sites offline \/ total: \d{3}\/\d{3}$/ }).waitFor();
    await sites.getByRole('group', { name: /^Sites online \/ total: \d{3}\/\d{3}$/ }).waitFor();
    // Agents see the customer and site columns of hardware issues.
    const hw = widget(p, 'Hardware issues');
    await hw.getByRole('columnheader', { name: 'Customer name' }).waitFor();
    await hw.getByRole('columnheader', { name: 'Site name' }).waitFor();
    // The clock ticks.
    const clock = widget(p, 'Local time').getByRole('timer');
    const first = await clock.textContent();
    assert.match(first ?? '', /^\d{2}:\d{2}:\d{2}$/);
    await p.waitForFunction((t) => document.querySelector('[role="timer"]')?.textContent !== t, first);
    // Search filters the alerts table; an empty search shows all again.
    const alerts = widget(p, 'Alerts');
    const rowsBefore = await alerts.locator('tbody tr:not([aria-hidden])').count();
    await alerts.getByRole('textbox', { name: 'Search Alerts' }).fill('zzzz-no-such-event');
    await alerts.getByText('No matching rows').waitFor();
    await alerts.getByRole('textbox', { name: 'Search Alerts' }).fill('');
    await p.waitForFunction(
      (n) => document.querySelectorAll('section tbody tr:not([aria-hidden])').length >= n,
      rowsBefore,
    );
    assert.equal(
      await alerts.getByRole('link', { name: 'Alert log' }).getAttribute('href'),
      '#/agent/1/alert/log/'.replace('1', await agentId(p)),
    );
    await shot(p, 'dashboard-agent-light');
    await toCosmic(p);
    await shot(p, 'dashboard-agent-cosmic');
    await p.context().close();
  });

  it('the company user lands on its company dashboard', async () => {
    const p = await signedIn('company');
    await p.waitForFunction(() => /^#\/company\/\d+\/dashboard$/.test(window.location.hash));
    await p.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    await p.getByTestId('dashboard-scope').filter({ hasText: /\S/ }).waitFor();
    for (const name of ['Alerts', 'Hardware issues', 'Shock alert']) {
      await expectRows(p, name);
    }
    const conn = widget(p, 'Connectivity');
    await conn.getByRole('group', { name: /^Offline: \d+$/ }).waitFor();
    await conn.getByRole('group', { name: /^Online: \d+$/ }).waitFor();
    await widget(p, 'Local time').getByRole('timer').waitFor();
    await widget(p, 'Sites online')
      .getByRole('group', { name: /Sites offline \/ total/ })
      .waitFor();
    // Shock site names lead to the site dashboard.
    const siteLink = widget(p, 'Shock alert').locator('tbody a').first();
    assert.match((await siteLink.getAttribute('href')) ?? '', /^#\/company\/\d+\/site\/\d+\/dashboard$/);
    await shot(p, 'dashboard-company-light');
    await toCosmic(p);
    await shot(p, 'dashboard-company-cosmic');
    await p.context().close();
  });

  it('the site user lands on its site dashboard with pumps and terminal telemetry', async () => {
    const p = await signedIn('site');
    await p.waitForFunction(() => /^#\/company\/\d+\/site\/\d+\/dashboard$/.test(window.location.hash));
    const pumps = widget(p, 'Pump status');
    await pumps
      .getByRole('button', { name: /^Pump \d+/ })
      .first()
      .waitFor();
    await pumps
      .getByRole('button', { name: /^Pump \d+/ })
      .first()
      .click();
    await pumps
      .getByText(/^\d{1,2}\/\d{1,2}\/\d{4} \d{1,2}:\d{2} /)
      .first()
      .waitFor();
    for (const name of ['Terminal battery', 'Flash drive']) {
      const w = widget(p, name);
      await w.getByText(/^\d+%$/).waitFor();
      const id = await w.getByTestId('terminal-id').textContent();
      await w.getByRole('button', { name: 'Next' }).click();
      await w.getByRole('button', { name: 'Prev' }).click();
      assert.equal(await w.getByTestId('terminal-id').textContent(), id);
    }
    for (const name of ['Board temperature', 'Humidity', 'Internal temperature']) {
      await widget(p, name).getByTestId('reading').filter({ hasText: /\d/ }).waitFor();
    }
    await expectRows(p, 'Alerts');
    await shot(p, 'dashboard-site-light');
    await toCosmic(p);
    await shot(p, 'dashboard-site-cosmic');
    await p.context().close();
  });

  it('every dashboard fits a 390px-wide phone', async () => {
    for (const user of ['agent', 'company', 'site']) {
      const p = await signedIn(user, { width: 390, height: 844 });
      await widget(p, 'Alerts').getByRole('table').waitFor();
      await p.waitForTimeout(800);
      const overflow = await p.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 1, `${user} dashboard is ${overflow}px wider than the phone`);
      await shot(p, `dashboard-${user}-phone`);
      await p.context().close();
    }
  });

  it('on a phone the site dashboard does not move as its heading fills in (layout shift under 0.01)', async () => {
    const p = await signedIn('site', { width: 390, height: 844 });
    await p.context().addInitScript(() => {
      const w = window as unknown as { layoutShift: number };
      w.layoutShift = 0;
      new PerformanceObserver((list) => {
        for (const e of list.getEntries() as unknown as Array<{ value: number; hadRecentInput: boolean }>)
          if (!e.hadRecentInput) w.layoutShift += e.value;
      }).observe({ type: 'layout-shift', buffered: true });
    });
    await p.reload();
    await p.getByTestId('site-availability').waitFor();
    await p.getByRole('button', { name: 'Maintenance window' }).waitFor();
    await widget(p, 'Aerial map').waitFor();
    await p.waitForTimeout(500);
    const shift = await p.evaluate(() => (window as unknown as { layoutShift: number }).layoutShift);
    assert.ok(shift < 0.01, `the site dashboard moved as it loaded: layout shift ${shift.toFixed(4)}`);
    await p.context().close();
  });
});

async function agentId(p: Page): Promise<string> {
  return p.evaluate(() => String(JSON.parse(localStorage.getItem('user') ?? '{}').agent));
}
