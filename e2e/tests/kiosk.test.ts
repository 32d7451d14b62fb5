import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { journey, type Page, shot, widget } from '../src/journey.ts';

/** Wall screens (docs/product.md#wall-screens): `?kiosk=1` shows a dashboard alone; `&rotate=N` moves on. */

const { signedIn, url } = journey({ env: { SIMULATOR: 'on' } });

/** No header, menu sidebar or footer: only the dashboard, in the larger type. */
async function expectNoFrame(p: Page) {
  await p.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
  assert.equal(await p.getByRole('button', { name: 'Toggle sidebar' }).count(), 0, 'no header');
  assert.equal(await p.getByRole('button', { name: 'User menu' }).count(), 0, 'no user menu');
  assert.equal(await p.getByText(/Created with ♥ by Forecourt/).count(), 0, 'no footer');
  assert.equal(await p.locator('.fc-menu-sidebar').count(), 0, 'no menu sidebar');
  const rootSize = await p.evaluate(() =>
    Number.parseFloat(getComputedStyle(document.documentElement).fontSize),
  );
  assert.ok(rootSize > 16, `larger type (root font size ${rootSize}px)`);
}

const hashNow = (p: Page) => p.evaluate(() => window.location.hash);

/** The route of the dashboard a company or site user lands on (after the bare agent path sends them on). */
async function landing(p: Page, kind: 'company' | 'site'): Promise<string> {
  const re = kind === 'site' ? '^#/company/\\d+/site/\\d+/dashboard$' : '^#/company/\\d+/dashboard$';
  await p.waitForFunction((r) => new RegExp(r).test(window.location.hash), re);
  return (await hashNow(p)).slice(1);
}

describe('wall screens', () => {
  it('?kiosk=1&rotate=5 shows no frame and moves on to the next dashboard, keeping the query', async () => {
    const p = await signedIn('agent');
    await p.goto(url('/agent/dashboard?kiosk=1&rotate=5'));
    await expectNoFrame(p);
    await p.waitForFunction(
      () => /^#\/company\/\d+\/dashboard\?kiosk=1&rotate=5$/.test(window.location.hash),
      null,
      {
        timeout: 20_000,
      },
    );
    await expectNoFrame(p);
    const second = await hashNow(p);
    await p.waitForFunction((h) => window.location.hash !== h, second, { timeout: 20_000 });
    assert.match(await hashNow(p), /^#\/company\/\d+\/(site\/\d+\/)?dashboard\?kiosk=1&rotate=5$/);
    await expectNoFrame(p);
  });

  it('a bad rotate value is ignored: the kiosk still shows', async () => {
    const p = await signedIn('company');
    const home = await landing(p, 'company');
    await p.goto(url(`${home}?kiosk=1&rotate=abc`));
    await expectNoFrame(p);
    assert.equal(await hashNow(p), `#${home}?kiosk=1&rotate=abc`);
  });

  it('the Wall screen entry of the user menu opens the current dashboard in kiosk mode', async () => {
    const p = await signedIn('site');
    const home = `#${await landing(p, 'site')}`;
    await p.getByRole('button', { name: 'User menu' }).click();
    await p.getByRole('menuitem', { name: 'Wall screen' }).click();
    await p.waitForFunction((h) => window.location.hash === `${h}?kiosk=1`, home);
    // The frame goes with the next render after the hash changes.
    await p.getByRole('button', { name: 'Toggle sidebar' }).waitFor({ state: 'detached', timeout: 10_000 });
    await expectNoFrame(p);
  });

  it('looks right in both themes and at phone width', async () => {
    const light = await signedIn('agent');
    await light.goto(url('/agent/dashboard?kiosk=1'));
    await expectNoFrame(light);
    await widget(light, 'Alerts').waitFor();
    await shot(light, 'kiosk-agent-light', 'view');
    const dark = await signedIn('agent', { dark: true });
    await dark.goto(url('/agent/dashboard?kiosk=1'));
    await expectNoFrame(dark);
    await widget(dark, 'Alerts').waitFor();
    await shot(dark, 'kiosk-agent-cosmic', 'view');
    const phone = await signedIn('site', { width: 390, height: 844 });
    const home = await landing(phone, 'site');
    await phone.goto(url(`${home}?kiosk=1`));
    await expectNoFrame(phone);
    await shot(phone, 'kiosk-site-phone', 'view');
  });
});
