import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { apiGet, apiSignIn, eventually, journey, type Page, shot, toCosmic, widget } from '../src/journey.ts';

/**
 * The alert lifecycle (docs/product.md#alert-lifecycle) in Chromium on the demo fleet: acknowledging with a
 * note shows who and when in the widget and the log and lowers the bell; a device clearing its condition takes
 * the alert out of the active view; the by-site view puts the busiest site first.
 */

const alerts = journey({ env: { SIMULATOR: 'off' }, timeout: 30_000 });
let token: string;
let agentId: number;

const SEVERITIES = ['critical', 'major', 'minor', 'info'];

interface Alert {
  id: number;
  text: string;
  site_id: number;
  site_name: string;
  severity: string;
  started_at: string;
  acknowledged_at: string | null;
}

const get = <T>(pathname: string) => apiGet<T>(alerts.server.url, token, pathname);

async function bellCount(p: Page): Promise<number> {
  const text = await p.locator('.fc-bell-count .mantine-Indicator-indicator').first().textContent();
  return Number(text);
}

async function device(deviceToken: string, body: unknown) {
  const res = await fetch(`${alerts.server.url}/api/device/v1/events`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Device ${deviceToken}` },
    body: JSON.stringify(body),
  });
  assert.equal(res.status, 202, await res.text());
}

describe('alert lifecycle', () => {
  before(async () => {
    token = await apiSignIn(alerts.server.url, 'agent');
    agentId = (await get<{ agent: number }>('/api/user/')).agent;
  });

  it('the agent acknowledges an alert with a note: name and time on the row, in the log, and the bell drops', async () => {
    const p = await alerts.signedIn('agent', { width: 1400, height: 1000 });
    const box = widget(p, 'Alerts');
    const button = box.getByRole('button', { name: /^Ack: / }).first();
    await button.waitFor();
    const before = await eventually('the bell count', async () => {
      const n = await bellCount(p);
      return n > 0 ? n : undefined;
    });
    const label = (await button.getAttribute('aria-label'))!;
    const text = label.replace(/^Ack: /, '');
    await shot(p, 'alerts-widget-light', box);
    await button.click();
    await p.getByRole('textbox', { name: 'Note (optional)' }).fill('Engineer on site at 3 pm');
    await p.getByRole('button', { name: 'Acknowledge', exact: true }).click();
    await box
      .getByText(/^agent · /)
      .first()
      .waitFor();
    await box.getByText('Engineer on site at 3 pm').first().waitFor();
    const active = await get<Alert[]>(`/api/alerts/agent/${agentId}/?acknowledged=true&limit_to=1000`);
    const acked = active.find((a) => a.text === text);
    assert.ok(acked?.acknowledged_at, `the alert "${text}" is acknowledged`);

    await eventually('the bell count to drop by one', async () =>
      (await bellCount(p)) === before - 1 ? true : undefined,
    );

    await p.goto(alerts.url(`/agent/${agentId}/alert/log?acknowledged=true`));
    await p.getByRole('heading', { level: 1, name: 'Alert log' }).waitFor();
    const row = p.getByRole('row').filter({ hasText: text }).first();
    await row.getByText(/^agent · /).waitFor();
    await row.getByText('Engineer on site at 3 pm').waitFor();
    await shot(p, 'alerts-log-acknowledged', 'view');
  });

  it('a device clears its condition and the alert leaves the active view, staying in the log', async () => {
    const user = await get<{ companies: { id: number }[] }>('/api/user/');
    const companyId = user.companies[0]!.id;
    const sites = await get<{ id: number }[]>(`/api/company/${companyId}/sites/`);
    const siteId = sites[0]!.id;
    const terminals = await get<{ id: number; terminal_id: string }[]>(`/api/site/${siteId}/terminals/`);
    const res = await fetch(`${alerts.server.url}/api/terminal/${terminals[0]!.id}/device-token/`, {
      method: 'POST',
      headers: { authorization: `JWT ${token}` },
    });
    assert.equal(res.status, 200);
    const { token: deviceToken } = (await res.json()) as { token: string };
    const text = 'Display failure: e2e backlight fault';
    await device(deviceToken, { event_type: 13, text });

    const p = await alerts.signedIn('agent', { width: 1400, height: 1000 });
    await p.goto(alerts.url(`/company/${companyId}/site/${siteId}/dashboard`));
    const box = widget(p, 'Alerts');
    const ack = box.getByRole('button', { name: `Ack: ${text}` });
    await ack.waitFor();
    await widget(p, 'Hardware issues')
      .getByRole('button', { name: `Ack: ${text}` })
      .waitFor();
    await shot(p, 'hardware-issues-widget-light', widget(p, 'Hardware issues'));

    await device(deviceToken, { event_type: 13, clear: true });
    await ack.waitFor({ state: 'detached', timeout: 60_000 });
    await p.goto(alerts.url(`/site/${siteId}/alert/log?state=cleared`));
    await p.getByRole('row').filter({ hasText: text }).first().getByText('Cleared').waitFor();
  });

  it('the by-site view shows the demo’s busiest site first and opens its active alert log', async () => {
    const active = await get<Alert[]>(`/api/alerts/agent/${agentId}/?state=active&limit_to=1000`);
    const bySite = new Map<number, { title: string; worst: number; open: number; count: number }>();
    for (const a of active) {
      const s = bySite.get(a.site_id) ?? { title: a.site_name, worst: 9, open: 0, count: 0 };
      s.worst = Math.min(s.worst, SEVERITIES.indexOf(a.severity));
      s.count += 1;
      if (!a.acknowledged_at) s.open += 1;
      bySite.set(a.site_id, s);
    }
    const ranked = [...bySite.entries()].sort(
      ([, a], [, b]) => a.worst - b.worst || b.open - a.open || b.count - a.count,
    );
    const [busiestId, busiest] = ranked[0]!;

    const p = await alerts.signedIn('agent', { width: 1400, height: 1000 });
    const box = widget(p, 'Alerts');
    await box.getByText('By site', { exact: true }).click();
    const first = box.getByRole('table', { name: 'By site' }).getByRole('link').first();
    await first.waitFor();
    assert.equal((await first.textContent())?.trim(), busiest.title);
    await shot(p, 'alerts-by-site-light', box);
    await first.click();
    await p.waitForFunction(
      (id) =>
        window.location.hash.startsWith(`#/site/${id}/alert/log`) &&
        window.location.hash.includes('state=active'),
      busiestId,
    );
    await p.getByRole('heading', { level: 1, name: 'Alert log' }).waitFor();
    await p.getByRole('row').filter({ hasText: 'Active' }).first().waitFor();
  });

  it('screenshots: the widgets in the cosmic theme and at phone width', async () => {
    const dark = await alerts.signedIn('agent', { width: 1400, height: 1000 });
    await toCosmic(dark);
    const box = widget(dark, 'Alerts');
    await box.getByRole('table', { name: 'Alerts' }).waitFor();
    await shot(dark, 'alerts-widget-cosmic', box);
    await shot(dark, 'hardware-issues-widget-cosmic', widget(dark, 'Hardware issues'));
    await box.getByText('By site', { exact: true }).click();
    await box.getByRole('table', { name: 'By site' }).getByRole('link').first().waitFor();
    await shot(dark, 'alerts-by-site-cosmic', box);
    await dark.getByRole('button', { name: 'Notifications' }).click();
    await dark.getByRole('dialog', { name: 'Notifications' }).waitFor();
    await shot(dark, 'alerts-bell-cosmic', 'view');

    const phone = await alerts.signedIn('agent', { width: 390, height: 844 });
    const small = widget(phone, 'Alerts');
    await small.getByRole('table', { name: 'Alerts' }).waitFor();
    await shot(phone, 'alerts-widget-phone', small);
    await small
      .getByRole('button', { name: /^Ack: / })
      .first()
      .click();
    await phone.getByRole('textbox', { name: 'Note (optional)' }).waitFor();
    await shot(phone, 'alerts-ack-phone', 'view');
    await phone.keyboard.press('Escape');
    await small.getByText('By site', { exact: true }).click();
    await small.getByRole('table', { name: 'By site' }).getByRole('link').first().waitFor();
    await shot(phone, 'alerts-by-site-phone', small);
    await shot(phone, 'hardware-issues-widget-phone', widget(phone, 'Hardware issues'));
  });
});
