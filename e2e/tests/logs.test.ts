import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, describe, it } from 'node:test';
import { parseCsv } from '@forecourt/test-support/csv';
import { journey, networkQuiet, type Page, shot, watchNetwork } from '../src/journey.ts';

/**
 * The log screens behind every widget link, in both forms a user meets (hash routes and plain paths),
 * with CSV exports that match the table.
 */

const logs = journey();
const { signedIn } = logs;

/**
 * One log's screens at the given scopes (ids of the demo fleet), with the log's title: the path is the scope's
 * then the log's, the CSV is named after the log and the scope.
 */
const screensOf = (title: string, csv: string, log: string, scopes: string[]) =>
  scopes.map((scope) => ({
    path: `${scope}/${log}`,
    title,
    csv: `${csv}-${scope.replaceAll('/', '-')}.csv`,
  }));

/** Every log screen the widgets link to (docs/product.md#log-screens-and-widget-links). */
const SCREENS: Array<{ path: string; title: string; csv: string }> = [
  ...screensOf('Alert log', 'alert-log', 'alert/log/', ['agent/1', 'company/1', 'site/1']),
  ...screensOf('Connectivity log', 'connectivity-log', 'connectivity/log', ['agent/1', 'company/1']),
  ...screensOf('Pump activation log', 'pump-activation-log', 'pump/activation/log/', ['site/1']),
  ...screensOf('Pump status log', 'pump-status-log', 'pump/status/log', ['site/1']),
  ...screensOf('Shock alert log', 'shock-log', 'shock/alert/log', ['company/1']),
  ...screensOf('Battery log', 'battery-log', 'terminal/battery/log', ['site/1']),
  ...screensOf('Environment log', 'environment-log', 'terminal/environment/log', ['site/1']),
  ...screensOf('Flash drive log', 'flashdrive-log', 'terminal/flashdrive/log', ['site/1']),
  ...screensOf('Hardware log', 'hardware-log', 'terminal/hardware/log/', ['company/1/site/1']),
  ...screensOf('Reboot log', 'reboot-log', 'terminal/reboot/log/', ['agent/1', 'company/1', 'site/1']),
];

const toggleSlash = (p: string) => (p.endsWith('/') ? p.slice(0, -1) : `${p}/`);

async function tableIds(p: Page): Promise<string[]> {
  return p
    .locator('tbody tr[data-row-id]')
    .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-row-id') ?? ''));
}

async function openLog(p: Page, title: string) {
  await p.getByRole('heading', { level: 1, name: title }).waitFor();
  await p.locator('tbody tr[data-row-id]').first().waitFor();
}

/** Goes to a log screen (a hash route or a plain path) and waits for its rows. */
async function visitLog(p: Page, route: string, title: string) {
  await p.goto(`${logs.server.url}/${route}`);
  await openLog(p, title);
}

/** Clicks Export CSV: the file's name and its rows, header first. */
async function exportCsv(p: Page): Promise<{ name: string; rows: string[][] }> {
  const [download] = await Promise.all([
    p.waitForEvent('download'),
    p.getByRole('button', { name: 'Export CSV' }).click(),
  ]);
  return { name: download.suggestedFilename(), rows: parseCsv(readFileSync(await download.path(), 'utf8')) };
}

