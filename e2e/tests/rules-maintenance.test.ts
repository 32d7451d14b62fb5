import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { screenshotDir } from '../src/harness.ts';
import { apiGet, apiSignIn, eventually, journey, type Page, shot, widget } from '../src/journey.ts';

/**
 * Alert rules and maintenance windows in the console (docs/rules-and-maintenance.md): the agent writes a rule in the
 * Rules page for a tag; a device's low reading raises its alert live on the site dashboard under the rule's name and
 * a reading over the clear level clears it; the site user declares a window from its dashboard in two clicks, and an
 * alert raised in it is hidden until "Show silenced" is on, then shown muted, and the bell does not count it.
 * `E2E_SHOTS=dir` also takes the Rules, rule editor and Maintenance pages in both themes, at 390 px and in Arabic.
 */

const rm = journey({ env: { SIMULATOR: 'off' }, timeout: 30_000 });
const TAG = 'e2e-rules';
let agent: string;
let siteToken: string;
let siteId: number;
let companyId: number;
let terminalId: number;
let device: string;

async function call(method: string, pathname: string, token: string, body?: unknown) {
  const res = await fetch(`${rm.server.url}${pathname}`, {
    method,
    headers: { authorization: `JWT ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  assert.ok(res.status < 300, `${method} ${pathname} → ${res.status} ${text}`);
  return JSON.parse(text) as unknown;
}

async function battery(value: number) {
  const res = await fetch(`${rm.server.url}/api/device/v1/telemetry`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Device ${device}` },
    body: JSON.stringify({ battery_life: value }),
  });
  assert.equal(res.status, 202, await res.text());
}

interface Alert {
  id: number;
  rule_id: number | null;
  state: string;
  silenced: boolean;
  maintenance_id: number | null;
}

const ruleAlerts = (token: string) =>
  apiGet<Alert[]>(rm.server.url, token, `/api/alerts/site/${siteId}/?event_type=100&limit_to=1000`);

async function bellCount(p: Page): Promise<number> {
  return Number(await p.locator('.fc-bell-count .mantine-Indicator-indicator').first().textContent());
}

/** Saves a screenshot under E2E_SHOTS too, when set. */
async function keep(p: Page, name: string) {
  await shot(p, name);
  const dir = process.env.E2E_SHOTS;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  copyFileSync(path.join(screenshotDir, `${name}.png`), path.join(dir, `${name}.png`));
}

