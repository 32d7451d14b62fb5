/// <reference lib="dom" />
// (page.evaluate callbacks run in the browser)
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { launchChromium } from '@forecourt/test-support/chromium';
import { OFFLINE_PROVIDERS } from '@forecourt/test-support/server-process';
import type { Browser, Page, Request, Route } from 'playwright-core';
import { fmt, parseArgs, runIfMain, table, waitForQuiet, writeResult } from './lib/report.ts';
import { repoRoot, startServer } from './lib/server.ts';

/**
 * bench:web — the web app in Chromium, served by the real server (demo fleet, simulator off):
 *
 * 1. The agent dashboard: JavaScript its first screen loads (gzip), and, scrolled to the end at once, the time
 *    until every widget shows its data.
 * 2. A 10,000-row table (the agent's connectivity widget, one row per terminal): time to the first rows and
 *    the time of each filter keystroke until the filtered rows are painted; baseline 100 rows, same run.
 * 3. The company map with 10,000 terminals: first render (data received → markers drawn) and frame times
 *    while panning and zooming; baseline 100 terminals, same run.
 *
 * For 2 and 3 the browser's request for that one endpoint is answered with N generated rows of the
 * contract's shape (Playwright `page.route`), so the figures are the front end's cost at N; what the server
 * costs to produce them is bench:api's subject. Tiles and weather point at a closed local port, as on a
 * machine without network. Prints figures; asserts nothing.
 */

interface Session {
  token: string;
  user: { agent: number | null } & Record<string, unknown>;
}

async function signIn(url: string): Promise<Session> {
  const res = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'agent', password: 'demo1234', rememberMe: true }),
  });
  if (!res.ok) throw new Error(`sign-in failed: ${res.status}`);
  const { token } = (await res.json()) as { token: string };
  const user = (await (
    await fetch(`${url}/api/user/`, { headers: { Authorization: `JWT ${token}` } })
  ).json()) as Session['user'];
  return { token, user };
}

async function newPage(browser: Browser, session: Session): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  // tsx (esbuild keepNames) wraps named functions of the callbacks below in __name(): define it in the page.
  await context.addInitScript({ content: 'globalThis.__name = (f) => f;' });
  await context.addInitScript(
    ([token, user]) => {
      localStorage.setItem('auth_app_token', token);
      localStorage.setItem('user', user);
    },
    [session.token, JSON.stringify(session.user)] as const,
  );
  const page = await context.newPage();
  page.setDefaultTimeout(60_000);
  return page;
}

const quantile = (values: number[], q: number) => {
  if (!values.length) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};
const median = (values: number[]) => quantile(values, 0.5);

// ---------------------------------------------------------------------------------------------------------
// 1. The agent dashboard as it is

/**
 * Resolves once no request has been in flight for 500 ms, the console's stream of changes (GET /api/live)
 * aside: it stays open on a signed-in page, so Playwright's 'networkidle' would never come.
 */
function trackNetwork(page: Page): () => Promise<void> {
  const pending = new Set<Request>();
  let since = Date.now();
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === '/api/live') return;
    pending.add(r);
    since = Date.now();
  });
  const done = (r: Request) => {
    if (pending.delete(r)) since = Date.now();
  };
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  return async () => {
    while (pending.size > 0 || Date.now() - since < 500) await new Promise((r) => setTimeout(r, 100));
  };
}

async function dashboardFigures(browser: Browser, url: string, session: Session) {
  const page = await newPage(browser, session);
  const networkQuiet = trackNetwork(page);
  const scripts = new Map<string, number>();
  const styles = new Map<string, number>();
  page.on('response', async (response) => {
    const type = response.request().resourceType();
    if (type !== 'script' && type !== 'stylesheet') return;
    try {
      const body = await response.body();
      (type === 'script' ? scripts : styles).set(response.url(), gzipSync(body).length);
    } catch {
      /* body gone (navigation) */
    }
  });
  const t0 = Date.now();
  await page.goto(`${url}/#/agent/dashboard`);
  await page.getByRole('heading', { level: 1 }).waitFor();
  // What the first screen loads: widgets below the fold are fetched only as they come near the viewport.
  await networkQuiet();
  const firstScreenJs = [...scripts.values()].reduce((a, b) => a + b, 0);
  const firstScreenFiles = scripts.size;
  // Then the operator scrolls to the end at once: every lazy cell comes into view.
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  // Every widget shows data (or its final state): no widget is loading any more.
  await page.waitForFunction(
    () => {
      const widgets = [...document.querySelectorAll('section.fc-widget')];
      return (
        widgets.length >= 8 &&
        widgets.every(
          (w) =>
            !w.querySelector('[role="status"][aria-label="Loading..."]') &&
            !w.querySelector('.mantine-Loader-root'),
        ) &&
        document.querySelector('[data-testid="company-map-canvas"] .leaflet-marker-icon') !== null
      );
    },
    undefined,
    { timeout: 90_000, polling: 50 },
  );
  const allWidgetsMs = Date.now() - t0;
  const widgets = await page.locator('section.fc-widget h2').allTextContents();
  await page.waitForTimeout(500);
  const jsGzip = [...scripts.values()].reduce((a, b) => a + b, 0);
  const cssGzip = [...styles.values()].reduce((a, b) => a + b, 0);
  await page.context().close();
  return {
    allWidgetsMs,
    widgets,
    jsFiles: scripts.size,
    jsGzipKb: jsGzip / 1024,
    cssGzipKb: cssGzip / 1024,
    firstScreenJsKb: firstScreenJs / 1024,
    firstScreenJsFiles: firstScreenFiles,
  };
}

