import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { journey, type Page, shot } from '../src/journey.ts';

/** The Notifications page (docs/integrations.md): contact points with a test, policies and the delivery log. */

const j = journey();

const MAIN_MENU = 'Main menu';
const menuEntry = (p: Page) =>
  p.getByRole('navigation', { name: MAIN_MENU }).getByRole('link', { name: 'Notifications', exact: true });

async function openNotifications(p: Page) {
  await p.goto(j.url('/notifications'));
  await p.getByRole('heading', { level: 1, name: /Notifications|الإشعارات/ }).waitFor();
}

describe('notifications page', () => {
  it('an agent adds an email contact point, tests it, routes alerts to it and sees the delivery', async () => {
    const p = await j.signedIn('agent');
    await menuEntry(p).waitFor();
    await openNotifications(p);
    const form = p.getByRole('form', { name: 'Add contact point' });
    await form.getByRole('textbox', { name: 'Name' }).fill('Night shift');
    await form.getByRole('combobox', { name: 'Kind' }).selectOption('email');
    await form.getByRole('textbox', { name: /Email addresses/ }).fill('night@example.com');
    await form.getByRole('button', { name: 'Add contact point' }).click();
    const table = p.getByRole('table', { name: 'Contact points' });
    await table.getByText('Night shift').waitFor();
    await p.getByRole('button', { name: 'Send a test to Night shift' }).click();
    await table.getByText('Delivered').waitFor();

    const policy = p.getByRole('form', { name: 'Add policy' });
    await policy.getByRole('textbox', { name: 'Name' }).fill('Everything major');
    await policy.getByRole('checkbox', { name: 'Night shift' }).first().check();
    await policy.getByRole('button', { name: 'Add policy' }).click();
    await p.getByRole('table', { name: 'Policies' }).getByText('Everything major').waitFor();
    await p.getByRole('table', { name: 'Delivery log' }).getByText('test').first().waitFor();
    await shot(p, 'notifications-light');
  });

  it('reads in dark theme, at phone width and right to left; site users have no entry', async () => {
    const dark = await j.signedIn('agent', { dark: true });
    await openNotifications(dark);
    await shot(dark, 'notifications-dark');
    const phone = await j.signedIn('company', { width: 390, height: 844 });
    await openNotifications(phone);
    await shot(phone, 'notifications-phone');
    const ar = await j.signedIn('agent');
    await ar.evaluate(() => localStorage.setItem('fc-language', 'ar'));
    await ar.goto(j.url('/notifications'));
    await ar.reload();
    await openNotifications(ar);
    assert.equal(await ar.evaluate(() => document.documentElement.dir), 'rtl');
    await shot(ar, 'notifications-arabic');
    const site = await j.signedIn('site');
    await site.getByRole('navigation', { name: MAIN_MENU }).waitFor();
    assert.equal(await menuEntry(site).count(), 0);
  });
});
