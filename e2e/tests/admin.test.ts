import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { apiGet, apiSignIn, journey, type Locator, type Page, shot } from '../src/journey.ts';

/**
 * Bringing one's own fleet, as an agent does it in the console's Administration area: a company, a site
 * placed with a click on the map, a terminal and four pumps; the terminal's device token, used by a device
 * script; the new site on the agent dashboard and map; a 2,000-row CSV previewed, fixed and imported; the
 * terminal decommissioned (gone from the dashboard, its token refused) and the audit listing all of it.
 */

const admin = journey({ timeout: 30_000 });
const RUN = Date.now().toString(36).slice(-5).toUpperCase();
const COMPANY = `E2E Fuels ${RUN}`;
const SITE = `Harbour Road ${RUN}`;
const SITE_NO = `H${RUN}`;
const TERMINAL = `T-${RUN}`;
let token: string;
let agentId: number;
let deviceToken = '';

/** Picks an option of a Mantine Select by typing part of it. */
async function choose(scope: Locator, label: string, typed: string, option: string) {
  // A required field's label ends with an asterisk.
  const input = scope.getByLabel(new RegExp(`^${label}( \\*)?$`));
  await input.click();
  await input.fill(typed);
  await scope.page().getByRole('option', { name: option, exact: true }).click();
  assert.equal(await input.inputValue(), option);
}

async function openAdmin(p: Page, page: string, title: string) {
  await p.goto(admin.url(`/admin/${page}`));
  try {
    await p.getByRole('heading', { level: 1, name: title, exact: true }).waitFor();
  } catch (error) {
    await shot(p, `admin-failed-${page}`);
    throw error;
  }
}

async function formDialog(p: Page, name: string) {
  const form = p.getByRole('form', { name, exact: true });
  await form.waitFor();
  return form;
}

async function save(form: Locator) {
  await form.getByRole('button', { name: 'Save' }).click();
  await form.waitFor({ state: 'detached' });
}

