import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { journey, type Locator, type Page, shot, toCosmic, widget } from '../src/journey.ts';

/**
 * Maps, transaction activity and weather on the live dashboards. Tiles, weather and geocoding point
 * at a closed local port, so every run sees what a machine without network sees: markers on a plain
 * background with a note, and a weather widget that says the server cannot reach the weather service, without
 * ever asking for a forecast or a place name (each 503 would be a console error).
 */

const NOWHERE = 'http://127.0.0.1:9';

const { signedIn } = journey({
  env: {
    SIMULATOR: 'on',
    TILE_URL_ROAD: `${NOWHERE}/road/{z}/{x}/{y}.png`,
    TILE_URL_SATELLITE: `${NOWHERE}/satellite/{z}/{y}/{x}`,
    WEATHER_URL: NOWHERE,
    GEO_URL: NOWHERE,
  },
  timeout: 25_000,
});

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
