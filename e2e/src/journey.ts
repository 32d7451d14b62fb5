import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { after, before } from 'node:test';
import type { Locator, Request } from 'playwright-core';
import {
  type Browser,
  launchBrowser,
  newContext,
  type Page,
  type RunningServer,
  repoRoot,
  screenshot,
  screenshotDir,
  startServer,
} from './harness.ts';

export interface PageOptions {
  width?: number;
  height?: number;
  /** Open in the cosmic theme: the app's own choice, kept in localStorage (default false). */
  dark?: boolean;
}

export interface Journey {
  /** The running server (set once the suite's `before` hook has run). */
  readonly server: RunningServer;
  readonly browser: Browser;
  /** A fresh browser context and page. */
  page(opts?: PageOptions): Promise<Page>;
  /** A fresh page signed in as `username` (demo password unless given), on the user's dashboard. */
  signedIn(username: string, opts?: PageOptions & { password?: string }): Promise<Page>;
  /** The address of a hash route: `url('/auth/login')`. */
  url(hash: string): string;
}

/**
 * One e2e suite: registers the `before` hook that builds the web app when it is missing, starts the real
 * server with `env` and launches Chromium, and the `after` hook that stops both. `timeout` is each page's
 * default wait (ms).
 */
export function journey(opts: { env?: Record<string, string>; timeout?: number } = {}): Journey {
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  const timeout = opts.timeout ?? 20_000;

  before(async () => {
    if (!existsSync(path.join(repoRoot, 'apps/web/dist/index.html'))) {
      execFileSync('npm', ['run', 'build', '-w', 'apps/web'], { cwd: repoRoot, stdio: 'inherit' });
    }
    server = await startServer(opts.env);
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  const started = () => {
    // Node 20 runs root-level hooks side by side: use the server in tests and describe-level hooks only.
    assert.ok(server && browser, 'the journey has started (use it inside tests and describe-level hooks)');
    return { server, browser };
  };

  const page = async (o: PageOptions = {}) => {
    const context = await newContext(started().browser, o);
    if (o.dark) await context.addInitScript(() => localStorage.setItem('fc-color-scheme', 'dark'));
    const p = await context.newPage();
    // A failing page says why: a missing chunk (the shared dist rebuilt mid-run) or a script error.
    p.on('response', (r) => {
      if (r.status() >= 400 && r.url().includes('/assets/')) console.log('ASSET', r.status(), r.url());
    });
    p.on('pageerror', (e) => console.log('PAGEERROR', e.message));
    p.setDefaultTimeout(timeout);
    return p;
  };

  return {
    get server() {
      return started().server;
    },
    get browser() {
      return started().browser;
    },
    page,
    async signedIn(username, o = {}) {
      const p = await page(o);
      await signIn(p, started().server.url, username, o.password);
      return p;
    },
    url: (hash) => `${started().server.url}/#${hash}`,
  };
}

/**
 * Signs in through the login form and waits for the user's dashboard to settle. A failure leaves a
 * screenshot (`signin-failed-<user>`): on a loaded machine the first paint can be slow.
 */
export async function signIn(page: Page, baseUrl: string, username: string, password = 'demo1234') {
  try {
    await page.goto(`${baseUrl}/#/auth/login`);
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL(/#\/(agent|company)\//, { timeout: 30_000 });
    // The URL changes before the dashboard has loaded (and before a company or site user is sent on to
    // their own dashboard): wait for the page itself so the next step starts from a settled screen.
    await page
      .getByRole('heading', { level: 1, name: 'Dashboard', exact: true })
      .waitFor({ timeout: 30_000 });
  } catch (error) {
    await shot(page, `signin-failed-${username}`).catch(() => undefined);
    throw error;
  }
}

/** Signs in through the API and returns the token for `Authorization: JWT <token>`. */
export async function apiSignIn(baseUrl: string, username: string, password = 'demo1234'): Promise<string> {
  const res = await fetch(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password, rememberMe: true }),
  });
  assert.equal(res.status, 200, `API sign-in as ${username}`);
  const { token } = (await res.json()) as { token: string };
  return token;
}