function telemetry(secret: string) {
  return fetch(`${admin.server.url}/api/device/v1/telemetry`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Device ${secret}` },
    body: JSON.stringify({ at: new Date().toISOString(), battery_life: 87, temperature_main_board: 41 }),
  });
}

interface MapSite {
  site_id?: number;
  title?: string;
  terminals: { terminal_id: string }[];
}

/** The agent dashboard once its fleet map has loaded, and what that map reads (the same endpoint). */
async function dashboardMap(p: Page): Promise<MapSite[]> {
  await p.goto(admin.url('/agent/dashboard'));
  await p.getByTestId('company-map').locator('.leaflet-container').waitFor();
  return apiGet<MapSite[]>(admin.server.url, token, `/api/agent/${agentId}/map/terminals/`);
}

function csv(rows: number, bad?: number): string {
  const lines = ['company,site_number,site_title,lat,lng,timezone,terminal_id,pumps'];
  for (let i = 0; i < rows; i++) {
    const site = Math.floor(i / 10);
    const zone = i === bad ? 'Mars/Olympus_Mons' : 'Europe/London';
    lines.push(
      `Import ${RUN},S${site},Imported site ${site},${(52 + site / 1000).toFixed(4)},${(-1 - site / 1000).toFixed(4)},${zone},IMP-${RUN}-${i},2`,
    );
  }
  return `${lines.join('\n')}\n`;
}

describe('fleet administration in the console', () => {
  before(async () => {
    token = await apiSignIn(admin.server.url, 'agent');
    agentId = (await apiGet<{ agent: number }>(admin.server.url, token, '/api/user/')).agent;
  });

  it('the agent creates a company, a site placed on the map, a terminal and four pumps', async () => {
    const p = await admin.signedIn('agent');
    await p.getByRole('button', { name: 'Administration' }).click();
    await p.getByRole('link', { name: 'Companies', exact: true }).click();
    await p.getByRole('heading', { level: 1, name: 'Companies' }).waitFor();

    await p.getByRole('button', { name: 'New company' }).click();
    let form = await formDialog(p, 'New company');
    await form.getByRole('textbox', { name: 'Name' }).fill(COMPANY);
    await save(form);
    await p.getByRole('textbox', { name: 'Search Companies' }).fill(RUN);
    await p.waitForURL(/[?&]q=/);
    await p
      .getByRole('table', { name: 'Companies' })
      .getByRole('cell', { name: COMPANY, exact: true })
      .waitFor();

    await openAdmin(p, 'sites', 'Sites');
    await p.getByRole('button', { name: 'New site' }).click();
    form = await formDialog(p, 'New site');
    await choose(form, 'Company', RUN, COMPANY);
    await form.getByRole('textbox', { name: 'Title' }).fill(SITE);
    await form.getByRole('textbox', { name: 'Number' }).fill(SITE_NO);
    // A typed coordinate that is out of range is refused in place, with the contract's message.
    await form.getByRole('textbox', { name: 'Latitude' }).fill('123');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.getByText('lat must be a number between -90 and 90').waitFor();
    // The map places the site: a click fills both coordinates.
    const map = form.getByRole('application', { name: 'Map: click to place the site' });
    await map.waitFor();
    await map.click({ position: { x: 60, y: 40 } });
    await form.getByTestId('site-position-marker').waitFor({ state: 'attached' });
    const lat = Number(await form.getByRole('textbox', { name: 'Latitude' }).inputValue());
    const lng = Number(await form.getByRole('textbox', { name: 'Longitude' }).inputValue());
    assert.ok(lat > 50 && lat < 53 && lng > -2 && lng < 1, `placed near London: ${lat}, ${lng}`);
    await choose(form, 'Time zone', 'Europe/Lond', 'Europe/London');
    await shot(p, 'admin-site-form');
    await save(form);
    await p.getByRole('table', { name: 'Sites' }).getByRole('cell', { name: SITE, exact: true }).waitFor();

    await openAdmin(p, 'terminals', 'Terminals');
    await p.getByRole('button', { name: 'New terminal' }).click();
    form = await formDialog(p, 'New terminal');
    await choose(form, 'Site', RUN, `${SITE} (${SITE_NO})`);
    await form.getByRole('textbox', { name: 'Terminal number' }).fill(TERMINAL);
    await form.getByRole('textbox', { name: 'Card acceptor name' }).fill(`${SITE} forecourt`);
    await save(form);
    await p
      .getByRole('table', { name: 'Terminals' })
      .getByRole('cell', { name: TERMINAL, exact: true })
      .waitFor();

    await openAdmin(p, 'pumps', 'Pumps');
    for (const no of [1, 2, 3, 4]) {
      await p.getByRole('button', { name: 'New pump' }).click();
      form = await formDialog(p, 'New pump');
      await choose(form, 'Site', RUN, `${SITE} (${SITE_NO})`);
      await form.getByRole('textbox', { name: 'Pump number' }).fill(String(no));
      await save(form);
    }
    // A second pump 4 is a duplicate: the 409 shows under the pump number.
    await p.getByRole('button', { name: 'New pump' }).click();
    form = await formDialog(p, 'New pump');
    await choose(form, 'Site', RUN, `${SITE} (${SITE_NO})`);
    await form.getByRole('textbox', { name: 'Pump number' }).fill('4');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.getByText(/pump_no: .*already has a pump 4/).waitFor();
    await form.getByRole('button', { name: 'Cancel' }).click();
    await p.getByRole('textbox', { name: 'Search Pumps' }).fill(SITE);
    await p.waitForURL(/[?&]q=/);
    const pumps = p.getByRole('table', { name: 'Pumps' });
    await p.getByText('4 shown', { exact: true }).waitFor();
    assert.equal(await pumps.getByRole('cell', { name: `${SITE} (${SITE_NO})`, exact: true }).count(), 4);
    await p.context().close();
  });

  it("the terminal's device token is shown once, and a device posts telemetry with it", async () => {
    const p = await admin.signedIn('agent');
    await openAdmin(p, 'terminals', 'Terminals');
    await p.getByRole('textbox', { name: 'Search Terminals' }).fill(TERMINAL);
    await p.waitForURL(/[?&]q=/);
    await p.getByRole('button', { name: `Provision device token ${TERMINAL}` }).click();
    const dialog = p.getByRole('dialog', { name: `Device token of terminal ${TERMINAL}` });
    await dialog.getByText('The old token stops working').waitFor();
    await dialog.getByRole('button', { name: 'Provision device token' }).click();
    const field = dialog.getByRole('textbox', { name: 'Device token' });
    await field.waitFor();
    deviceToken = await field.inputValue();
    assert.ok(deviceToken.length >= 20, 'a real secret');
    await dialog.getByRole('button', { name: 'Copy token' }).click();
    await dialog.getByRole('button', { name: 'Copied' }).waitFor();
    await shot(p, 'admin-device-token');
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'detached' });
    assert.equal(await p.getByText(deviceToken).count(), 0, 'the token is gone once the dialog closes');

    const res = await telemetry(deviceToken);
    assert.equal(res.status, 202, await res.text());
    await p.context().close();
  });

  it('the new site appears on the agent dashboard and its map', async () => {
    const p = await admin.signedIn('agent');
    const sites = await dashboardMap(p);
    const mine = sites.find((s) => s.terminals.some((t) => t.terminal_id === TERMINAL));
    assert.ok(mine, 'the new terminal is on the fleet map');
    const counter = p.getByTestId('sites-online');
    await counter.waitFor();
    const listed = await apiGet<{ title: string }[]>(admin.server.url, token, `/api/agent/${agentId}/sites/`);
    assert.ok(
      listed.some((s) => s.title === SITE),
      'the dashboard lists the site',
    );
    const label = await counter.getAttribute('aria-label');
    assert.match(label ?? '', new RegExp(`/${String(listed.length).padStart(3, '0')}$`));
    await shot(p, 'admin-dashboard-after-create');
    await p.context().close();
  });

  it('a 2,000-row CSV is previewed with its one bad row, fixed and imported', async () => {
    const p = await admin.signedIn('agent');
    await openAdmin(p, 'import', 'Import');
    const text = p.getByRole('textbox', { name: 'CSV text' });
    await text.fill(csv(2000, 1234));
    await p.getByRole('button', { name: 'Preview' }).click();
    const preview = p.getByRole('table', { name: 'Import preview' });
    await preview.waitFor({ timeout: 120_000 });
    await p.getByTestId('import-summary').getByText('1 with errors').waitFor();
    // Only the bad row is listed at first: line 1236 (the header is line 1).
    await preview.getByRole('cell', { name: '1236', exact: true }).waitFor();
    await preview.getByText(/timezone must be an IANA time zone name/).waitFor();
    assert.equal(await p.getByRole('button', { name: 'Import' }).isDisabled(), true);
    await shot(p, 'admin-import-preview-error');

    await text.fill(csv(2000));
    await p.getByText('The CSV changed since the preview').waitFor();
    await p.getByRole('button', { name: 'Preview' }).click();
    await p.getByTestId('import-summary').getByText('2000 to create').waitFor({ timeout: 120_000 });
    await p.getByRole('button', { name: 'Import' }).click();
    await p
      .getByTestId('import-done')
      .getByText('Imported: 2000 created, 0 updated, 0 unchanged.')
      .waitFor({ timeout: 120_000 });
    const found = await apiGet<unknown[]>(
      admin.server.url,
      token,
      `/api/admin/terminals/?q=IMP-${RUN}-&limit_to=1000`,
    );
    assert.equal(found.length, 1000, 'the imported terminals are listed (first page)');
    await p.context().close();
  });

  it('a decommissioned terminal leaves the dashboard, its token gets 401, and the audit lists it all', async () => {
    const p = await admin.signedIn('agent');
    const decommission = async (name: string, refused?: RegExp) => {
      await p.getByRole('button', { name: `Decommission ${name}`, exact: true }).click();
      const confirm = p.getByRole('dialog', { name: `Decommission ${name}?` });
      await confirm.getByRole('button', { name: 'Decommission' }).click();
      if (refused) {
        await confirm.getByText(refused).waitFor();
        await confirm.getByRole('button', { name: 'Cancel' }).click();
      }
      await confirm.waitFor({ state: 'detached' });
    };
    const [{ id: terminalId }] = await apiGet<{ id: number }[]>(
      admin.server.url,
      token,
      `/api/admin/terminals/?q=${TERMINAL}`,
    );
    await openAdmin(p, 'terminals', 'Terminals');
    await p.getByRole('textbox', { name: 'Search Terminals' }).fill(TERMINAL);
    await p.waitForURL(/[?&]q=/);
    // The site's last terminal carries its pumps: refused (409) while they are live, naming them.
    await p.getByRole('button', { name: `Decommission ${TERMINAL}` }).click();
    await p.getByRole('dialog').getByText('Its device token stops working at once.').waitFor();
    await p.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    await decommission(TERMINAL, /still has live children: .*pump 4/);

    await openAdmin(p, 'pumps', 'Pumps');
    await p.getByRole('textbox', { name: 'Search Pumps' }).fill(SITE);
    await p.waitForURL(/[?&]q=/);
    for (const no of [1, 2, 3, 4]) await decommission(`Pump ${no} of site ${SITE} (${SITE_NO})`);
    await p.getByText(`Nothing matches “${SITE}”.`).waitFor();

    await openAdmin(p, 'terminals', 'Terminals');
    await p.getByRole('textbox', { name: 'Search Terminals' }).fill(TERMINAL);
    await p.waitForURL(/[?&]q=/);
    await decommission(TERMINAL);
    await p.getByText(`Nothing matches “${TERMINAL}”.`).waitFor();

    const res = await telemetry(deviceToken);
    assert.equal(res.status, 401);

    const sites = await dashboardMap(p);
    assert.ok(!sites.some((s) => s.terminals.some((t) => t.terminal_id === TERMINAL)), 'gone from the map');

    await openAdmin(p, 'audit', 'Audit');
    const audit = p.getByRole('table', { name: 'Audit entries' });
    await audit.waitFor();
    await audit.getByRole('cell', { name: 'decommission' }).first().waitFor();
    await p.getByRole('combobox', { name: 'Entity', exact: true }).click();
    await p.getByRole('option', { name: 'terminal', exact: true }).click();
    await p.waitForURL(/entity=terminal/);
    await audit.getByText(TERMINAL).first().waitFor();
    await audit.getByRole('cell', { name: 'decommission', exact: true }).first().waitFor();
    // Older entries of the terminal (its token, its creation) are further down the log: the API behind the
    // screen lists them for this terminal.
    const about = await apiGet<{ action: string }[]>(
      admin.server.url,
      token,
      `/api/admin/audit/?entity=terminal&entity_id=${terminalId}`,
    );
    for (const action of ['create', 'provision_token', 'decommission']) {
      assert.ok(
        about.some((r) => r.action === action),
        `the audit lists the terminal's ${action}`,
      );
    }
    await p.context().close();
  });

  for (const [name, opts] of [
    ['light', {}],
    ['cosmic', { dark: true }],
    ['phone', { width: 390, height: 844 }],
  ] as const) {
    it(`every admin page renders (${name})`, async () => {
      const p = await admin.signedIn('agent', opts);
      for (const [page, title] of [
        ['companies', 'Companies'],
        ['sites', 'Sites'],
        ['terminals', 'Terminals'],
        ['pumps', 'Pumps'],
        ['users', 'Users'],
        ['import', 'Import'],
        ['audit', 'Audit'],
      ] as const) {
        await openAdmin(p, page, title);
        if (page !== 'import') await p.getByRole('table').first().waitFor();
        await shot(p, `admin-${page}-${name}`);
      }
      await p.context().close();
    });
  }

  it('a company user has no Administration entry and is told it is for agents', async () => {
    const p = await admin.signedIn('company');
    assert.equal(await p.getByRole('button', { name: 'Administration' }).count(), 0);
    await p.goto(admin.url('/admin/sites'));
    await p.getByText('The Administration area is for agents.').waitFor();
    await p.context().close();
  });
});
