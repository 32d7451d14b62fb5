import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { journey, type Locator, type Page, shot, signIn, toCosmic, widget } from '../src/journey.ts';

/**
 * Maps, transaction activity and weather on the live dashboards. Tiles, weather and geocoding point
 * at a closed local port, so every run sees what a machine without network sees: markers on a plain
 * background with a note, and a weather widget that says the server cannot reach the weather service, without
 * ever asking for a forecast or a place name (each 503 would be a console error).
 */

const NOWHERE = 'http://127.0.0.1:9';

const journeyOf = journey({
  env: {
    SIMULATOR: 'on',
    TILE_URL_ROAD: `${NOWHERE}/road/{z}/{x}/{y}.png`,
    TILE_URL_SATELLITE: `${NOWHERE}/satellite/{z}/{y}/{x}`,
    WEATHER_URL: NOWHERE,
    GEO_URL: NOWHERE,
  },
  timeout: 25_000,
});
const { signedIn } = journeyOf;

/** The map draws markers (Leaflet marker elements with an accessible name) even without tiles. */
async function expectMarkers(map: Locator): Promise<number> {
  await map.locator('.leaflet-marker-icon[aria-label]').first().waitFor();
  const count = await map.locator('.leaflet-marker-icon[aria-label]').count();
  assert.ok(count > 0);
  await map.getByText('Map tiles are unavailable').waitFor();
  return count;
}

async function expectWeatherUnreachable(p: Page) {
  const weather = widget(p, 'Weather');
  await weather.getByText('The server cannot reach the weather service.').waitFor();
  const box = await weather.boundingBox();
  assert.equal(Math.round(box?.height ?? 0), 220, 'weather box is 220 px high');
  const asked = await p.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .map((e) => e.name)
      .filter((url) => /\/api\/(weather|geo\/reverse)\//.test(url)),
  );
  assert.deepEqual(asked, [], 'no forecast or place name is asked for');
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
    const p = await signedIn('agent');
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
    await shot(p, 'widgets-agent-map-light', map);
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
    await expectWeatherUnreachable(p);
    await shot(p, 'widgets-agent-map-zoomed-light', map);
    await shot(p, 'widgets-agent-weather-light', widget(p, 'Weather'));
    await toCosmic(p);
    await shot(p, 'widgets-agent-map-cosmic', map);
    await shot(p, 'widgets-agent-weather-cosmic', widget(p, 'Weather'));
    await p.context().close();
  });

  it('agent: 20,000 terminals are clustered in a worker, every one counted, and a cluster opens on click', async () => {
    const { page, server } = journeyOf;
    const p = await page();
    const errors: string[] = [];
    p.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    const workers: string[] = [];
    p.on('worker', (w) => workers.push(w.url()));
    // The agent's map answered with 5,000 sites of 4 terminals over Great Britain (the contract's shape).
    const sites = Array.from({ length: 5_000 }, (_, s) => {
      const lat = 50.5 + ((s * 7919) % 7000) / 1000;
      const lng = -5.5 + ((s * 104729) % 7000) / 1000;
      return {
        id: s + 1,
        site_title: `Site ${s + 1}`,
        site_no: String(s + 1).padStart(4, '0'),
        terminals: Array.from({ length: 4 }, (_, i) => ({
          terminal_id: `${s + 1}-${i + 1}`,
          lat: lat + i * 0.0002,
          lng: lng + i * 0.0002,
          marker_color: s % 20 === 0 && i === 0 ? 'red' : 'green',
        })),
      };
    });
    const body = JSON.stringify(sites);
    await p.route(/\/api\/agent\/\d+\/map\/terminals\//, (route) =>
      route.fulfill({ status: 200, contentType: 'application/json', body }),
    );
    await signIn(p, server.url, 'agent');
    const map = widget(p, 'Active terminals');
    await map.locator('.leaflet-marker-icon[aria-label]').first().waitFor();
    assert.ok(
      workers.some((url) => /terminal-index\.worker/.test(url)),
      `the index is built in a worker: ${workers.join(', ')}`,
    );
    const counted = await map
      .locator('.leaflet-marker-icon[aria-label]')
      .evaluateAll((els) =>
        els.reduce((n, e) => n + (e.classList.contains('fc-cluster') ? Number(e.textContent) : 1), 0),
      );
    assert.equal(counted, 20_000, 'every terminal is in a cluster or drawn on its own');
    // A cluster's click asks the worker at which zoom it falls apart, and the map zooms there.
    const canvas = map.getByTestId('company-map-canvas');
    const zoom = await canvas.getAttribute('data-zoom');
    assert.ok(zoom, 'the map has a zoom');
    // The cluster nearest the map's centre (those at the edges may sit under the page's header).
    await canvas.scrollIntoViewIfNeeded();
    const at = await canvas.evaluate((el) => {
      const box = el.getBoundingClientRect();
      const cx = box.left + box.width / 2;
      const cy = box.top + box.height / 2;
      const centres = [...el.querySelectorAll('.fc-cluster')].map((e) => {
        const r = e.getBoundingClientRect();
        return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
      });
      centres.sort((a, b) => Math.hypot(a.x - cx, a.y - cy) - Math.hypot(b.x - cx, b.y - cy));
      return centres[0] ?? null;
    });
    assert.ok(at, 'a cluster is drawn');
    await p.mouse.click(at.x, at.y);
    await p.waitForFunction(
      (z) => document.querySelector('[data-testid="company-map-canvas"]')?.getAttribute('data-zoom') !== z,
      zoom,
    );
    assert.deepEqual(errors, []);
    await p.context().close();
  });

  it('company: the company map shows its terminals and the weather its unavailability', async () => {
    const p = await signedIn('company');
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
    await expectWeatherUnreachable(p);
    await shot(p, 'widgets-company-map-light', map);
    await toCosmic(p);
    await shot(p, 'widgets-company-map-cosmic', map);
    await p.context().close();
  });

  it('site: the aerial map shows the terminals, the transaction charts draw, the weather is unavailable', async () => {
    const p = await signedIn('site');
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
    await expectWeatherUnreachable(p);

    await shot(p, 'widgets-site-aerial-light', aerial);
    await shot(p, 'widgets-site-transactions-light', activity);
    await toCosmic(p);
    await shot(p, 'widgets-site-aerial-cosmic', aerial);
    await shot(p, 'widgets-site-transactions-cosmic', activity);
    await shot(p, 'widgets-site-weather-cosmic', widget(p, 'Weather'));
    await p.context().close();
  });

  it('on a 390px-wide phone the maps, charts and weather fit the screen', async () => {
    for (const user of ['agent', 'site'] as const) {
      const p = await signedIn(user, { width: 390, height: 844 });
      const map = widget(p, user === 'agent' ? 'Active terminals' : 'Aerial map');
      await expectMarkers(map);
      await expectWeatherUnreachable(p);
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
      await shot(p, `widgets-${user}-map-phone`, map);
      await shot(p, `widgets-${user}-weather-phone`, widget(p, 'Weather'));
      if (user === 'site')
        await shot(p, 'widgets-site-transactions-phone', widget(p, 'Transaction activity'));
      await p.context().close();
    }
  });
});
