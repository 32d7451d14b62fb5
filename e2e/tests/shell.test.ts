import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import {
  apiGet,
  apiSignIn,
  journey,
  type Locator,
  networkQuiet,
  type Page,
  shot,
  signIn,
  toCosmic,
  waitForHash,
  watchNetwork,
} from '../src/journey.ts';

/** The console shell as a new user meets it: sign-in screens, guard, frame, settings, notifications. */

const shell = journey({ timeout: 15_000 });
const { page, signedIn, url } = shell;

/**
 * Waits for the menu's transitions (a group opening over 200 ms) to end, so a click is aimed where a link has
 * settled rather than where it was mid-way.
 */
async function settled(menu: Locator) {
  await menu.evaluate((nav) =>
    Promise.all(nav.getAnimations({ subtree: true }).map((a) => a.finished.catch(() => undefined))),
  );
}

/** Gzip size of every script and stylesheet the page receives from now on. */
function weigh(p: Page) {
  const bodies: { url: string; type: string; size: number }[] = [];
  p.on('response', async (res) => {
    const type = res.request().resourceType();
    if (type !== 'script' && type !== 'stylesheet') return;
    try {
      bodies.push({ url: res.url(), type, size: gzipSync(await res.body()).length });
    } catch {
      /* redirected or aborted */
    }
  });
  return bodies;
}