/** A pump as `GET /api/site/{id}/pumps/` answers it, the fields the journeys read. */
export interface SitePump {
  id: number;
  pump_no: number;
  site: string;
  status: number;
  last_synapse_status: number;
}

/** GET an API path with a token; anything but 200 fails with the status and body. */
export async function apiGet<T>(baseUrl: string, token: string, pathname: string): Promise<T> {
  const res = await fetch(`${baseUrl}${pathname}`, { headers: { Authorization: `JWT ${token}` } });
  assert.equal(res.status, 200, `${pathname} → ${res.status} ${await res.clone().text()}`);
  return (await res.json()) as T;
}

/** Re-runs `probe` every second until it returns a value (not undefined); fails naming `what` after `ms`. */
export async function eventually<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  ms = 60_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 1_000));
  }
}

/** A dashboard widget: the region named by its title. */
export const widget = (p: Page, name: string) => p.getByRole('region', { name, exact: true });

export async function waitForHash(p: Page, hash: string) {
  await p.waitForFunction((h) => window.location.hash === h, `#${hash}`);
}

/** Switches to the cosmic theme through the settings panel and closes it again. */
export async function toCosmic(p: Page) {
  await p.getByRole('button', { name: 'Settings' }).click();
  const settings = p.getByRole('dialog', { name: 'Settings' });
  await settings.getByRole('switch', { name: 'Cosmic' }).check();
  await p.waitForFunction(() => document.documentElement.dataset.mantineColorScheme === 'dark');
  await settings.getByRole('button', { name: 'Close settings' }).click();
  await settings.waitFor({ state: 'hidden' });
}

/**
 * A screenshot in e2e/screenshots/ once transitions (drawers, popovers, chart growth) have finished:
 * the whole page from the top (the sticky header would be drawn mid-page otherwise), what the viewport
 * shows (`'view'`), or one element centred clear of the header.
 */
export async function shot(p: Page, name: string, of: 'page' | 'view' | Locator = 'page') {
  await p.waitForTimeout(500);
  if (of === 'page') {
    await p.evaluate(() => window.scrollTo(0, 0));
    await screenshot(p, name);
  } else if (of === 'view') {
    await screenshot(p, name, { fullPage: false });
  } else {
    await of.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await p.waitForTimeout(200);
    await of.screenshot({ path: path.join(screenshotDir, `${name}.png`) });
  }
}

export type { Browser, Locator, Page, RunningServer };

/** Requests in flight on a page, leaving out the console's stream of changes (open as long as the page is). */
const inFlight = new WeakMap<Page, { pending: Set<Request>; since: number }>();

function networkOf(p: Page) {
  let net = inFlight.get(p);
  if (!net) {
    const n = { pending: new Set<Request>(), since: Date.now() };
    const done = (r: Request) => {
      if (n.pending.delete(r)) n.since = Date.now();
    };
    p.on('request', (r) => {
      if (new URL(r.url()).pathname === '/api/live') return;
      n.pending.add(r);
      n.since = Date.now();
    });
    p.on('requestfinished', done);
    p.on('requestfailed', done);
    inFlight.set(p, n);
    net = n;
  }
  return net;
}

/** Starts counting a page's requests (before a navigation whose end `networkQuiet` then waits for). */
export const watchNetwork = (p: Page): void => void networkOf(p);

/**
 * Resolves once no request has been in flight for `quietMs`, the stream of changes (GET /api/live) aside:
 * Playwright's 'networkidle' never comes on a signed-in page, whose stream stays open. Call
 * `watchNetwork(p)` before the navigation (the first call here starts counting from now).
 */
export async function networkQuiet(p: Page, quietMs = 500, timeoutMs = 30_000): Promise<void> {
  const net = networkOf(p);
  const deadline = Date.now() + timeoutMs;
  while (net.pending.size > 0 || Date.now() - net.since < quietMs) {
    if (Date.now() > deadline) {
      throw new Error(`requests still in flight: ${[...net.pending].map((r) => r.url()).join(' ')}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
