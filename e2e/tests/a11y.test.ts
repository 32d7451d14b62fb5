import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { axeViolations, type Violation } from '../src/axe.ts';
import { journey, type Page, type PageOptions, shot, signIn } from '../src/journey.ts';

/**
 * Accessibility (docs/accessibility.md): axe-core finds no serious or critical violation (WCAG 2.2 A and AA
 * plus axe's best practices) on any screen of the console — sign-in screens, the three dashboards, every log,
 * the profile, the settings sidebar and the modals open — in both themes and on a 390 px phone. One server,
 * one browser; each variant walks every screen in one signed-in page.
 */

// Tile servers that refuse every connection (the discard port): the maps' note and their console are checked too.
const DEAD_TILES = 'http://127.0.0.1:9';
const a11y = journey({
  timeout: 30_000,
  env: {
    // The fleet holds still while pages are walked: with the simulator off, the default 5 minutes would turn every
    // terminal offline part-way through a slow run, re-drawing markers and adding alerts behind the keyboard walk.
    CONNECTIVITY_TIMEOUT: '1000h',
    TILE_URL_ROAD: `${DEAD_TILES}/road/{z}/{x}/{y}.png`,
    TILE_URL_SATELLITE: `${DEAD_TILES}/sat/{z}/{y}/{x}`,
  },
});

const VARIANTS: Array<{ name: string; opts: PageOptions }> = [
  { name: 'light', opts: {} },
  { name: 'cosmic', opts: { dark: true } },
  { name: 'light-390', opts: { width: 390, height: 844 } },
  { name: 'cosmic-390', opts: { width: 390, height: 844, dark: true } },
];

/**
 * Every log screen of packages/contract/src/log-paths.ts (LOG_PATHS) in each of its scopes, on the demo
 * fleet's agent 1, company 1 and its site 1, and the company's per-site hardware log.
 */
const LOG_SCREENS = [
  ...['agent/1', 'company/1', 'site/1'].flatMap((scope) => [
    `/${scope}/alert/log/`,
    `/${scope}/connectivity/log`,
    `/${scope}/pump/activation/log/`,
    `/${scope}/shock/alert/log`,
    `/${scope}/terminal/hardware/log/`,
    `/${scope}/terminal/reboot/log/`,
  ]),
  '/site/1/pump/status/log',
  '/site/1/terminal/battery/log',
  '/site/1/terminal/environment/log',
  '/site/1/terminal/flashdrive/log',
  '/company/1/site/1/terminal/hardware/log/',
];

/** Waits for the screen's heading and for its loaders to finish (the live stream keeps the network busy). */
async function settle(p: Page) {
  await p.getByRole('heading', { level: 1 }).first().waitFor();
  await p
    .waitForFunction(
      () => document.querySelectorAll('[role="status"][aria-label="Loading"]').length === 0,
      null,
      {
        timeout: 15_000,
      },
    )
    .catch(() => undefined);
  // Transitions (drawers, modals, chart growth) end before the colours are read.
  await p.waitForTimeout(400);
}

