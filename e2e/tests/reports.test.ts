import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { parseCsv } from '@forecourt/test-support/csv';
import { apiGet, apiSignIn, journey, type Page, shot } from '../src/journey.ts';

/**
 * The Reports page (docs/reports.md): the agent opens it from the menu, picks 30 days, sees the availability table
 * and the chart of the worst sites, and downloads the PDF and the CSV; it picks one of its companies and sees only
 * that company's sites, in a link it can share. Screenshots in both themes, at phone width and in Arabic
 * (e2e/screenshots/reports-*.png).
 */

const reports = journey({ timeout: 30_000 });

async function download(p: Page, name: RegExp) {
  const [file] = await Promise.all([p.waitForEvent('download'), p.getByRole('button', { name }).click()]);
  return { name: file.suggestedFilename(), bytes: readFileSync(await file.path()) };
}

describe('reports', () => {
  it('the agent opens Reports, picks 30 days, sees the table and the chart, downloads the PDF and the CSV', async () => {
    const p = await reports.signedIn('agent', { width: 1400, height: 1000 });
    await p.getByRole('link', { name: 'Reports' }).click();
    await p.getByRole('heading', { level: 1, name: 'Reports' }).waitFor();
    await p.getByText('30 days', { exact: true }).click();
    const table = p.getByRole('table', { name: 'Availability' });
    await table.locator('tbody tr').first().waitFor();
    const rows = await table.locator('tbody tr').count();
    assert.ok(rows > 2, `a row per demo site and the total (${rows})`);
    await p.getByRole('img', { name: /worst sites/ }).waitFor();
    await p.getByRole('table', { name: 'Alerts' }).waitFor();

    const pdf = await download(p, /^Download Availability as PDF$/);
    assert.match(pdf.name, /^availability-agent-\d+-.*\.pdf$/);
    assert.equal(pdf.bytes.subarray(0, 5).toString(), '%PDF-');
    const csv = await download(p, /^Download Availability as CSV$/);
    assert.match(csv.name, /^availability-agent-\d+-.*\.csv$/);
    const lines = parseCsv(csv.bytes.toString('utf8'));
    assert.equal(lines[0]?.[0], 'id');
    assert.equal(lines.length, rows + 1, 'the CSV has the rows of the table (and its header)');
    await shot(p, 'reports');
    await p.context().close();

    const dark = await reports.signedIn('agent', { width: 1400, height: 1000, dark: true });
    await dark.goto(reports.url('/reports'));
    await dark.getByRole('img', { name: /worst sites/ }).waitFor();
    await shot(dark, 'reports-dark');
    await dark.context().close();

    const phone = await reports.signedIn('site', { width: 390, height: 844 });
    await phone.goto(reports.url('/reports'));
    await phone.getByRole('table', { name: 'Availability' }).locator('tbody tr').first().waitFor();
    const width = await phone.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 390, `nothing runs off the side of a phone (${width}px)`);
    await shot(phone, 'reports-phone');
    await phone.context().close();

    const ar = await reports.signedIn('agent', { width: 1400, height: 1000 });
    await ar.evaluate(() => localStorage.setItem('fc-language', 'ar'));
    await ar.goto(reports.url('/reports'));
    await ar.reload();
    await ar.getByRole('heading', { level: 1, name: 'التقارير' }).waitFor();
    await ar.getByRole('table', { name: 'التوفر' }).locator('tbody tr').first().waitFor();
    await shot(ar, 'reports-arabic');
    await ar.context().close();
  });

  it('the agent picks a company and sees only its sites; the link shows the same to whoever opens it', async () => {
    const token = await apiSignIn(reports.server.url, 'agent');
    const me = await apiGet<{ companies: Array<{ id: number; name: string }> }>(
      reports.server.url,
      token,
      '/api/user/',
    );
    assert.ok(me.companies.length >= 2, 'the demo agent has several companies');
    const company = me.companies[1]!;
    const own = await apiGet<Array<{ title: string }>>(
      reports.server.url,
      token,
      `/api/company/${company.id}/sites/`,
    );
    const others = new Set<string>();
    for (const c of me.companies.filter((c) => c.id !== company.id))
      for (const s of await apiGet<Array<{ title: string }>>(
        reports.server.url,
        token,
        `/api/company/${c.id}/sites/`,
      ))
        others.add(s.title);
    const titles = new Set(own.map((s) => s.title));

    const p = await reports.signedIn('agent', { width: 1400, height: 1000 });
    await p.goto(reports.url('/reports'));
    const picker = p.getByRole('combobox', { name: 'Scope' });
    await picker.click();
    await picker.fill(company.name.slice(0, 6));
    await p.getByRole('option', { name: company.name, exact: true }).click();
    await p.waitForURL(new RegExp(`scope=company(%3A|:)${company.id}`));
    const table = p.getByRole('table', { name: 'Availability' });
    const names = async () => {
      await table.locator('tbody tr').first().waitFor();
      const cells = await table.locator('tbody tr td:first-child').allInnerTexts();
      return cells.slice(0, -1); // the last row is the total
    };
    // The rows are the company's sites, and none of another company.
    await p.waitForFunction(
      (n) => document.querySelectorAll('table[aria-label="Availability"] tbody tr').length === n + 1,
      own.length,
    );
    const shown = await names();
    assert.deepEqual(new Set(shown), titles, `the rows are ${company.name}'s sites`);
    assert.ok(
      shown.every((s) => !others.has(s) || titles.has(s)),
      'no site of another company',
    );
    await shot(p, 'reports-company');
    const link = p.url();
    await p.context().close();

    // The link, opened again (here in the dark theme), reports the same company.
    const dark = await reports.signedIn('agent', { width: 1400, height: 1000, dark: true });
    await dark.goto(link);
    await dark.getByRole('combobox', { name: 'Scope' }).waitFor();
    await dark.waitForFunction(
      (n) => document.querySelectorAll('table[aria-label="Availability"] tbody tr').length === n + 1,
      own.length,
    );
    await shot(dark, 'reports-company-dark');
    await dark.context().close();

    const phone = await reports.signedIn('agent', { width: 390, height: 844 });
    await phone.goto(link);
    await phone.getByRole('table', { name: 'Availability' }).locator('tbody tr').first().waitFor();
    await phone.getByRole('combobox', { name: 'Scope' }).click();
    await phone.getByRole('option').first().waitFor();
    const width = await phone.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 390, `nothing runs off the side of a phone (${width}px)`);
    await shot(phone, 'reports-company-phone', 'view');
    await phone.context().close();

    const ar = await reports.signedIn('agent', { width: 1400, height: 1000 });
    await ar.evaluate(() => localStorage.setItem('fc-language', 'ar'));
    await ar.goto(link);
    await ar.reload();
    await ar.getByRole('combobox', { name: 'النطاق' }).waitFor();
    await ar.getByRole('table', { name: 'التوفر' }).locator('tbody tr').first().waitFor();
    await shot(ar, 'reports-company-arabic');
    await ar.context().close();
  });
});
