import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { journey, type Page, shot } from '../src/journey.ts';

/**
 * Arabic (docs: DESIGN "Wall screens and languages"): the whole console right to left — the menu on the
 * right, Arabic texts — while charts and maps keep reading left to right; the choice survives a reload.
 */

const { page, signedIn, url } = journey();

const PHONE = { width: 390, height: 844 };

async function documentDir(p: Page) {
  return p.evaluate(() => ({ dir: document.documentElement.dir, lang: document.documentElement.lang }));
}

/** Signs in (in English), then switches to Arabic the way a returning user's browser remembers it. */
async function arabicDashboard(opts: { dark?: boolean; width?: number; height?: number } = {}) {
  const p = await signedIn('agent', opts);
  await p.evaluate(() => localStorage.setItem('fc-language', 'ar'));
  await p.reload();
  await p.getByRole('heading', { level: 1, name: 'لوحة المعلومات' }).waitFor();
  return p;
}

describe('Arabic, right to left', () => {
  it('choosing العربية in the user menu mirrors the console at once: dir=rtl, the menu on the right, Arabic menu texts', async () => {
    const p = await signedIn('agent');
    assert.deepEqual(await documentDir(p), { dir: 'ltr', lang: 'en' });
    const sidebar = p.locator('.fc-menu-sidebar');
    const before = await sidebar.boundingBox();
    assert.ok(before && before.x < 10, `the menu starts on the left in English (x=${before?.x})`);

    await p.getByRole('button', { name: 'User menu' }).click();
    await p.getByRole('menuitem', { name: 'العربية' }).click();
    await p.waitForFunction(() => document.documentElement.dir === 'rtl');
    assert.deepEqual(await documentDir(p), { dir: 'rtl', lang: 'ar' });
    assert.equal(await p.locator('html[dir="rtl"][lang="ar"]').count(), 1);

    const nav = p.getByRole('navigation', { name: 'القائمة الرئيسية' });
    await nav.getByRole('link', { name: 'لوحة المعلومات' }).waitFor();
    await nav.getByRole('button', { name: 'السجلات' }).waitFor();
    await p.getByRole('heading', { level: 1, name: 'لوحة المعلومات' }).waitFor();

    const viewport = p.viewportSize();
    assert.ok(viewport);
    // Wait for the sidebar to settle on its new side (Mantine animates the shell).
    await p.waitForFunction(() => {
      const box = document.querySelector('.fc-menu-sidebar')?.getBoundingClientRect();
      return box !== undefined && Math.abs(box.right - window.innerWidth) <= 1;
    });
    const after = await sidebar.boundingBox();
    assert.ok(after, 'the menu is shown');
    assert.ok(after.x > viewport.width / 2, `the menu sits on the right (x=${after.x})`);
    assert.ok(Math.abs(after.x + after.width - viewport.width) <= 1, 'flush with the right edge');
    // The page settles beside it once the shell's transition and the (now left-hand) scrollbar have taken their
    // place: wait for that, then check it.
    await p.waitForFunction(() => {
      const main = document.querySelector('.fc-main-inner')?.getBoundingClientRect();
      const menu = document.querySelector('.fc-menu-sidebar')?.getBoundingClientRect();
      return main !== undefined && menu !== undefined && main.right <= menu.left + 1;
    });
    const main = await p.locator('.fc-main-inner').boundingBox();
    assert.ok(main && main.x + main.width <= after.x + 1, 'the page lies to the left of the menu');

    // Maps keep reading left to right inside the mirrored page.
    const mapDirs = await p
      .locator('.leaflet-container')
      .evaluateAll((els) => els.map((el) => getComputedStyle(el).direction));
    for (const d of mapDirs) assert.equal(d, 'ltr', 'a map stays left to right');

    // Remembered: a reload stays in Arabic.
    await p.reload();
    await p.getByRole('heading', { level: 1, name: 'لوحة المعلومات' }).waitFor();
    assert.deepEqual(await documentDir(p), { dir: 'rtl', lang: 'ar' });
    await shot(p, 'arabic-agent-dashboard');
  });

  it('the sign-in screen has the picker; Arabic mirrors it and names its fields in Arabic', async () => {
    const p = await page();
    await p.goto(url('/auth/login'));
    const picker = p.getByRole('combobox', { name: 'Language' });
    await picker.waitFor();
    assert.deepEqual(await picker.locator('option').allTextContents(), ['English', 'Français', 'العربية']);
    await picker.selectOption('ar');
    await p.waitForFunction(() => document.documentElement.dir === 'rtl');
    await p.getByRole('heading', { level: 1, name: 'تسجيل الدخول' }).waitFor();
    await p.getByLabel('اسم المستخدم').waitFor();
    const box = await p.getByLabel('اسم المستخدم').boundingBox();
    const label = await p.getByText('اسم المستخدم', { exact: true }).first().boundingBox();
    assert.ok(box && label && label.x + label.width > box.x + box.width / 2, 'the label starts on the right');
    for (const dark of [false, true]) {
      const theme = dark ? 'cosmic' : 'light';
      for (const size of [undefined, PHONE]) {
        const q = await page({ dark, ...size });
        await q.addInitScript(() => localStorage.setItem('fc-language', 'ar'));
        await q.goto(url('/auth/login'));
        await q.getByRole('heading', { level: 1, name: 'تسجيل الدخول' }).waitFor();
        await shot(q, `arabic-login-${theme}${size ? '-phone' : ''}`);
        await q.context().close();
      }
    }
  });

  it('the agent dashboard and a log in Arabic, both themes, desktop and phone (screenshots)', async () => {
    for (const dark of [false, true]) {
      const theme = dark ? 'cosmic' : 'light';
      for (const size of [undefined, PHONE]) {
        const suffix = `${theme}${size ? '-phone' : ''}`;
        const p = await arabicDashboard({ dark, ...size });
        assert.deepEqual(await documentDir(p), { dir: 'rtl', lang: 'ar' });
        await shot(p, `arabic-dashboard-${suffix}`);
        if (size) {
          // On a phone the menu covers the page, its entries set from the right.
          await p.getByRole('button', { name: 'إظهار الشريط الجانبي أو إخفاؤه' }).click();
          await p.waitForFunction(() => {
            const box = document.querySelector('.fc-menu-sidebar')?.getBoundingClientRect();
            return (
              box !== undefined && Math.abs(box.right - window.innerWidth) <= 1 && Math.abs(box.left) <= 1
            );
          });
          const entry = await p
            .getByRole('navigation', { name: 'القائمة الرئيسية' })
            .getByText('لوحة المعلومات', { exact: true })
            .boundingBox();
          assert.ok(entry && entry.x > size.width / 2, `menu entries start on the right (x=${entry?.x})`);
          await shot(p, `arabic-menu-${suffix}`, 'view');
          await p.getByRole('button', { name: 'إظهار الشريط الجانبي أو إخفاؤه' }).click();
        }
        if (!dark && !size) {
          await p.getByRole('button', { name: 'قائمة المستخدم' }).click();
          await p.getByRole('menuitem', { name: 'العربية' }).waitFor();
          await shot(p, 'arabic-user-menu', 'view');
          await p.keyboard.press('Escape');
          await p.getByRole('button', { name: 'الإعدادات' }).click();
          const settings = p.getByRole('dialog', { name: 'الإعدادات' });
          await settings.waitFor();
          // The settings open at the reading end, the left (once the drawer has slid in).
          await p.waitForFunction(() => {
            const box = document.querySelector('[role="dialog"]')?.getBoundingClientRect();
            return box !== undefined && Math.abs(box.left) <= 1;
          });
          await shot(p, 'arabic-settings', 'view');
          await settings.getByRole('button', { name: 'إغلاق الإعدادات' }).click();
          await settings.waitFor({ state: 'hidden' });
          // A site dashboard: the transaction charts keep time running left to right.
          await p.goto(url('/company/1/site/1/dashboard'));
          const chart = p.getByTestId('transactions-hour');
          await chart.locator('canvas').waitFor();
          assert.equal(await chart.evaluate((el) => getComputedStyle(el).direction), 'ltr');
          await shot(p, 'arabic-site-dashboard');
        }
        await p.goto(url('/agent/1/alert/log/'));
        await p.getByRole('heading', { level: 1, name: 'سجل التنبيهات' }).waitFor();
        await p.getByRole('link', { name: 'العودة إلى لوحة المعلومات' }).waitFor();
        await shot(p, `arabic-alert-log-${suffix}`);
        await p.context().close();
      }
    }
  });
});
