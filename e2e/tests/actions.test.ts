import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { apiGet, apiSignIn, eventually, journey, type Page, type SitePump, shot } from '../src/journey.ts';

/**
 * Acting on the fleet with the simulated devices running: a pump turned on goes pending and then ON
 * when its terminal confirms; a reboot confirmed in the modal reaches the reboot log and finishes; a
 * support ticket is checked, then stored.
 */

const actions = journey({ env: { SIMULATOR: 'on' }, timeout: 90_000 });
let token: string;

interface Site {
  id: number;
  title: string;
  company_id: number;
}
interface Terminal {
  id: number;
  terminal_id: string;
  connectivity?: 'on' | 'off';
}

const get = <T>(pathname: string) => apiGet<T>(actions.server.url, token, pathname);

/** A site whose terminals are all online (so the simulator runs them) with some pumps off. */
async function liveSite(): Promise<{ site: Site; terminals: Terminal[]; pumps: SitePump[] }> {
  const user = await get<{ agent: number; companies: { id: number }[] }>('/api/user/');
  for (const company of user.companies) {
    const sites = await get<{ id: number; title: string }[]>(`/api/company/${company.id}/sites/`);
    for (const s of sites) {
      const terminals = await get<Terminal[]>(`/api/site/${s.id}/terminals/`);
      if (!terminals.length || terminals.some((x) => x.connectivity !== 'on')) continue;
      const pumps = await get<SitePump[]>(`/api/site/${s.id}/pumps/`);
      if (pumps.filter((p) => p.status === 0 && p.last_synapse_status === 0).length < 3) continue;
      return { site: { id: s.id, title: s.title, company_id: company.id }, terminals, pumps };
    }
  }
  throw new Error('no site with every terminal online and three pumps off');
}