describe('sign-in screens', () => {
  it('an empty and an unknown route go to auth/login', async () => {
    const p = await page();
    await p.goto(`${shell.server.url}/`);
    await waitForHash(p, '/auth/login');
    await p.getByRole('heading', { name: 'Login' }).waitFor();
    await p.goto(url('/no/such/place'));
    await waitForHash(p, '/auth/login');
    assert.ok(await p.getByText('Hello! Sign in with your username').isVisible());
    assert.equal(await p.getByRole('checkbox', { name: 'Remember me' }).isChecked(), true);
    assert.equal(await p.getByRole('button', { name: 'Sign In' }).isDisabled(), true);
    await shot(p, 'login-light');
    await p.context().close();
  });

  it('the language picker loads French from /assets/i18n/fr.json and remembers it', async () => {
    const p = await page();
    await p.goto(url('/auth/login'));
    await p.getByRole('heading', { name: 'Login' }).waitFor();
    const fr = p.waitForResponse((res) => res.url().includes('/assets/i18n/fr.json') && res.ok());
    await p.getByLabel('Language').selectOption('fr');
    await fr;
    await p.getByRole('heading', { name: 'Connexion' }).waitFor();
    await p.reload();
    await p.getByRole('heading', { name: 'Connexion' }).waitFor();
    assert.equal(await p.evaluate(() => document.documentElement.lang), 'fr');
    await shot(p, 'login-french');
    await p.getByLabel('Langue').selectOption('en');
    await p.getByRole('heading', { name: 'Login' }).waitFor();
    await p.context().close();
  });

  it('the login route stays within 130 KB of JavaScript and 30 KB of CSS, gzip', async () => {
    const p = await page();
    const bodies = weigh(p);
    await p.goto(url('/auth/login'));
    await p.getByRole('heading', { name: 'Login' }).waitFor();
    await p.waitForLoadState('networkidle');
    const js = bodies.filter((b) => b.type === 'script').reduce((n, b) => n + b.size, 0);
    const css = bodies.filter((b) => b.type === 'stylesheet').reduce((n, b) => n + b.size, 0);
    console.log(`login route: JS ${(js / 1024).toFixed(1)} KB, CSS ${(css / 1024).toFixed(1)} KB gzip`);
    // 170.2 KB before the first-view work (decision 0006); 133.1 KB once the sign-in path went without zod and i18next-http-backend and
    // the entry became one chunk; 128.8 KB once react-router's Link and unused components, the
    // use-sync-external-store shim and the signed-in area's session calls left that chunk (docs/decisions/0006);
    // 130.1 KB with the signed-in first view's loaders, 129.1 KB once how a signed-in page starts (app/preload.ts)
    // became a chunk of its own. The budget is 130 KB (decision 0006).
    assert.ok(js <= 130 * 1024, `JS ${js} bytes`);
    assert.ok(css <= 30 * 1024, `CSS ${css} bytes`);
    // Signed out, theme-init.js asks for none of the signed-in first view's files.
    assert.equal(await p.locator('link[rel="modulepreload"], link[rel="preload"]').count(), 0);
    await p.context().close();
  });

  it('the agent dashboard, opened signed in, stays within 250 KB of JavaScript, gzip', async () => {
    const base = shell.server.url;
    const token = await apiSignIn(base, 'agent');
    const user = await apiGet<{ agent: number }>(base, token, '/api/user/');
    const p = await page();
    await p.context().addInitScript(
      ([t, u]) => {
        localStorage.setItem('auth_app_token', t);
        localStorage.setItem('user', u);
      },
      [token, JSON.stringify(user)] as const,
    );
    const bodies = weigh(p);
    watchNetwork(p);
    await p.goto(url(`/agent/${user.agent}/dashboard`));
    await p.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    await p.getByTestId('company-map').locator('.leaflet-marker-icon').first().waitFor();
    // Signed in, the stream of changes stays open: 'networkidle' never comes; every other request ends.
    await networkQuiet(p);
    const js = bodies.filter((b) => b.type === 'script').reduce((n, b) => n + b.size, 0);
    console.log(`agent dashboard: JS ${(js / 1024).toFixed(1)} KB gzip in ${bodies.length} files`);
    // 357 KB before the widgets below the fold were fetched only near the viewport (344.8 KB measured after;
    // 349.7 KB with the live updates' stream client); 323.7 KB once menus, popovers, tooltips, modals, the
    // settings drawer and the toasts' container came on first use; 300.4 KB in 14 files once the frame, the
    // dashboard and its first widgets came as one chunk (vite.config.ts); 271.4 KB once floating-ui and the
    // scroll lock's side car left the first view (vite/lean-imports-plugin.ts), the widget tables fetched their
    // virtualiser on demand and Leaflet came from its ES module build; 267.9 KB with the console's own Link and
    // react-router's unused components gone from the entry chunk; 246.2 KB once Leaflet came from its source
    // modules (only the parts the maps use, src/lib/leaflet.ts), Table's ScrollArea on first use and zod
    // without its JSON Schema generator (vite/lean-imports-plugin.ts); 248.7 KB with the first view's loaders and
    // how a signed-in page starts; 246.2 KB once the contract's schemas the console never uses were left out
    // (vite/pure-schemas-plugin.ts). The budget is 250 KB (decision 0006).
    const files = bodies
      .filter((b) => b.type === 'script')
      .map((b) => `${new URL(b.url).pathname} ${(b.size / 1024).toFixed(1)} KB`)
      .join(', ');
    assert.ok(js <= 250 * 1024, `JS ${js} bytes: ${files}`);
    // theme-init.js asked for the first view's chunks and CSS alongside the entry (vite/first-view-preload-plugin.ts),
    // and the app's own imports used those answers: no file came twice.
    const preloaded = await p.evaluate(() =>
      [...document.querySelectorAll('link[rel="modulepreload"]')].map((l) => l.getAttribute('href')),
    );
    assert.ok(
      preloaded.some((href) => /^\/assets\/signed-in-[\w-]+\.js$/.test(href ?? '')),
      preloaded.join(' '),
    );
    const urls = bodies.map((b) => b.url);
    assert.deepEqual(
      urls.filter((u, i) => urls.indexOf(u) !== i),
      [],
    );
    await p.context().close();
  });

  it('register shows the validation messages of docs/product.md#validation-rules', async () => {
    const p = await page();
    await p.goto(url('/auth/register'));
    await p.getByRole('heading', { name: 'Sign Up' }).waitFor();
    assert.match(await p.title(), /^Sign Up · /);
    await p.getByLabel('Email address').fill('nope');
    await p.getByLabel('Password', { exact: true }).click();
    await p.getByText('Email should be the real one!').waitFor();
    await p.getByLabel('Password', { exact: true }).fill('abc');
    await p.getByLabel('Confirm password').click();
    await p.getByText('Password should contains from 4 to 50 characters').waitFor();
    await p.getByLabel('Full name').click();
    await p.getByText('Password confirmation is required!').waitFor();
    await p.getByLabel('Email address').fill('');
    await p.getByText('Email is required!').waitFor();
    await p.getByLabel('Password', { exact: true }).fill('abcd');
    await p.getByLabel('Confirm password').fill('abce');
    await p.getByLabel('Email address').click();
    await p.getByText('Password does not match the confirm password.').waitFor();
    await p.getByLabel('Email address').fill('robin@example.com');
    const terms = p.getByRole('checkbox', { name: 'Agree to Terms & Conditions' });
    await terms.check();
    await terms.uncheck();
    await p.getByText('You must agree to the Terms & Conditions.').waitFor();
    await terms.check();
    assert.equal(await p.getByRole('button', { name: 'Register' }).isDisabled(), true);
    await shot(p, 'register-validation');
    assert.ok(await p.getByRole('link', { name: 'Sign in' }).isVisible());
    await p.context().close();
  });

  it('request and reset password screens show their texts', async () => {
    const p = await page();
    await p.goto(url('/auth/request-password'));
    await p.getByText("Enter your email adress and we'll send a link to reset your password").waitFor();
    await p.getByLabel('Email address').fill('agent@forecourt.local');
    await p.getByRole('button', { name: 'Request password' }).click();
    await p.getByText('Hooray!').waitFor();
    await shot(p, 'request-password');
    await waitForHash(p, '/auth/login');
    await p.goto(url('/auth/reset-password?reset_password_token=not-a-real-token'));
    await p.getByText('Please enter a new password').waitFor();
    await p.getByLabel('New Password').fill('newpass1');
    await p.getByLabel('Confirm Password').fill('newpass1');
    await p.getByRole('button', { name: 'Change password' }).click();
    await p.getByText('Oh snap!').waitFor();
    await shot(p, 'reset-password-error');
    await p.context().close();
  });

  it('a wrong password ends on the login page with Oh snap!', async () => {
    const p = await page();
    await p.goto(url('/auth/login'));
    await p.getByLabel('Username').fill('agent');
    await p.getByLabel('Password', { exact: true }).fill('not-the-password');
    await p.getByRole('button', { name: 'Sign In' }).click();
    await p.getByText('Oh snap!').waitFor();
    await p.getByText('Login/Email combination is not correct, please try again.').waitFor();
    await waitForHash(p, '/auth/login');
    assert.equal(await p.evaluate(() => localStorage.getItem('auth_app_token')), null);
    await shot(p, 'login-wrong-password');
    await p.context().close();
  });

  it('a guarded URL without a session goes to auth/login', async () => {
    const p = await page();
    await p.goto(url('/pages/ui-features/buttons'));
    await waitForHash(p, '/auth/login');
    await p.context().close();
  });
});

