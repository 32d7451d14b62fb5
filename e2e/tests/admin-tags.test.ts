import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { apiGet, apiSignIn, journey, type Page, shot } from '../src/journey.ts';

/**
 * Terminal tags in the Administration area (docs/targets.md): the demo's tags and software versions on the
 * terminals page, the tag filter kept in the URL, and a terminal's tags edited in its form — in both themes, at
 * phone width and in Arabic (screenshots).
 */

const tags = journey({ timeout: 30_000 });
const PHONE = { width: 390, height: 844 };
let token: string;

interface Terminal {
  id: number;
  terminal_id: string;
  tags: string[];
  software_version: string | null;
}

async function openTerminals(p: Page, query = '') {
  await p.goto(tags.url(`/admin/terminals${query}`));
  await p.getByRole('heading', { level: 1, name: 'Terminals', exact: true }).waitFor();
  await p.getByRole('table', { name: 'Terminals' }).waitFor();
}

describe('terminal tags in the console', () => {
  before(async () => {
    token = await apiSignIn(tags.server.url, 'agent');
  });

  it('the terminals page shows tags and versions, filters by tag and edits a terminal’s tags', async () => {
    const canaries = await apiGet<Terminal[]>(tags.server.url, token, '/api/admin/terminals/?tag=canary');
    assert.ok(canaries.length > 0, 'the demo has canaries');
    const p = await tags.signedIn('agent');
    await openTerminals(p);
    const table = p.getByRole('table', { name: 'Terminals' });
    await table.getByText('canary', { exact: true }).first().waitFor();
    await table.getByText(canaries[0].software_version!, { exact: true }).first().waitFor();
    await shot(p, 'admin-terminals-tags');

    // The filter: typed, then kept in the URL; only canaries are listed.
    const filter = p.getByRole('combobox', { name: 'Tag filter' });
    await filter.fill('canary');
    await filter.press('Enter');
    await p.waitForURL(/[?&]tag=canary/);
    await table.getByRole('row').filter({ hasText: canaries[0].terminal_id }).waitFor();
    const rows = table.getByRole('row').filter({ has: p.getByText('canary', { exact: true }) });
    await p.waitForFunction(
      (n) => document.querySelectorAll('table[aria-label="Terminals"] tbody tr').length === n,
      Math.min(canaries.length, 20),
    );
    assert.equal(await rows.count(), Math.min(canaries.length, 20));
    await shot(p, 'admin-terminals-tag-filter');

    // Edit the first canary's tags: add one, keep the rest.
    const target = canaries[0];
    await p.getByRole('button', { name: `Edit ${target.terminal_id}`, exact: true }).click();
    const form = p.getByRole('form', { name: `Edit terminal ${target.terminal_id}`, exact: true });
    await form.waitFor();
    const input = form.getByRole('combobox', { name: 'Tags' });
    await input.fill('E2E-Lane');
    await input.press('Enter');
    await form.getByText('e2e-lane', { exact: true }).waitFor();
    await shot(p, 'admin-terminal-form-tags', form);
    await form.getByRole('button', { name: 'Save' }).click();
    await form.waitFor({ state: 'detached' });
    await table.getByText('e2e-lane', { exact: true }).waitFor();
    const [saved] = await apiGet<Terminal[]>(
      tags.server.url,
      token,
      `/api/admin/terminals/?tag=e2e-lane&tag=canary`,
    );
    assert.equal(saved.id, target.id);
    assert.deepEqual(saved.tags, [...target.tags, 'e2e-lane']);
    await p.context().close();
  });

  it('the same page in the cosmic theme, at phone width and in Arabic (screenshots)', async () => {
    for (const dark of [false, true]) {
      for (const size of [undefined, PHONE]) {
        for (const arabic of [false, true]) {
          if (!arabic && !dark && !size) continue;
          const name = `admin-terminals-tags-${dark ? 'cosmic' : 'light'}${size ? '-phone' : ''}${arabic ? '-ar' : ''}`;
          const p = await tags.signedIn('agent', { dark, ...size });
          if (arabic) await p.evaluate(() => localStorage.setItem('fc-language', 'ar'));
          await p.goto(tags.url('/admin/terminals?tag=canary'));
          if (arabic) await p.reload();
          const table = p.getByRole('table', { name: arabic ? 'الأجهزة الطرفية' : 'Terminals' });
          await table.getByText('canary', { exact: true }).first().waitFor();
          if (arabic) {
            assert.equal(await p.evaluate(() => document.documentElement.dir), 'rtl');
            await p.getByRole('combobox', { name: 'تصفية حسب الوسم' }).waitFor();
          }
          await shot(p, name);
          await p.context().close();
        }
      }
    }
  });
});