describe('log screens', () => {
  let agent: Page;
  before(async () => {
    agent = await signedIn('agent');
  });

  for (const screen of SCREENS) {
    it(`${screen.path}: hash and plain forms show the same rows, and the CSV matches the table`, async () => {
      await visitLog(agent, `#/${screen.path}`, screen.title);
      const ids = await tableIds(agent);
      assert.ok(ids.length > 0, 'rows from the demo data');
      assert.match(await agent.getByTestId('log-zone').innerText(), /Europe\/London/);

      // The plain path typed into the address bar, with and without the trailing slash.
      for (const plain of [screen.path, toggleSlash(screen.path)]) {
        await agent.goto(`${logs.server.url}/${plain}`);
        await agent.waitForFunction((h) => window.location.hash === h, `#/${plain}`);
        assert.equal(new URL(agent.url()).pathname, '/');
        await openLog(agent, screen.title);
        assert.deepEqual((await tableIds(agent)).slice(0, 10), ids.slice(0, 10));
      }

      const { name, rows: csv } = await exportCsv(agent);
      assert.equal(name, screen.csv);
      assert.equal(csv[0]?.[0], 'id');
      const shown = await tableIds(agent);
      assert.deepEqual(
        csv.slice(1).map((r) => r[0]),
        shown,
        'the CSV has exactly the rows of the table, in order',
      );
    });
  }

  it('filters and search live in the URL: a copied link reopens the same view, and the CSV follows them', async () => {
    await visitLog(agent, '#/agent/1/alert/log/', 'Alert log');
    await agent.getByLabel('Search the log').fill('printer');
    await agent.waitForFunction(() => window.location.hash.includes('q=printer'));
    await agent.waitForFunction(() => {
      const cells = [...document.querySelectorAll('tbody tr[data-row-id] td:nth-child(2)')];
      return cells.length > 0 && cells.every((c) => /printer/i.test(c.textContent ?? ''));
    });
    const link = agent.url();
    const ids = await tableIds(agent);

    const other = await await agent.context().newPage();
    await other.goto(link);
    await openLog(other, 'Alert log');
    assert.equal(await other.getByLabel('Search the log').inputValue(), 'printer');
    assert.deepEqual(await tableIds(other), ids);

    const { rows: csv } = await exportCsv(other);
    const text = csv[0]?.indexOf('text') ?? -1;
    assert.ok(text >= 0);
    assert.deepEqual(
      csv.slice(1).map((r) => r[0]),
      ids,
    );
    for (const row of csv.slice(1)) assert.match(row[text] ?? '', /printer/i);
    await other.close();
  });

  it('a plain path keeps its query string: the filters arrive with it', async () => {
    await agent.goto(`${logs.server.url}/site/1/pump/status/log/?abnormal=true&pump=2`);
    await agent.waitForFunction(
      () => window.location.hash === '#/site/1/pump/status/log/?abnormal=true&pump=2',
    );
    await openLog(agent, 'Pump status log');
    assert.equal(await agent.getByLabel('Only abnormal (not 4000)').isChecked(), true);
    assert.equal(await agent.getByLabel('Pump number').inputValue(), '2');
    const pumps = await agent.locator('tbody tr[data-row-id] td:nth-child(2)').allInnerTexts();
    assert.ok(pumps.length > 0 && pumps.every((p) => p.trim() === '2'), `only pump 2: ${pumps.join(',')}`);
    const codes = await agent.locator('tbody tr[data-row-id] td:nth-child(3)').allInnerTexts();
    assert.ok(
      codes.every((c) => c.trim() !== '4000'),
      'only abnormal entries',
    );
  });

  it('Load more follows the cursor to older rows', async () => {
    await visitLog(agent, '#/agent/1/alert/log/?limit_to=25', 'Alert log');
    const first = await tableIds(agent);
    assert.equal(first.length, 25);
    await agent.getByRole('button', { name: 'Load more' }).click();
    await agent.waitForFunction(() => document.querySelectorAll('tbody tr[data-row-id]').length === 50);
    const all = await tableIds(agent);
    assert.deepEqual(all.slice(0, 25), first);
    assert.ok(Number(all[25]) < Number(first[24]), 'the next page is older');
  });

  it('screenshots: light, cosmic and 390px', async () => {
    await agent.setViewportSize({ width: 1366, height: 900 });
    const dark = await signedIn('agent', { dark: true });
    const small = await signedIn('agent', { width: 390 });
    const views: Array<[Page, string, string, string, 'page' | 'view']> = [
      [agent, '#/agent/1/alert/log/', 'Alert log', 'log-alert-agent-light', 'page'],
      [agent, '#/site/1/pump/status/log?abnormal=true', 'Pump status log', 'log-pump-status-light', 'page'],
      [dark, '#/company/1/site/1/terminal/hardware/log/', 'Hardware log', 'log-hardware-cosmic', 'page'],
      [dark, '#/site/1/terminal/reboot/log/', 'Reboot log', 'log-reboot-cosmic', 'page'],
      [small, '#/company/1/shock/alert/log', 'Shock alert log', 'log-shock-390', 'view'],
    ];
    for (const [p, route, title, name, of] of views) {
      await visitLog(p, route, title);
      await shot(p, name, of);
    }
    await small.getByRole('button', { name: 'Filters' }).click();
    await shot(small, 'log-shock-390-filters', 'view');
    await visitLog(small, '#/site/1/terminal/environment/log', 'Environment log');
    await shot(small, 'log-environment-390', 'view');
    await dark.context().close();
    await small.context().close();
  });
});

describe('widget links', () => {
  it('every log link on the dashboards opens its log screen', async () => {
    const p = await signedIn('agent');
    watchNetwork(p);
    const hrefs = new Set<string>();
    for (const dashboard of ['agent/dashboard', 'company/1/dashboard', 'company/1/site/1/dashboard']) {
      await p.goto(`${logs.server.url}/#/${dashboard}`);
      await networkQuiet(p);
      await p.waitForTimeout(1500);
      for (const href of await p
        .locator('main a[href*="/log"]')
        .evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? '')))
        hrefs.add(href);
    }
    assert.ok(hrefs.size >= 8, `log links found on the dashboards: ${[...hrefs].join(' ')}`);
    for (const href of hrefs) {
      await p.goto(`${logs.server.url}/${href.startsWith('#') ? href : `#${href}`}`);
      await p.getByRole('heading', { level: 1, name: / log$/ }).waitFor();
      await p.locator('tbody tr[data-row-id]').or(p.getByText('No entries yet.')).first().waitFor();
    }
    await p.context().close();
  });
});

describe('log scope', () => {
  it('a company user outside its company sees a clear not-allowed message', async () => {
    const p = await signedIn('company');
    await p.goto(`${logs.server.url}/#/company/2/alert/log/`);
    await p.getByRole('heading', { level: 1, name: 'Alert log' }).waitFor();
    await p.getByText('Not allowed', { exact: true }).waitFor();
    await p.getByText('You are not allowed to see this log', { exact: false }).waitFor();
    await shot(p, 'log-not-allowed');
    // Its own company's log opens.
    await visitLog(p, 'company/1/alert/log', 'Alert log');
    await p.context().close();
  });
});