describe('signed in', () => {
  it('agent: sign in, dashboard, reload keeps the session, log out', async () => {
    const p = await signedIn('agent');
    await waitForHash(p, '/agent/dashboard');
    await p.getByRole('heading', { name: 'Dashboard' }).waitFor();
    const stored = await p.evaluate(() => ({
      token: localStorage.getItem('auth_app_token'),
      user: JSON.parse(localStorage.getItem('user') ?? 'null'),
    }));
    assert.equal(stored.token?.split('.').length, 3);
    assert.equal(stored.user.username, 'agent');
    await p.reload();
    await p.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await waitForHash(p, '/agent/dashboard');
    await p.goto(url('/auth/login'));
    await waitForHash(p, '/agent/dashboard');
    await p.getByRole('button', { name: 'User menu' }).click();
    await p.getByRole('menuitem', { name: 'Log out' }).click();
    await waitForHash(p, '/auth/login');
    await p.getByText('You have been successfully logged out.').waitFor();
    assert.equal(await p.evaluate(() => localStorage.getItem('auth_app_token')), null);
    await p.goto(url('/agent/dashboard'));
    await waitForHash(p, '/auth/login');
    await p.context().close();
  });

  it('notifications open, list the agent alerts with their log link, and close', async () => {
    const p = await signedIn('agent');
    const bell = p.getByRole('button', { name: 'Notifications' });
    await bell.click();
    const dialog = p.getByRole('dialog', { name: 'Notifications' });
    await dialog.waitFor();
    const first = dialog.getByRole('link').first();
    await first.waitFor();
    // The bell lists unacknowledged active alerts, so its links open the alert log filtered the same way.
    assert.match(
      (await first.getAttribute('href')) ?? '',
      /^#\/agent\/\d+\/alert\/log\?state=active&acknowledged=false$/,
    );
    await shot(p, 'notifications-open');
    await dialog.getByRole('button', { name: 'Close notifications' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await p.getByRole('button', { name: 'Messages' }).click();
    await dialog.waitFor();
    await p.context().close();
  });

  it('theme and layout switches, kept after a reload; screenshots of both themes', async () => {
    const p = await signedIn('company');
    await p.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await shot(p, 'dashboard-light');
    await p.getByRole('button', { name: 'Settings' }).click();
    const settings = p.getByRole('dialog', { name: 'Settings' });
    await settings.waitFor();
    await shot(p, 'settings-light');
    await settings.getByRole('switch', { name: 'Cosmic' }).check();
    await p.waitForFunction(() => document.documentElement.dataset.mantineColorScheme === 'dark');
    await settings.getByRole('radio', { name: 'Two Column' }).check();
    assert.equal(await settings.getByRole('radio', { name: 'One Column' }).isChecked(), false);
    await shot(p, 'settings-cosmic');
    await settings.getByRole('button', { name: 'Close settings' }).click();
    await settings.waitFor({ state: 'hidden' });
    await p.getByRole('link', { name: 'Support Us' }).waitFor();
    await shot(p, 'dashboard-cosmic-two-column');
    await p.reload();
    await p.getByRole('heading', { name: 'Dashboard' }).waitFor();
    assert.equal(await p.evaluate(() => document.documentElement.dataset.mantineColorScheme), 'dark');
    await p.getByRole('link', { name: 'Support Us' }).waitFor();
    await p.getByRole('button', { name: 'Settings' }).click();
    await settings.getByRole('radio', { name: 'Right' }).check();
    await settings.getByRole('radio', { name: 'Center Column' }).check();
    await settings.getByRole('button', { name: 'Close settings' }).click();
    await p.getByRole('link', { name: 'Support Us' }).waitFor({ state: 'detached' });
    await shot(p, 'dashboard-cosmic-center-right');
    await p.goto(url('/auth/login'));
    await p.goto(url('/auth/logout'));
    await waitForHash(p, '/auth/login');
    await shot(p, 'login-cosmic');
    await p.context().close();
  });

  it("the menu sidebar's background reaches the bottom of a long page, in both themes", async () => {
    const p = await signedIn('agent');
    // Widgets below the fold render as they come near the viewport: scroll through so the page has its
    // full height before it is measured.
    await p.waitForFunction(() => {
      window.scrollTo(0, document.documentElement.scrollHeight);
      return document.querySelector('.fc-dashboard-cell[data-pending]') === null;
    });
    await p.evaluate(() => window.scrollTo(0, 0));
    for (const theme of ['light', 'cosmic']) {
      if (theme === 'cosmic') await toCosmic(p);
      const { height, sidebar } = await p.evaluate(() => ({
        height: document.documentElement.scrollHeight,
        sidebar: document.querySelector('.fc-menu-sidebar')!.getBoundingClientRect().width,
      }));
      assert.ok(height > 1.5 * 900, `the agent dashboard is ${height} px tall`);
      await shot(p, `sidebar-long-page-${theme}`);
      // In the first screen (below the menu items) and near the foot of the page, inside the sidebar's column.
      const [top, bottom] = await pixels(p, [
        [sidebar / 2, 800],
        // 20 px above the foot of the capture itself: the page's height may change by a row between the
        // measurement above and the capture (live updates), which put this point outside the image.
        [sidebar / 2, -20],
      ]);
      assert.deepEqual(bottom, top, `${theme}: sidebar colour at the top ${top}, at the bottom ${bottom}`);
    }
    await p.context().close();
  });

  it('the UI-features pages open from the menu', async () => {
    const p = await signedIn('site');
    const menu = p.getByRole('navigation', { name: 'Main menu' });
    await menu.getByRole('button', { name: 'UI Features' }).click();
    await settled(menu);
    for (const [name, heading] of [
      ['Buttons', 'Buttons'],
      ['Grid', 'Grid'],
      ['Icons', 'Icons'],
      ['Modals', 'Modals'],
      ['Typography', 'Typography'],
      ['Search Fields', 'Search Fields'],
      ['Tabs', 'Tabs'],
    ]) {
      await menu.getByRole('link', { name }).click();
      await p.getByRole('heading', { name: heading, level: 1 }).waitFor();
    }
    await menu.getByRole('link', { name: 'Search Fields' }).click();
    await p.getByRole('heading', { name: 'Search Fields', level: 1 }).waitFor();
    await p.getByRole('button', { name: 'Search', exact: true }).click();
    await p.getByRole('searchbox', { name: 'Search' }).fill('pump');
    assert.equal(await p.getByPlaceholder('Type your search request here...').count(), 1);
    await p.waitForFunction(
      () => document.querySelector('[data-testid="header-search-echo"]')?.textContent === 'pump',
    );
    await shot(p, 'ui-search-fields');
    await menu.getByRole('link', { name: 'Modals' }).click();
    await p.getByRole('button', { name: 'About Widget card with info' }).click();
    const info = p.getByRole('dialog', { name: 'Widget card with info' });
    await info.waitFor();
    await info.getByRole('button', { name: 'Close' }).click();
    await info.waitFor({ state: 'hidden' });
    await p.getByRole('button', { name: 'Show a toast' }).click();
    await p.getByText('Toasts close after 2.5 seconds or with their close button.').waitFor();
    await p
      .getByText('Toasts close after 2.5 seconds or with their close button.')
      .waitFor({ state: 'hidden', timeout: 6000 });
    await p.context().close();
  });

  it('a 390 px phone: menu overlays and collapses after a pick', async () => {
    const p = await page({ width: 390, height: 844 });
    await p.goto(url('/auth/login'));
    await p.getByRole('heading', { name: 'Login' }).waitFor();
    await shot(p, 'phone-login');
    await signIn(p, shell.server.url, 'agent');
    await p.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await shot(p, 'phone-dashboard');
    const toggle = p.getByRole('button', { name: 'Toggle sidebar' });
    assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
    await toggle.click();
    const menu = p.getByRole('navigation', { name: 'Main menu' });
    await menu.getByRole('link', { name: 'Dashboard' }).waitFor();
    await shot(p, 'phone-menu-open');
    // The open menu covers the dashboard's map entirely: nothing of Leaflet (its attribution sits at z-index
    // 1000 by default) may paint above the menu and take a tap meant for it.
    await p.locator('.leaflet-control-attribution').first().waitFor({ state: 'attached' });
    const onTop = await menu.evaluate((nav) => {
      const attribution = document.querySelector('.leaflet-control-attribution');
      if (!attribution) return 'no attribution';
      const r = attribution.getBoundingClientRect();
      const x = r.left + r.width / 2;
      const y = r.top + r.height / 2;
      if (y < 0 || y > window.innerHeight) return `attribution off screen at y=${Math.round(y)}`;
      const top = document.elementFromPoint(x, y);
      const panel = nav.closest('.mantine-AppShell-navbar') ?? nav;
      return top && panel.contains(top) ? 'menu' : `${top?.tagName}.${top?.className}`;
    });
    assert.equal(onTop, 'menu');
    await menu.getByRole('button', { name: 'UI Features' }).click();
    await settled(menu);
    await menu.getByRole('link', { name: 'Tabs' }).click();
    await p.waitForFunction(
      () =>
        document.querySelector('[aria-label="Toggle sidebar"]')?.getAttribute('aria-expanded') === 'false',
    );
    await p.getByRole('heading', { name: 'Tabs', level: 1 }).waitFor();
    await p.getByRole('button', { name: 'Notifications' }).click();
    await p.getByRole('dialog', { name: 'Notifications' }).waitFor();
    await shot(p, 'phone-notifications');
    await p.getByRole('button', { name: 'Close notifications' }).click();
    await p.getByRole('button', { name: 'Settings' }).click();
    await p.getByRole('dialog', { name: 'Settings' }).waitFor();
    await shot(p, 'phone-settings');
    await p.context().close();
  });
});

/** RGBA of the page's full-length capture at each point (decoded by the browser itself; a negative y counts from its bottom). */
async function pixels(p: Page, points: [number, number][]): Promise<number[][]> {
  const png = (await p.screenshot({ fullPage: true })).toString('base64');
  return p.evaluate(
    async ({ png, points }) => {
      const bytes = Uint8Array.from(atob(png), (c) => c.charCodeAt(0));
      const image = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
      const canvas = new OffscreenCanvas(image.width, image.height);
      const ctx = canvas.getContext('2d')!;
      ctx.drawImage(image, 0, 0);
      // A negative y counts from the bottom of the capture.
      return points.map(([x, y]) => [
        ...ctx.getImageData(Math.round(x), Math.round(y < 0 ? image.height + y : y), 1, 1).data,
      ]);
    },
    { png, points },
  );
}