async function walk(variant: string, opts: PageOptions, found: Violation[]) {
  const check = async (p: Page, screen: string) => {
    found.push(...(await axeViolations(p, `${variant} ${screen}`)));
  };

  // Signed out: the four sign-in screens.
  const out = await a11y.page(opts);
  for (const [screen, hash] of [
    ['login', '/auth/login'],
    ['sign-up', '/auth/register'],
    ['request-password', '/auth/request-password'],
    ['reset-password', '/auth/reset-password?reset_password_token=not-a-real-token'],
  ] as const) {
    await out.goto(a11y.url(hash));
    await settle(out);
    await check(out, screen);
  }
  await out.context().close();

  const p = await a11y.page(opts);
  await signIn(p, a11y.server.url, 'agent');
  const go = async (hash: string) => {
    await p.goto(a11y.url(hash));
    await settle(p);
  };

  // Dashboards, scrolled through so every lazily drawn widget is on the page.
  for (const [screen, hash] of [
    ['agent dashboard', '/agent/dashboard'],
    ['company dashboard', '/company/1/dashboard'],
    ['site dashboard', '/company/1/site/1/dashboard'],
  ] as const) {
    await go(hash);
    await p.evaluate(async () => {
      for (let y = 0; y < document.documentElement.scrollHeight; y += window.innerHeight) {
        window.scrollTo(0, y);
        await new Promise((r) => setTimeout(r, 150));
      }
      window.scrollTo(0, 0);
    });
    await settle(p);
    await check(p, screen);
  }

  // Modals of the site dashboard: a widget's info, the reboot confirmation, a command drawer.
  const info = p.getByRole('button', { name: 'About Pump status' });
  await info.click();
  await p.getByRole('dialog').first().waitFor();
  await p.waitForTimeout(300);
  await check(p, 'widget info modal');
  await p.keyboard.press('Escape');
  await p.getByRole('dialog').first().waitFor({ state: 'hidden' });

  const reboot = p.getByRole('region', { name: 'Terminal reboot' });
  const terminal = reboot.getByRole('combobox', { name: 'Terminal' });
  await p.waitForFunction((el) => !(el as HTMLSelectElement).disabled, await terminal.elementHandle());
  await terminal.selectOption({ index: 1 });
  await reboot.getByRole('combobox', { name: 'Reboot type' }).selectOption({ label: 'Software' });
  await reboot.getByRole('button', { name: 'Reboot terminal' }).click();
  const confirm = p.getByRole('dialog', { name: 'Reboot terminal' });
  await confirm.waitFor();
  await p.waitForTimeout(300);
  await check(p, 'reboot confirm modal');
  if (variant === 'cosmic-390') await shot(p, 'a11y-reboot-confirm-cosmic-390', 'view');
  await confirm.getByRole('button', { name: 'Close' }).click();
  await confirm.waitFor({ state: 'hidden' });

  await p
    .getByRole('button', { name: /^Command history of pump / })
    .first()
    .click();
  const drawer = p.getByRole('dialog', { name: /^Command history: / });
  await drawer.waitFor();
  await p.waitForTimeout(400);
  await check(p, 'command drawer');
  await drawer.getByRole('button', { name: 'Close' }).click();
  await drawer.waitFor({ state: 'hidden' });

  // The agent dashboard's support ticket form, and the settings sidebar.
  await go('/agent/dashboard');
  await p
    .getByRole('region', { name: 'Support' })
    .getByRole('button', { name: /Click here to contact support/ })
    .click();
  const ticket = p.getByRole('dialog', { name: 'New support ticket' });
  await ticket.waitFor();
  await ticket.getByRole('button', { name: 'Submit' }).click();
  await ticket.getByText('Please enter a subject').waitFor();
  await check(p, 'ticket form (with its error)');
  await p.keyboard.press('Escape');
  await ticket.waitFor({ state: 'hidden' });

  await p.getByRole('button', { name: 'Settings' }).click();
  const settings = p.getByRole('dialog', { name: 'Settings' });
  await settings.waitFor();
  await p.waitForTimeout(400);
  await check(p, 'settings sidebar');
  await shot(p, `a11y-settings-${variant}`, 'view');
  await settings.getByRole('button', { name: 'Close settings' }).click();
  await settings.waitFor({ state: 'hidden' });

  await go('/profile');
  await check(p, 'profile');

  for (const path of LOG_SCREENS) {
    await go(path);
    await p.locator('tbody tr').first().waitFor();
    await check(p, path);
  }
  await shot(p, `a11y-log-${variant}`, 'view');
  await p.context().close();
}

describe('axe: no serious or critical violation', () => {
  // A11Y_VARIANTS=light,cosmic-390 walks only those (while fixing what one of them finds).
  const only = process.env.A11Y_VARIANTS?.split(',');
  for (const { name, opts } of VARIANTS.filter((v) => !only || only.includes(v.name))) {
    it(`every screen, ${name}`, async () => {
      const found: Violation[] = [];
      try {
        await walk(name, opts, found);
      } finally {
        for (const v of found)
          console.log(`${v.where}: ${v.id} (${v.impact}) ${v.help}\n    ${v.targets.join('\n    ')}`);
      }
      assert.deepEqual(
        found.map((v) => `${v.where}: ${v.id}`),
        [],
      );
    });
  }
});