describe('alert rules and maintenance windows', () => {
  before(async () => {
    agent = await apiSignIn(rm.server.url, 'agent');
    siteToken = await apiSignIn(rm.server.url, 'site');
    const me = await apiGet<{ sites: { id: number }[] }>(rm.server.url, siteToken, '/api/user/');
    siteId = me.sites[0]!.id;
    companyId = (await apiGet<{ company_id: number }>(rm.server.url, agent, `/api/site/detail/${siteId}/`))
      .company_id;
    const terminals = await apiGet<{ id: number }[]>(rm.server.url, agent, `/api/site/${siteId}/terminals/`);
    terminalId = terminals[0]!.id;
    await call('PATCH', `/api/admin/terminals/${terminalId}/`, agent, { tags: [TAG] });
    device = ((await call('POST', `/api/terminal/${terminalId}/device-token/`, agent)) as { token: string })
      .token;
  });

  it('the agent writes a rule for a tag; its alert appears live on the site dashboard and clears', async () => {
    const p = await rm.signedIn('agent', { width: 1400, height: 1000 });
    await p.goto(rm.url('/rules'));
    await p.getByRole('heading', { level: 1, name: 'Alert rules' }).waitFor();
    await p.getByRole('button', { name: 'New rule' }).click();
    const form = p.getByRole('form', { name: 'New rule' });
    await form.getByRole('textbox', { name: 'Name' }).fill('Battery low');
    const tags = form.getByRole('combobox', { name: 'Only terminals tagged' });
    await tags.fill(TAG);
    await tags.press('Enter');
    await form.getByText('Terminals reached now: 1', { exact: true }).waitFor();
    await form.getByRole('textbox', { name: 'Threshold' }).fill('20');
    await form.getByRole('textbox', { name: 'Clears at' }).fill('25');
    // The 7-day preview follows the fields as they settle.
    const preview = form.getByRole('region', { name: 'Last 7 days' });
    await preview.getByText(/^Terminals that would have fired: \d+ of 1$/).waitFor();
    await keep(p, 'rule-editor-light');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.waitFor({ state: 'hidden' });
    const row = p.getByRole('row').filter({ hasText: 'Battery low' });
    await row.getByText('Battery life < 20 · clears at 25').waitFor();

    await p.goto(rm.url(`/company/${companyId}/site/${siteId}/dashboard`));
    await p.getByRole('status', { name: 'Live' }).waitFor();
    const box = widget(p, 'Alerts');
    // Tab renders every widget below the fold at once.
    await p.keyboard.press('Tab');
    await box.waitFor();
    await battery(15);
    await box.getByText('Battery low', { exact: true }).waitFor();
    const [raised] = (await ruleAlerts(agent)).filter((a) => a.state === 'active');
    assert.ok(raised?.rule_id, 'the alert names its rule');
    assert.equal(raised.silenced, false);

    // The Rules page counts it and links to it.
    await p.goto(rm.url('/rules'));
    await p.getByRole('link', { name: 'Active alerts of Battery low: 1' }).waitFor();

    await p.goto(rm.url(`/company/${companyId}/site/${siteId}/dashboard`));
    await p.getByRole('status', { name: 'Live' }).waitFor();
    await p.keyboard.press('Tab');
    await box.getByText('Battery low', { exact: true }).waitFor();
    await battery(26);
    await box.getByText('Battery low', { exact: true }).waitFor({ state: 'hidden' });
    await p.context().close();
  });

  it('the site user declares a window from its dashboard; an alert raised in it is muted and not counted', async () => {
    const p = await rm.signedIn('site', { width: 1400, height: 1000 });
    await p.getByRole('status', { name: 'Live' }).waitFor();
    await p.getByRole('button', { name: 'Maintenance window' }).click();
    const form = p.getByRole('form', { name: 'New maintenance window' });
    await form.getByRole('textbox', { name: 'Reason' }).fill('Canopy repair');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.waitFor({ state: 'hidden' });

    const count = async () =>
      (
        await apiGet<{ count: number }>(
          rm.server.url,
          siteToken,
          `/api/alerts/site/${siteId}/count/?state=active&acknowledged=false`,
        )
      ).count;
    const before = await count();
    await battery(10);
    const silenced = await eventually('the silenced rule alert', async () =>
      (await ruleAlerts(siteToken)).find((a) => a.state === 'active' && a.silenced),
    );
    assert.ok(silenced.maintenance_id, 'the alert names its window');
    assert.equal(await count(), before, 'the bell leaves the silenced alert out');
    await eventually('the bell to show the count', async () =>
      (await bellCount(p)) === before ? true : undefined,
    );

    await p.keyboard.press('Tab');
    const box = widget(p, 'Alerts');
    await box.waitFor();
    const muted = box.locator('[data-silenced]').filter({ hasText: 'Battery low' });
    assert.equal(await muted.count(), 0, 'hidden until asked for');
    await box.getByRole('switch', { name: 'Show silenced' }).check();
    await muted.getByText('Silenced', { exact: true }).waitFor();
    const opacity = await muted.evaluate((el) => Number(getComputedStyle(el).opacity));
    assert.ok(opacity < 1, `muted (${opacity})`);
    await box.getByRole('switch', { name: 'Show silenced' }).uncheck();
    await muted.waitFor({ state: 'hidden' });

    await p.goto(rm.url('/maintenance'));
    const item = p.getByRole('listitem').filter({ hasText: 'Canopy repair' });
    await item.getByText('Active now').waitFor();
    await keep(p, 'maintenance-light');
    await p.context().close();
  });

  it('screenshots: dark theme, a phone and Arabic', { skip: !process.env.E2E_SHOTS }, async () => {
    const dark = await rm.signedIn('agent', { width: 1400, height: 1000, dark: true });
    await dark.goto(rm.url('/rules'));
    await dark.getByRole('row').filter({ hasText: 'Battery low' }).waitFor();
    await keep(dark, 'rules-dark');
    await dark.getByRole('button', { name: 'Edit rule Battery low' }).click();
    await dark
      .getByRole('form', { name: 'Edit rule Battery low' })
      .getByText('Terminals reached now: 1')
      .waitFor();
    await dark.getByText(/^Terminals that would have fired:/).waitFor();
    await keep(dark, 'rule-editor-dark');
    await dark.goto(rm.url('/maintenance'));
    await dark.getByText('Canopy repair').waitFor();
    await keep(dark, 'maintenance-dark');
    await dark.context().close();

    const phone = await rm.signedIn('agent', { width: 390, height: 844 });
    await phone.goto(rm.url('/rules'));
    await phone.getByRole('row').filter({ hasText: 'Battery low' }).waitFor();
    await keep(phone, 'rules-phone');
    await phone.getByRole('button', { name: 'New rule' }).click();
    await phone
      .getByRole('form', { name: 'New rule' })
      .getByText(/Terminals reached now/)
      .waitFor();
    await keep(phone, 'rule-editor-phone');
    await phone.getByRole('textbox', { name: 'Threshold' }).fill('30');
    await phone.getByText(/^Terminals that would have fired:/).waitFor();
    await phone.getByTestId('rule-preview').scrollIntoViewIfNeeded();
    await keep(phone, 'rule-editor-preview-phone');
    await phone.goto(rm.url('/maintenance'));
    await phone.getByText('Canopy repair').waitFor();
    await keep(phone, 'maintenance-phone');
    await phone.getByRole('button', { name: 'New maintenance window' }).click();
    await phone.getByRole('form', { name: 'New maintenance window' }).waitFor();
    await keep(phone, 'maintenance-form-phone');
    await phone.context().close();

    const ar = await rm.signedIn('agent', { width: 1400, height: 1000 });
    await ar.evaluate(() => localStorage.setItem('fc-language', 'ar'));
    await ar.goto(rm.url('/rules'));
    await ar.reload();
    await ar.getByRole('heading', { level: 1, name: 'قواعد التنبيه' }).waitFor();
    await ar.getByRole('row').filter({ hasText: 'Battery low' }).waitFor();
    await keep(ar, 'rules-arabic');
    await ar.getByRole('button', { name: 'قاعدة جديدة' }).click();
    await ar
      .getByRole('form', { name: 'قاعدة جديدة' })
      .getByText(/الأجهزة المشمولة الآن/)
      .waitFor();
    await ar.getByRole('textbox', { name: 'الحد' }).fill('30');
    await ar.getByText(/^الأجهزة التي كانت ستُطلق تنبيهًا:/).waitFor();
    await ar.getByTestId('rule-preview').scrollIntoViewIfNeeded();
    await keep(ar, 'rule-editor-arabic');
    await ar.goto(rm.url('/maintenance'));
    await ar.getByText('Canopy repair').waitFor();
    await keep(ar, 'maintenance-arabic');
    await ar.setViewportSize({ width: 390, height: 844 });
    await keep(ar, 'maintenance-arabic-phone');
    await ar.context().close();
  });
});