describe('actions on the fleet (simulator on)', () => {
  let target: Awaited<ReturnType<typeof liveSite>>;

  before(async () => {
    token = await apiSignIn(actions.server.url, 'agent');
    target = await liveSite();
  });

  const siteHash = () => `#/company/${target.site.company_id}/site/${target.site.id}/dashboard`;

  /** The app's own landing navigation after sign-in may still be on its way: go again until the site stays. */
  async function openSiteDashboard(p: Page) {
    await p.getByRole('heading', { level: 1 }).waitFor();
    for (let i = 0; i < 5; i++) {
      await p.goto(`${actions.server.url}/${siteHash()}`);
      await p.waitForTimeout(1_000);
      if ((await p.evaluate(() => window.location.hash)) === siteHash()) return;
    }
    throw new Error(`could not stay on ${siteHash()}`);
  }

  it('turns a pump on: pending at once, ON once the device confirms, and in the activation log', async () => {
    const p = await actions.signedIn('agent');
    await openSiteDashboard(p);
    const widget = p.getByRole('region', { name: 'Pump activation' });
    await widget.waitFor();

    // A device may fail a command now and then (as real ones do): then the next pump is tried.
    const candidates = target.pumps.filter((x) => x.status === 0 && x.last_synapse_status === 0);
    let switched: SitePump | undefined;
    for (const pump of candidates.slice(0, 3)) {
      const tile = widget.getByRole('article', { name: `Pump ${pump.pump_no} – ${pump.site}` });
      const sw = tile.getByRole('switch', { name: `Pump ${pump.pump_no} switch` });
      assert.equal(await sw.getAttribute('data-position'), 'bottom');
      assert.equal(await tile.getByTestId('pump-onoff').textContent(), 'OFF');
      await sw.click();
      await p.getByText(`Pump ${pump.pump_no} is being turned on`).waitFor();
      // Pending: the request has returned and the device has not confirmed yet (a simulated device
      // carries a pump command out 2 to 5 s after it receives it): the switch sits in the middle, the
      // tile shows 'P.' and the switch takes no clicks.
      await sw.and(tile.locator('[data-position="middle"]')).waitFor();
      await tile.getByText('P.', { exact: true }).waitFor();
      assert.equal(await sw.getAttribute('aria-disabled'), 'true');
      await shot(p, 'actions-pump-widget-pending', widget);
      const outcome = await eventually(
        'the device to answer',
        async () => {
          const pos = await sw.getAttribute('data-position');
          if (pos === 'top') return 'on';
          if (await p.getByText(`Pump ${pump.pump_no} was not switched`).isVisible()) return 'failed';
          return undefined;
        },
        45_000,
      );
      if (outcome === 'on') {
        switched = pump;
        assert.equal(await tile.getByTestId('pump-onoff').textContent(), 'ON');
        assert.equal(await tile.getByText('P.', { exact: true }).count(), 0);
        break;
      }
    }
    assert.ok(switched, 'one of three pumps was switched on');
    const confirmed = await get<SitePump[]>(`/api/site/${target.site.id}/pumps/`);
    assert.deepEqual(
      confirmed.filter((x) => x.id === switched.id).map((x) => [x.status, x.last_synapse_status]),
      [[1, 1]],
    );
    const log = await get<{ pump_no: number; kind: string; state: string; requested_by: string | null }[]>(
      `/api/site/${target.site.id}/pump/activation/log/?pump=${switched.pump_no}&limit_to=5`,
    );
    assert.equal(log[0].kind, 'pump_on');
    assert.equal(log[0].state, 'confirmed');
    assert.ok(log[0].requested_by, 'who asked is recorded');

    // The pump's command timeline tells the same story.
    await p.getByRole('button', { name: `Command history of pump ${switched.pump_no}` }).click();
    const drawer = p.getByRole('dialog', {
      name: `Command history: Pump ${switched.pump_no} – ${switched.site}`,
    });
    await drawer.getByText(`Turn pump ${switched.pump_no} on`).first().waitFor();
    for (const step of ['Queued', 'Sent']) {
      assert.ok((await drawer.getByText(step, { exact: true }).count()) >= 1, step);
    }
    assert.ok((await drawer.getByText('Done', { exact: true }).count()) >= 1);
    await shot(p, 'actions-pump-timeline');
    await drawer.getByRole('button', { name: 'Close' }).click();
    await widget.scrollIntoViewIfNeeded();
    await shot(p, 'actions-site-dashboard-light');
    await p.context().close();
  });

  it('reboots a terminal through the confirm modal: in the reboot log, then finished', async () => {
    const p = await actions.signedIn('agent', { dark: true });
    await openSiteDashboard(p);
    const widget = p.getByRole('region', { name: 'Terminal reboot' });
    await widget.waitFor();
    const image = widget.getByRole('button', { name: 'Reboot terminal' });
    assert.equal(await image.isDisabled(), true);
    const terminal = target.terminals[target.terminals.length - 1];
    const terminalSelect = widget.getByRole('combobox', { name: 'Terminal' });
    await p.waitForFunction(
      (el) => !(el as HTMLSelectElement).disabled,
      await terminalSelect.elementHandle(),
    );
    assert.equal(await widget.getByRole('combobox', { name: 'Site' }).isDisabled(), true); // preset site
    await terminalSelect.selectOption({ label: terminal.terminal_id });
    assert.equal(await image.isDisabled(), true);
    await widget.getByRole('combobox', { name: 'Reboot type' }).selectOption({ label: 'Software' });
    assert.equal(await image.isDisabled(), false);
    assert.equal(await image.getAttribute('data-ready'), 'true');
    await shot(p, 'actions-reboot-ready-cosmic');
    await shot(p, 'actions-reboot-widget-cosmic', widget);
    await image.click();
    const modal = p.getByRole('dialog', { name: 'Reboot terminal' });
    await modal.getByText(`confirm reboot of type software for terminal ${terminal.terminal_id}?`).waitFor();
    await shot(p, 'actions-reboot-confirm-cosmic');
    await modal.getByRole('button', { name: 'OK' }).click();
    await p.getByText('The terminal is rebooting, please wait until it has finished').waitFor();
    assert.equal(await terminalSelect.inputValue(), '');
    assert.equal(await image.isDisabled(), true);

    type RebootRow = { terminal_number?: string; state: string; status?: string; reboot_type: string };
    const logPath = `/api/site/${target.site.id}/terminal/reboot/log/?terminal=${terminal.terminal_id}&limit_to=5`;
    const first = await eventually('the reboot in the log', async () => {
      const rows = await get<RebootRow[]>(logPath);
      return rows.length ? rows[0] : undefined;
    });
    assert.equal(first.reboot_type, 'software');
    const finished = await eventually(
      'the reboot to finish',
      async () => {
        const [row] = await get<RebootRow[]>(logPath);
        return ['confirmed', 'failed', 'timed_out'].includes(row.state) ? row : undefined;
      },
      90_000,
    );
    assert.ok(['confirmed', 'failed'].includes(finished.state), `finished as ${finished.state}`);

    // The reboot log link of the widget (preset company: the company's log).
    assert.equal(
      await widget.getByRole('link', { name: 'Reboot log' }).getAttribute('href'),
      `#/company/${target.site.company_id}/terminal/reboot/log/`,
    );
    await widget.getByRole('button', { name: `Command history of terminal ${terminal.terminal_id}` }).click();
    const drawer = p.getByRole('dialog', { name: `Command history: Terminal ${terminal.terminal_id}` });
    await drawer.getByText(`Software reboot of terminal ${terminal.terminal_id}`).first().waitFor();
    await shot(p, 'actions-reboot-timeline-cosmic');
    await drawer.getByRole('button', { name: 'Close' }).click();
    await shot(p, 'actions-site-dashboard-cosmic');
    await p.context().close();
  });

  it('checks a ticket (subject first) and stores a full one', async () => {
    const p = await actions.signedIn('agent', { width: 390, height: 844 });
    const widget = p.getByRole('region', { name: 'Support' });
    await widget.waitFor();
    await widget.getByRole('button', { name: /Click here to contact support/ }).click();
    const modal = p.getByRole('dialog', { name: 'New support ticket' });
    await modal.getByRole('button', { name: 'Submit' }).click();
    await modal.getByText('Please enter a subject').waitFor();
    await shot(p, 'actions-ticket-error-390');
    await shot(p, 'actions-ticket-modal-390', modal);

    const subject = `Pump 3 stuck at ${Date.now()}`;
    await modal.getByLabel('Subject').fill(subject);
    await modal.getByRole('button', { name: 'Submit' }).click();
    await modal.getByText('Please describe the problem').waitFor();
    await modal.getByLabel('Body').fill('It stays on after the sale.\nSite manager on 01632 960000.');
    assert.equal(await modal.getByText('Please describe the problem').count(), 0);
    const answer = p.waitForResponse(
      (r) => r.url().endsWith('/api/zendesk/ticket/') && r.request().method() === 'POST',
    );
    await modal.getByRole('button', { name: 'Submit' }).click();
    const body = (await (await answer).json()) as { error: boolean; ticket_id: number };
    assert.equal(body.error, false);
    await p.getByText('Your ticket has been created').waitFor();
    await modal.waitFor({ state: 'detached' });

    const stored = await get<{ subject: string; body: string; forward_state: string }>(
      `/api/zendesk/ticket/${body.ticket_id}/`,
    );
    assert.equal(stored.subject, subject);
    assert.equal(stored.body, 'It stays on after the sale.\nSite manager on 01632 960000.');
    await shot(p, 'actions-agent-dashboard-390');
    await p.context().close();
  });

  it('a ticket whose answer is lost is sent again with the same Idempotency-Key and stored once', async () => {
    const p = await actions.signedIn('agent');
    const keys: string[] = [];
    let lost: { ticket_id: number } | undefined;
    // The first request reaches the server; its answer never reaches the console (the connection drops).
    await p.route('**/api/zendesk/ticket/', async (route) => {
      if (route.request().method() !== 'POST') return route.fallback();
      keys.push(route.request().headers()['idempotency-key']);
      if (lost) return route.continue();
      lost = (await (await route.fetch()).json()) as { ticket_id: number };
      return route.abort('connectionreset');
    });
    const widget = p.getByRole('region', { name: 'Support' });
    await widget.getByRole('button', { name: /Click here to contact support/ }).click();
    const modal = p.getByRole('dialog', { name: 'New support ticket' });
    await modal.getByLabel('Subject').fill(`Card reader offline at ${Date.now()}`);
    await modal.getByLabel('Body').fill('Since the storm this morning.');
    const answer = p.waitForResponse(
      (r) => r.url().endsWith('/api/zendesk/ticket/') && r.request().method() === 'POST',
    );
    await modal.getByRole('button', { name: 'Submit' }).click();
    const replay = await answer;
    await p.getByText('Your ticket has been created').waitFor();
    assert.equal(keys.length, 2);
    assert.match(keys[0], /^[0-9a-f]{32}$/);
    assert.equal(keys[1], keys[0]);
    assert.equal(replay.headers()['idempotent-replayed'], 'true');
    assert.equal(((await replay.json()) as { ticket_id: number }).ticket_id, lost?.ticket_id);
    await p.context().close();
  });
});
