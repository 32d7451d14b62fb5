import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Locator } from 'playwright-core';
import {
  type Browser,
  launchBrowser,
  newContext,
  type Page,
  type RunningServer,
  repoRoot,
  screenshot,
  signIn,
  startServer,
} from '../src/harness.ts';

/**
 * Maps, transaction activity and weather on the live dashboards. Tiles, weather and geocoding point
 * at a closed local port, so every run sees what a machine without network sees: markers on a plain
 * background with a note, and a clear "weather service is unavailable".
 */

const NOWHERE = 'http://127.0.0.1:9';

let server: RunningServer;
let browser: Browser;

before(async () => {
  if (!existsSync(path.join(repoRoot, 'apps/web/dist/index.html'))) {
    execFileSync('npm', ['run', 'build', '-w', 'apps/web'], { cwd: repoRoot, stdio: 'inherit' });
  }
  server = await startServer({
    SIMULATOR: 'on',
    TILE_URL_ROAD: `${NOWHERE}/road/{z}/{x}/{y}.png`,
    TILE_URL_SATELLITE: `${NOWHERE}/satellite/{z}/{y}/{x}`,
    WEATHER_URL: NOWHERE,
    GEO_URL: NOWHERE,
  });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

async function page(opts: { width?: number; height?: number; dark?: boolean } = {}): Promise<Page> {
  const context = await newContext(browser, opts);
  const p = await context.newPage();
  p.setDefaultTimeout(25_000);
  return p;
}

const widget = (p: Page, name: string) => p.getByRole('region', { name, exact: true });

async function toCosmic(p: Page) {
  await p.getByRole('button', { name: 'Settings' }).click();
  const settings = p.getByRole('dialog', { name: 'Settings' });
  await settings.getByRole('switch', { name: 'Cosmic' }).check();
  await p.waitForFunction(() => document.documentElement.dataset.mantineColorScheme === 'dark');
  await settings.getByRole('button', { name: 'Close settings' }).click();
  await settings.waitFor({ state: 'hidden' });
}

async function shoot(p: Page, name: string, target?: Locator) {
  await p.waitForTimeout(600);
  if (target) {
    // Centred, clear of the sticky page header.
    await target.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await p.waitForTimeout(200);
    await target.screenshot({ path: path.join(repoRoot, 'e2e', 'screenshots', `${name}.png`) });
  } else {
    await screenshot(p, name);
  }
}

/** The map draws markers (Leaflet marker elements with an accessible name) even without tiles. */
async function expectMarkers(map: Locator): Promise<number> {
  await map.locator('.leaflet-marker-icon[aria-label]').first().waitFor();
  const count = await map.locator('.leaflet-marker-icon[aria-label]').count();
  assert.ok(count > 0);
  await map.getByText('Map tiles are unavailable').waitFor();
  return count;
}

async function expectWeatherUnavailable(p: Page) {
  const weather = widget(p, 'Weather');
  await weather.getByText('The weather service is unavailable.').waitFor();
  const box = await weather.boundingBox();
  assert.equal(Math.round(box?.height ?? 0), 220, 'weather box is 220 px high');
}

/** How many pixels of a canvas are painted (not transparent). */
async function inkedPixels(canvas: Locator): Promise<number> {
  return canvas.evaluate((el) => {
    const c = el as HTMLCanvasElement;
    const ctx = c.getContext('2d');
    if (!ctx || !c.width || !c.height) return 0;
    const data = ctx.getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 3; i < data.length; i += 4) if (data[i] > 0) n++;
    return n;
  });
}

describe('live widgets: maps, transaction activity, weather', () => {
  it('agent: the company map clusters every terminal of the agent, weather says it is unavailable', async () => {
    const p = await page();
    await signIn(p, server.url, 'agent');
    const map = widget(p, 'Active terminals');
    await expectMarkers(map);
    // Clusters (or single terminals) carry a state colour; a cluster says how many it holds.
    const labels = await map
      .locator('.leaflet-marker-icon[aria-label]')
      .evaluateAll((els) => els.map((e) => `${e.getAttribute('aria-label')}|${e.className}`));
    assert.ok(
      labels.every((l) => /fc-marker-(green|red|yellow)/.test(l)),
      `every marker has a state colour: ${labels.join(', ')}`,
    );
    await shoot(p, 'widgets-agent-map-light', map);
    const cluster = map.locator('.leaflet-marker-icon.fc-cluster').first();
    if (await cluster.count()) {
      const before = await map.locator('.leaflet-marker-icon[aria-label]').count();
      const label = (await cluster.getAttribute('aria-label')) ?? '';
      assert.match(label, /^\d+ terminals, worst state: (online|offline|unknown)$/);
      await cluster.click();
      await p.waitForFunction(
        (n) =>
          document.querySelectorAll('[data-testid="company-map-canvas"] .leaflet-marker-icon[aria-label]')
            .length !== n || document.querySelector('[data-testid="company-map-canvas"] .fc-pin') !== null,
        before,
      );
    }
    await map.getByText(/^Updated /).waitFor();
    await expectWeatherUnavailable(p);
    await shoot(p, 'widgets-agent-map-zoomed-light', map);
    await shoot(p, 'widgets-agent-weather-light', widget(p, 'Weather'));
    await toCosmic(p);
    await shoot(p, 'widgets-agent-map-cosmic', map);
    await shoot(p, 'widgets-agent-weather-cosmic', widget(p, 'Weather'));
    await p.context().close();
  });

  it('company: the company map shows its terminals and the weather its unavailability', async () => {
    const p = await page();
    await signIn(p, server.url, 'company');
    await p.waitForFunction(() => /^#\/company\/\d+\/dashboard$/.test(window.location.hash));
    const companyId = await p.evaluate(() => window.location.hash.split('/')[2]);
    const map = widget(p, 'Active terminals');
    await expectMarkers(map);
    // Several sites: all in view (fitted); one site would be zoom 9.
    assert.ok(Number(await map.getByTestId('company-map-canvas').getAttribute('data-zoom')) > 0);
    // The map reads the company's own terminals.
    const res = await p.evaluate(async (id) => {
      const token = localStorage.getItem('auth_app_token');
      const r = await fetch(`/api/company/${id}/map/terminals/`, {
        headers: { Authorization: `JWT ${token}` },
      });
      return r.status;
    }, companyId);
    assert.equal(res, 200);
    await expectWeatherUnavailable(p);
    await shoot(p, 'widgets-company-map-light', map);
    await toCosmic(p);
    await shoot(p, 'widgets-company-map-cosmic', map);
    await p.context().close();
  });

  it('site: the aerial map shows the terminals, the transaction charts draw, the weather is unavailable', async () => {
    const p = await page();
    await signIn(p, server.url, 'site');
    await p.waitForFunction(() => /^#\/company\/\d+\/site\/\d+\/dashboard$/.test(window.location.hash));
    const aerial = widget(p, 'Aerial map');
    const markers = await expectMarkers(aerial);
    const labels = await aerial
      .locator('.leaflet-marker-icon[aria-label]')
      .evaluateAll((els) => els.map((e) => `${e.getAttribute('aria-label')}|${e.className}`));
    for (const l of labels) {
      const [, state] = /: (online|offline|unknown)\|/.exec(l) ?? [];
      const colour = { online: 'green', offline: 'red', unknown: 'yellow' }[state ?? ''];
      assert.ok(colour && l.includes(`fc-marker-${colour}`), `marker colour follows its state: ${l}`);
    }
    assert.ok(markers >= 1);
    assert.equal(await aerial.getByTestId('aerial-map-canvas').getAttribute('data-zoom'), '18');

    const activity = widget(p, 'Transaction activity');
    const hour = activity.getByRole('img', { name: /^Transactions, Last hour: / });
    const day = activity.getByRole('img', { name: /^Transactions, Last 24 hours: / });
    await hour.waitFor();
    await day.waitFor();
    await p.waitForTimeout(800); // the bars grow in (300 ms animation)
    assert.ok((await inkedPixels(hour)) > 500, 'last hour chart is drawn');
    assert.ok((await inkedPixels(day)) > 500, 'last 24 hours chart is drawn');
    const box = await activity.boundingBox();
    assert.equal(Math.round(box?.height ?? 0), 450, 'transaction activity box is 450 px high');
    await expectWeatherUnavailable(p);

    await shoot(p, 'widgets-site-aerial-light', aerial);
    await shoot(p, 'widgets-site-transactions-light', activity);
    await toCosmic(p);
    await shoot(p, 'widgets-site-aerial-cosmic', aerial);
    await shoot(p, 'widgets-site-transactions-cosmic', activity);
    await shoot(p, 'widgets-site-weather-cosmic', widget(p, 'Weather'));
    await p.context().close();
  });

  it('on a 390px-wide phone the maps, charts and weather fit the screen', async () => {
    for (const user of ['agent', 'site'] as const) {
      const p = await page({ width: 390, height: 844 });
      await signIn(p, server.url, user);
      const map = widget(p, user === 'agent' ? 'Active terminals' : 'Aerial map');
      await expectMarkers(map);
      await expectWeatherUnavailable(p);
      if (user === 'site') {
        await widget(p, 'Transaction activity')
          .getByRole('img', { name: /Last hour/ })
          .waitFor();
      }
      for (const name of [
        user === 'agent' ? 'Active terminals' : 'Aerial map',
        'Weather',
        ...(user === 'site' ? ['Transaction activity'] : []),
      ]) {
        const b = await widget(p, name).boundingBox();
        assert.ok(b && b.x >= 0 && b.x + b.width <= 391, `${name} fits 390 px (${JSON.stringify(b)})`);
      }
      await shoot(p, `widgets-${user}-map-phone`, map);
      await shoot(p, `widgets-${user}-weather-phone`, widget(p, 'Weather'));
      if (user === 'site')
        await shoot(p, 'widgets-site-transactions-phone', widget(p, 'Transaction activity'));
      await p.context().close();
    }
  });
});