describe('maps whose tile servers cannot be reached', () => {
  it('say so, add no tile layer, and log at most the one failed probe per tile server', async () => {
    const p = await a11y.page();
    const errors: string[] = [];
    p.on('console', (m) => {
      if (m.type() === 'error') errors.push(`${m.text()} ${m.location().url}`);
    });
    await signIn(p, a11y.server.url, 'agent');
    for (const hash of ['/agent/dashboard', '/company/1/site/1/dashboard', '/agent/dashboard']) {
      await p.goto(a11y.url(hash));
      await settle(p);
      await p.getByTestId('map-tiles-unavailable').first().waitFor();
      assert.equal(await p.locator('img.leaflet-tile').count(), 0, `${hash}: no tile requested by a layer`);
    }
    await p.reload();
    await settle(p);
    await p.getByTestId('map-tiles-unavailable').first().waitFor();
    const fromTiles = errors.filter((e) => e.includes(DEAD_TILES));
    console.log(`console errors from tiles: ${fromTiles.length}\n  ${fromTiles.join('\n  ')}`);
    assert.ok(fromTiles.filter((e) => e.includes('/road/')).length <= 1, fromTiles.join('\n'));
    assert.ok(fromTiles.filter((e) => e.includes('/sat/')).length <= 1, fromTiles.join('\n'));
    await p.context().close();
  });
});

describe('keyboard', () => {
  it('Tab reaches every action of the site dashboard, each with a visible focus indicator', async () => {
    const p = await a11y.page();
    await signIn(p, a11y.server.url, 'agent');
    await p.goto(a11y.url('/company/1/site/1/dashboard'));
    await settle(p);
    // The first Tab renders every widget below the fold at once (dashboard-grid.tsx); the walk starts once they
    // (and the map, which loads when the browser is idle) have loaded, so that no control appears behind it.
    await p.keyboard.press('Tab');
    await settle(p);
    const focusedLook = new Map<string, { what: string; look: string }>();
    for (let i = 0; i < 600; i++) {
      await p.keyboard.press('Tab');
      const focused = await p.evaluate(() => {
        const el = document.activeElement as HTMLElement | null;
        if (!el || el === document.body) return null;
        const seen = Boolean(el.dataset.fcTab);
        if (!seen) el.dataset.fcTab = String(document.querySelectorAll('[data-fc-tab]').length + 1);
        const name = el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 40) ?? '';
        // What shows focus: outline, shadow, border and background (read again once focus has left).
        // (No named helper: the test runner's transform would wrap it in a function the page does not have.)
        const c = getComputedStyle(el);
        const outline =
          c.outlineStyle !== 'none' && Number.parseFloat(c.outlineWidth) > 0 ? c.outlineColor : '';
        return {
          id: el.dataset.fcTab as string,
          seen,
          what: `${el.tagName.toLowerCase()} "${name}"`,
          look: [outline, c.boxShadow, c.borderColor, c.backgroundColor].join('|'),
        };
      });
      if (!focused) continue;
      if (focused.seen) break; // round the page once
      focusedLook.set(focused.id, focused);
    }
    const { missed, unmarked } = await p.evaluate(
      (focused) => {
        (document.activeElement as HTMLElement | null)?.blur();
        const unmarked = focused
          .filter(([id, f]) => {
            const el = document.querySelector<HTMLElement>(`[data-fc-tab="${id}"]`);
            if (!el) return false;
            const c = getComputedStyle(el);
            const outline =
              c.outlineStyle !== 'none' && Number.parseFloat(c.outlineWidth) > 0 ? c.outlineColor : '';
            return [outline, c.boxShadow, c.borderColor, c.backgroundColor].join('|') === f.look;
          })
          .map(([, f]) => f.what);
        const missed = [
          ...document.querySelectorAll<HTMLElement>(
            'button:not([disabled]), a[href], select:not([disabled]), input:not([disabled]):not([type="hidden"]), [role="button"][tabindex="0"]',
          ),
        ]
          .filter((el) => {
            const r = el.getBoundingClientRect();
            return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden';
          })
          .filter((el) => !el.dataset.fcTab)
          .map(
            (el) =>
              `${el.tagName.toLowerCase()} "${el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 40)}"`,
          );
        return { missed, unmarked };
      },
      [...focusedLook.entries()],
    );
    console.log(`Tab stops on the site dashboard: ${focusedLook.size}`);
    assert.ok(focusedLook.size > 20, `${focusedLook.size} stops`);
    assert.deepEqual(missed, [], 'controls Tab never reached');
    assert.deepEqual(unmarked, [], 'focused without a visible indicator');
    await p.context().close();
  });
});
