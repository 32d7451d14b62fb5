import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import {
  apiGet,
  apiSignIn,
  eventually,
  journey,
  type Locator,
  type Page,
  shot,
  toCosmic,
  widget,
} from '../src/journey.ts';

/**
 * The terminal page (docs/product.md "Telemetry history"): reached from the battery widget, its charts draw what a
 * device posted through the device API, a new reading arrives on the stream and is appended without a reload, and
 * dragging across a chart narrows every chart to that time. Screenshots in both themes, at phone width and in
 * Arabic (e2e/screenshots/terminal-*.png).
 */

const tp = journey({ timeout: 30_000 });
let token: string;

async function deviceToken(terminalId: number): Promise<string> {
  const res = await fetch(`${tp.server.url}/api/terminal/${terminalId}/device-token/`, {
    method: 'POST',
    headers: { authorization: `JWT ${token}` },
  });
  const body = await res.text();
  assert.equal(res.status, 200, body);
  return (JSON.parse(body) as { token: string }).token;
}

async function postTelemetry(device: string, readings: Record<string, unknown>[]) {
  const res = await fetch(`${tp.server.url}/api/device/v1/telemetry`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Device ${device}` },
    body: JSON.stringify(readings),
  });
  assert.equal(res.status, 202, await res.text());
}

/** A time just before now: after the demo seed's last reading (made when the server started). */
const secondsAgo = (s: number) => new Date(Date.now() - s * 1000).toISOString();

/** The battery chart: its card, and the canvas chart in it (its accessible name says what it shows). */
const batteryCard = (p: Page) => p.getByRole('region', { name: 'Battery life', exact: true });
const batteryChart = (p: Page) => batteryCard(p).locator('.fc-history-chart');

async function chartState(chart: Locator) {
  return chart.evaluate((el) => ({
    label: el.getAttribute('aria-label') ?? '',
    points: Number(el.getAttribute('data-points')),
    from: Number(el.getAttribute('data-from')),
    to: Number(el.getAttribute('data-to')),
  }));
}

/** How many pixels of the chart's canvas carry the line's colour (the theme's chart colour). */
async function inkedPixels(chart: Locator): Promise<number> {
  return chart.evaluate((el) => {
    const canvas = el.querySelector('canvas');
    const ctx = canvas?.getContext('2d');
    if (!canvas || !ctx) return 0;
    const data = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
    let n = 0;
    for (let i = 3; i < data.length; i += 4) if (data[i] > 0) n++;
    return n;
  });
}

describe('the terminal page', () => {
  let siteId: number;
  let companyId: number;

  before(async () => {
    token = await apiSignIn(tp.server.url, 'agent');
    const user = await apiGet<{ companies: { id: number }[] }>(tp.server.url, token, '/api/user/');
    companyId = user.companies[0]!.id;
    const sites = await apiGet<{ id: number }[]>(tp.server.url, token, `/api/company/${companyId}/sites/`);
    siteId = sites[0]!.id;
  });

  it('opens from the battery widget; the charts show what the device posted, a new reading live, a drag zooms', async () => {
    const p = await tp.signedIn('agent', { width: 1400, height: 1000 });
    await p.goto(tp.url(`/company/${companyId}/site/${siteId}/dashboard`));
    const battery = widget(p, 'Terminal battery');
    const link = battery.getByTestId('terminal-id').getByRole('link');
    await link.waitFor();
    const number = (await link.textContent()) ?? '';
    await link.click();
    await p.waitForFunction(() => /^#\/site\/\d+\/terminal\/\d+$/.test(window.location.hash));
    const [, hashSite, hashTerminal] = /^#\/site\/(\d+)\/terminal\/(\d+)$/.exec(
      await p.evaluate(() => location.hash),
    )!;
    assert.equal(Number(hashSite), siteId);
    const terminalId = Number(hashTerminal);
    await p.getByRole('heading', { level: 1, name: `Terminal ${number}` }).waitFor();
    await p.getByRole('status', { name: 'Live' }).waitFor();

    // A device posts three readings: the page, opened again, charts them.
    const device = await deviceToken(terminalId);
    await postTelemetry(device, [
      { at: secondsAgo(3), battery_life: 31.5, temperature_main_board: 40 },
      { at: secondsAgo(2), battery_life: 24.5, temperature_main_board: 42 },
      { at: secondsAgo(1), battery_life: 17.5, temperature_main_board: 44 },
    ]);
    await p.reload();
    await p.getByRole('status', { name: 'Live' }).waitFor();
    const chart = batteryChart(p);
    await chart.waitFor();
    await eventually('the chart to draw the posted readings', async () => {
      const s = await chartState(chart);
      return s.label.includes('latest 17.5%') ? s : undefined;
    });
    const before = await chartState(chart);
    assert.ok(before.points >= 3, `the chart has the posted readings (${before.points} points)`);
    assert.ok(Math.abs(before.to - before.from - 86_400_000) < 60_000, 'the chart spans the last 24 hours');
    assert.ok((await inkedPixels(chart)) > 500, 'the line is drawn');
    await batteryCard(p).getByText('Latest 17.5%').waitFor();
    await shot(p, 'terminal-page-light');

    // A new reading arrives on the stream: appended, no reload.
    await p.evaluate(() => {
      (window as unknown as { fcSamePage: boolean }).fcSamePage = true;
    });
    await postTelemetry(device, [{ battery_life: 9.5, temperature_main_board: 45 }]);
    await eventually(
      'the new reading to be appended',
      async () => {
        const s = await chartState(chart);
        return s.label.includes('latest 9.5%') && s.points === before.points + 1 ? s : undefined;
      },
      20_000,
    );
    assert.equal(await p.evaluate(() => (window as unknown as { fcSamePage?: boolean }).fcSamePage), true);
    await p.getByRole('region', { name: 'Latest readings' }).getByText('9.5%').waitFor();

    // Dragging across the middle third of the chart narrows every chart to that time and reads it again.
    const over = chart.locator('.u-over');
    const box = await over.boundingBox();
    assert.ok(box);
    const asked = p.waitForRequest(
      (r) =>
        r.url().includes(`/api/terminal/${terminalId}/telemetry/`) && r.url().includes('signal=flash_left'),
    );
    await p.mouse.move(box.x + box.width / 3, box.y + box.height / 2);
    await p.mouse.down();
    await p.mouse.move(box.x + (box.width * 2) / 3, box.y + box.height / 2, { steps: 8 });
    await p.mouse.up();
    await p.waitForFunction(() => /[?&]from=.*&to=/.test(window.location.hash));
    const request = new URL((await asked).url());
    const span = Date.parse(request.searchParams.get('to')!) - Date.parse(request.searchParams.get('from')!);
    assert.ok(span > 6 * 3_600_000 && span < 10 * 3_600_000, `a third of 24 hours (${span / 3_600_000} h)`);
    await eventually('the chart to show the narrower range', async () => {
      const s = await chartState(chart);
      return s.to - s.from === span ? s : undefined;
    });
    // The segmented control's radios are hidden inputs under their labels.
    assert.equal(await p.getByRole('radio', { name: 'Custom' }).isChecked(), true);
    await shot(p, 'terminal-page-zoomed-light');

    // Back to a preset: 7 days.
    await p.getByText('7 d', { exact: true }).click();
    await p.waitForFunction(() => window.location.hash.endsWith('?range=7d'));
    await eventually('the 7-day chart', async () => {
      const s = await chartState(chart);
      return Math.abs(s.to - s.from - 7 * 86_400_000) < 60_000 ? s : undefined;
    });

    await toCosmic(p);
    await p.waitForTimeout(300);
    await shot(p, 'terminal-page-cosmic');
    await p.context().close();
  });

  it('every reading has a chart at phone width, and in Arabic the page mirrors while time runs left to right', async () => {
    const terminals = await apiGet<{ id: number }[]>(tp.server.url, token, `/api/site/${siteId}/terminals/`);
    const terminalId = terminals[0]!.id;
    const phone = await tp.signedIn('agent', { width: 390, height: 844 });
    await phone.goto(tp.url(`/site/${siteId}/terminal/${terminalId}`));
    for (const name of [
      'Battery life',
      'Flash drive left',
      'Board temperature',
      'Cabinet temperature',
      'Cabinet humidity',
    ]) {
      await phone.getByRole('region', { name, exact: true }).locator('.fc-history-chart canvas').waitFor();
    }
    const width = await phone.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 390, `nothing runs off the side of a phone (${width}px)`);
    await shot(phone, 'terminal-page-phone');
    await phone.context().close();

    const ar = await tp.signedIn('agent', { width: 1400, height: 1000 });
    await ar.evaluate(() => localStorage.setItem('fc-language', 'ar'));
    await ar.goto(tp.url(`/site/${siteId}/terminal/${terminalId}`));
    await ar.reload();
    await ar.getByRole('heading', { level: 1, name: /^الجهاز الطرفي / }).waitFor();
    const chart = ar.getByRole('region', { name: 'عمر البطارية', exact: true }).locator('.fc-history-chart');
    await chart.locator('canvas').waitFor();
    assert.equal(await chart.getAttribute('dir'), 'ltr', 'the chart keeps time left to right');
    const details = await ar.getByRole('region', { name: 'التفاصيل' }).boundingBox();
    const latest = await ar.getByRole('region', { name: 'أحدث القراءات' }).boundingBox();
    assert.ok(details && latest && details.x > latest.x, 'the details card sits on the right in Arabic');
    await shot(ar, 'terminal-page-arabic');
    await ar.setViewportSize({ width: 390, height: 844 });
    await shot(ar, 'terminal-page-arabic-phone');
    await ar.context().close();
  });
});