// ---------------------------------------------------------------------------------------------------------
// 2. A 10,000-row table

const PLACES = [
  'Quxley',
  'Quarry Lane',
  'Queensway',
  'Mill Road',
  'Park Way',
  'High Street',
  'Station Road',
  'Bridge End',
];

function connectivityRows(n: number) {
  const now = Date.now();
  return Array.from({ length: n }, (_, i) => ({
    site_id: 1 + Math.floor(i / 4),
    title: `${PLACES[(i * 7) % PLACES.length]} ${1 + Math.floor(i / 4)}`,
    number: String(100000 + i),
    status: i % 9 === 0 ? 'off' : 'on',
    date: new Date(now - i * 60_000).toISOString(),
    terminal_id: i + 1,
  }));
}

async function tableFigures(browser: Browser, url: string, session: Session, rows: number) {
  const page = await newPage(browser, session);
  const body = JSON.stringify(connectivityRows(rows));
  await page.route(/\/api\/agent\/\d+\/connectivity\//, answerWithEtag(body));
  // Mark the frame where the first rows are in the DOM.
  await page.addInitScript(() => {
    const check = () => {
      const region = [...document.querySelectorAll('section.fc-widget')].find(
        (s) => s.querySelector('h2')?.textContent === 'Connectivity',
      );
      if (region?.querySelector('tbody tr')) {
        performance.mark('fc:bench:first-rows');
        return;
      }
      requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  });
  await page.goto(`${url}/#/agent/dashboard`);
  const region = page.getByRole('region', { name: 'Connectivity', exact: true });
  await region.locator('tbody tr').first().waitFor({ timeout: 90_000 });
  const timing = await page.evaluate(() => {
    const entry = performance
      .getEntriesByType('resource')
      .filter((e) => /\/api\/agent\/\d+\/connectivity\//.test(e.name))
      .at(0) as PerformanceResourceTiming | undefined;
    const mark = performance.getEntriesByName('fc:bench:first-rows').at(0);
    return { responseEnd: entry?.responseEnd ?? Number.NaN, mark: mark?.startTime ?? Number.NaN };
  });
  const renderMs = timing.mark - timing.responseEnd;

  // Each keystroke: from the input event to the frame where every visible row matches the search.
  const search = region.getByRole('textbox').first();
  await search.click();
  const keystrokes: number[] = [];
  const typed = 'qux';
  for (let round = 0; round < 3; round++) {
    for (let i = 1; i <= typed.length; i++) {
      keystrokes.push(await timeKeystroke(page, typed.slice(0, i)));
    }
    for (let i = typed.length - 1; i >= 0; i--) {
      keystrokes.push(await timeKeystroke(page, typed.slice(0, i)));
    }
  }
  const visibleAfter = await region.locator('tbody tr').count();
  await page.context().close();
  return {
    rows,
    renderMs,
    keystrokeMedianMs: median(keystrokes),
    keystrokeMaxMs: Math.max(...keystrokes),
    visibleAfter,
  };
}

/** Sets the table's search box to `text` as typing does, and times until the filtered rows are painted. */
async function timeKeystroke(page: Page, text: string): Promise<number> {
  return page.evaluate(async (value) => {
    const region = [...document.querySelectorAll('section.fc-widget')].find(
      (s) => s.querySelector('h2')?.textContent === 'Connectivity',
    );
    const input = region?.querySelector('input') as HTMLInputElement | null;
    if (!region || !input) throw new Error('no connectivity search box');
    const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set;
    const matches = () => {
      const rows = [...region.querySelectorAll('tbody tr')].filter((r) => !r.hasAttribute('aria-hidden'));
      const needle = value.toLowerCase();
      return rows.length > 0 && rows.every((r) => (r.textContent ?? '').toLowerCase().includes(needle));
    };
    const t0 = performance.now();
    setter?.call(input, value);
    input.dispatchEvent(new Event('input', { bubbles: true }));
    // Wait for the frame that shows the filtered rows.
    for (let frames = 0; frames < 600; frames++) {
      await new Promise((r) => requestAnimationFrame(r));
      if (input.value === value && matches()) break;
    }
    return performance.now() - t0;
  }, text);
}

// ---------------------------------------------------------------------------------------------------------
// 3. The company map with N terminals

function mapSites(terminals: number) {
  const sites = [];
  let seed = 42;
  const rand = () => {
    seed = (seed * 16807) % 2147483647;
    return seed / 2147483647;
  };
  for (let s = 0; s * 4 < terminals; s++) {
    // Great Britain, roughly: 50.5–57.5 N, 5.5 W – 1.5 E.
    const lat = 50.5 + rand() * 7;
    const lng = -5.5 + rand() * 7;
    const count = Math.min(4, terminals - s * 4);
    sites.push({
      id: s + 1,
      site_title: `Site ${s + 1}`,
      site_no: String(s + 1).padStart(4, '0'),
      terminals: Array.from({ length: count }, (_, i) => ({
        terminal_id: `${s + 1}-${i + 1}`,
        lat: lat + i * 0.0002,
        lng: lng + i * 0.0002,
        marker_color: rand() < 0.05 ? 'red' : rand() < 0.03 ? 'yellow' : 'green',
      })),
    });
  }
  return sites;
}

/**
 * A route handler answering as the server does: the body with an ETag, or 304 when the page already holds it.
 * The tag is opaque to the console and made once per body, not per request.
 */
function answerWithEtag(body: string) {
  const etag = `"${createHash('sha1').update(body).digest('base64url')}"`;
  return (route: Route) =>
    route.request().headers()['if-none-match'] === etag
      ? route.fulfill({ status: 304, headers: { etag } })
      : route.fulfill({ status: 200, contentType: 'application/json', headers: { etag }, body });
}

async function mapFigures(browser: Browser, url: string, session: Session, terminals: number) {
  const page = await newPage(browser, session);
  const body = JSON.stringify(mapSites(terminals));
  await page.route(/\/api\/agent\/\d+\/map\/terminals\//, answerWithEtag(body));
  await page.addInitScript(() => {
    (window as unknown as { __longTasks: number[] }).__longTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries())
        (window as unknown as { __longTasks: number[] }).__longTasks.push(e.duration);
    }).observe({ type: 'longtask', buffered: true });
  });
  await page.goto(`${url}/#/agent/dashboard`);
  const canvas = page.getByTestId('company-map-canvas');
  await canvas.locator('.leaflet-marker-icon').first().waitFor({ timeout: 90_000 });
  const first = await page.evaluate(() => {
    const entry = performance
      .getEntriesByType('resource')
      .filter((e) => /\/api\/agent\/\d+\/map\/terminals\//.test(e.name))
      .at(0) as PerformanceResourceTiming | undefined;
    const drawn = performance.getEntriesByName('fc:company-map:drawn').at(0);
    return { responseEnd: entry?.responseEnd ?? Number.NaN, drawn: drawn?.startTime ?? Number.NaN };
  });
  const markers = await canvas.locator('.leaflet-marker-icon').count();
  await page.waitForTimeout(1500);

  // Pan and zoom with the mouse, recording every frame interval meanwhile.
  await page.evaluate(() => {
    const w = window as unknown as { __frames: number[]; __run: boolean };
    w.__frames = [];
    w.__run = true;
    let last = performance.now();
    const tick = (t: number) => {
      w.__frames.push(t - last);
      last = t;
      if (w.__run) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
    (window as unknown as { __longTasks: number[] }).__longTasks = [];
  });
  const box = await canvas.boundingBox();
  if (!box) throw new Error('map not visible');
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  for (const [dx, dy] of [
    [220, 0],
    [-220, 120],
    [0, -120],
  ]) {
    await page.mouse.move(cx, cy);
    await page.mouse.down();
    await page.mouse.move(cx + dx, cy + dy, { steps: 24 });
    await page.mouse.up();
    await page.waitForTimeout(300);
  }
  for (const name of ['Zoom in', 'Zoom in', 'Zoom in', 'Zoom out', 'Zoom out', 'Zoom out']) {
    await canvas.getByRole('button', { name }).click();
    await page.waitForTimeout(450);
  }
  for (let i = 0; i < 3; i++) {
    await page.mouse.move(cx, cy);
    await page.mouse.wheel(0, -300);
    await page.waitForTimeout(450);
  }
  const { frames, longTasks } = await page.evaluate(() => {
    const w = window as unknown as { __frames: number[]; __run: boolean; __longTasks: number[] };
    w.__run = false;
    return { frames: w.__frames.slice(1), longTasks: w.__longTasks };
  });
  await page.context().close();
  return {
    terminals,
    firstRenderMs: first.drawn - first.responseEnd,
    fromNavigationMs: first.drawn,
    markersDrawn: markers,
    frames: frames.length,
    frameP50Ms: median(frames),
    frameP95Ms: quantile(frames, 0.95),
    frameMaxMs: Math.max(...frames),
    longTaskMs: longTasks.reduce((a, b) => a + b, 0),
  };
}

// ---------------------------------------------------------------------------------------------------------

export async function benchWeb(argv = process.argv.slice(2)) {
  const args = parseArgs(argv);
  const big = Number(args.flags.get('rows') ?? 10_000);
  const small = Number(args.flags.get('baseline') ?? 100);
  console.log(`\n== bench:web (Chromium; ${fmt(big)} rows / terminals, baseline ${fmt(small)}) ==`);
  const dist = path.join(repoRoot, 'apps/web/dist/index.html');
  if (args.flags.has('build') || !existsSync(dist)) {
    console.log('building the web app ...');
    execFileSync('npm', ['run', 'build', '-w', 'apps/web'], { cwd: repoRoot, stdio: 'inherit' });
  }
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'forecourt-bench-web-'));
  const server = await startServer({
    dataDir,
    seed: 'demo',
    env: OFFLINE_PROVIDERS,
  });
  const browser = await launchChromium();
  try {
    const session = await signIn(server.url);
    await waitForQuiet(args.wait);

    // Warm the server's caches and Chromium once, then measure.
    await dashboardFigures(browser, server.url, session);
    const dashboard = await dashboardFigures(browser, server.url, session);
    console.log('\nagent dashboard (demo fleet)');
    table([
      {
        figure: 'JavaScript of the first screen (gzip, at network idle)',
        value: `${fmt(dashboard.firstScreenJsKb, 1)} KB in ${dashboard.firstScreenJsFiles} files`,
        target: '≤ 250 KB',
      },
      {
        figure: 'JavaScript after scrolling to the end (gzip)',
        value: `${fmt(dashboard.jsGzipKb, 1)} KB in ${dashboard.jsFiles} files`,
        target: '',
      },
      { figure: 'CSS loaded (gzip)', value: `${fmt(dashboard.cssGzipKb, 1)} KB`, target: '' },
      {
        figure: `every widget shows its data (${dashboard.widgets.length} widgets)`,
        value: `${fmt(dashboard.allWidgetsMs)} ms`,
        target: '',
      },
    ]);

    const tableSmall = await tableFigures(browser, server.url, session, small);
    const tableBig = await tableFigures(browser, server.url, session, big);
    console.log('\nsearchable table (agent connectivity widget, virtualised)');
    table(
      [tableSmall, tableBig].map((t) => ({
        rows: fmt(t.rows),
        'data → first rows ms': t.renderMs,
        'keystroke → filtered frame, median ms': t.keystrokeMedianMs,
        'max ms': t.keystrokeMaxMs,
      })),
    );
    console.log(
      `ratio ${fmt(big)} ÷ ${fmt(small)} rows: first rows ${fmt(tableBig.renderMs / tableSmall.renderMs, 2)}×, keystroke ${fmt(tableBig.keystrokeMedianMs / tableSmall.keystrokeMedianMs, 2)}× (target: keystroke ≤ 16 ms)`,
    );

    const mapSmall = await mapFigures(browser, server.url, session, small);
    const mapBig = await mapFigures(browser, server.url, session, big);
    console.log('\ncompany map (agent dashboard; supercluster + Leaflet divIcons)');
    table(
      [mapSmall, mapBig].map((m) => ({
        terminals: fmt(m.terminals),
        'data → markers drawn ms': m.firstRenderMs,
        'navigation → drawn ms': m.fromNavigationMs,
        markers: m.markersDrawn,
        'pan/zoom frame p50 ms': m.frameP50Ms,
        p95: m.frameP95Ms,
        max: m.frameMaxMs,
        'long tasks ms': m.longTaskMs,
      })),
    );
    console.log(
      `ratio ${fmt(big)} ÷ ${fmt(small)} terminals: first render ${fmt(mapBig.firstRenderMs / mapSmall.firstRenderMs, 2)}×, frame p95 ${fmt(mapBig.frameP95Ms / mapSmall.frameP95Ms, 2)}× (target: first render ≤ 1,500 ms)`,
    );

    const file = writeResult('web', { dashboard, table: [tableSmall, tableBig], map: [mapSmall, mapBig] });
    console.log(`\nfigures written to ${path.relative(repoRoot, file)}`);
  } finally {
    await browser.close();
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

runIfMain(import.meta.url, benchWeb);
