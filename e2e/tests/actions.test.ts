import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  type Browser,
  launchBrowser,
  newContext,
  type Page,
  type RunningServer,
  repoRoot,
  screenshot,
  screenshotDir,
  signIn,
  startServer,
} from '../src/harness.ts';

/**
 * Acting on the fleet with the simulated devices running: a pump turned on goes pending and then ON
 * when its terminal confirms; a reboot confirmed in the modal reaches the reboot log and finishes; a
 * support ticket is checked, then stored.
 */

let server: RunningServer;
let browser: Browser;
let token: string;

interface Site {
  id: number;
  title: string;
  company_id: number;
}
interface Pump {
  id: number;
  pump_no: number;
  site: string;
  status: number;
  last_synapse_status: number;
}
interface Terminal {
  id: number;
  terminal_id: string;
  connectivity?: 'on' | 'off';
}

async function apiGet<T>(pathname: string): Promise<T> {
  const res = await fetch(`${server.url}${pathname}`, { headers: { Authorization: `JWT ${token}` } });
  assert.equal(res.status, 200, `${pathname} → ${res.status} ${await res.clone().text()}`);
  return (await res.json()) as T;
}

/** Re-runs `probe` until it returns a value (not undefined) or the deadline passes. */
async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 1_000));
  }
}

/** A site whose terminals are all online (so the simulator runs them) with some pumps off. */
async function liveSite(): Promise<{ site: Site; terminals: Terminal[]; pumps: Pump[] }> {
  const user = await apiGet<{ agent: number; companies: { id: number }[] }>('/api/user/');
  for (const company of user.companies) {
    const sites = await apiGet<{ id: number; title: string }[]>(`/api/company/${company.id}/sites/`);
    for (const s of sites) {
      const terminals = await apiGet<Terminal[]>(`/api/site/${s.id}/terminals/`);
      if (!terminals.length || terminals.some((x) => x.connectivity !== 'on')) continue;
      const pumps = await apiGet<Pump[]>(`/api/site/${s.id}/pumps/`);
      if (pumps.filter((p) => p.status === 0 && p.last_synapse_status === 0).length < 3) continue;
      return { site: { id: s.id, title: s.title, company_id: company.id }, terminals, pumps };
    }
  }
  throw new Error('no site with every terminal online and three pumps off');
}

before(async () => {
  if (!existsSync(path.join(repoRoot, 'apps/web/dist/index.html'))) {
    execFileSync('npm', ['run', 'build', '-w', '@forecourt/web'], { cwd: repoRoot, stdio: 'inherit' });
  }
  server = await startServer({ SIMULATOR: 'on' });
  browser = await launchBrowser();
  const res = await fetch(`${server.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'agent', password: 'demo1234', rememberMe: true }),
  });
  token = ((await res.json()) as { token: string }).token;
  assert.ok(token, 'API sign-in');
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

async function page(opts: { width?: number; height?: number; dark?: boolean } = {}): Promise<Page> {
  const context = await newContext(browser, opts);
  // The cosmic theme is the app's own choice (kept in localStorage), not the browser's preference.
  if (opts.dark) await context.addInitScript(() => localStorage.setItem('fc-color-scheme', 'dark'));
  const p = await context.newPage();
  p.setDefaultTimeout(90_000);
  return p;
}

/** Signs in as the agent; on a loaded machine the first paint can be slow, so a failure leaves a screenshot. */
async function signInAgent(p: Page) {
  await signIn(p, server.url, 'agent').catch(async (error) => {
    await shot(p, `actions-signin-failed-${Date.now()}`);
    throw error;
  });
}

async function shot(p: Page, name: string) {
  await p.waitForTimeout(400);
  await screenshot(p, name);
}

describe('actions on the fleet (simulator on)', () => {
  let target: Awaited<ReturnType<typeof liveSite>>;

  before(async () => {
    target = await liveSite();
  });

  const siteHash = () => `#/company/${target.site.company_id}/site/${target.site.id}/dashboard`;

  /** The app's own landing navigation after sign-in may still be on its way: go again until the site stays. */
  async function openSiteDashboard(p: Page) {
    await p.getByRole('heading', { level: 1 }).waitFor();
    for (let i = 0; i < 5; i++) {
      await p.goto(`${server.url}/${siteHash()}`);
      await p.waitForTimeout(1_000);
      if ((await p.evaluate(() => window.location.hash)) === siteHash()) return;
    }
    throw new Error(`could not stay on ${siteHash()}`);
  }

  it('turns a pump on: pending at once, ON once the device confirms, and in the activation log', async () => {
    const p = await page();
    await signInAgent(p);
    await openSiteDashboard(p);
    const widget = p.getByRole('region', { name: 'Pump activation' });
    await widget.waitFor().catch(async (error) => {
      await shot(p, 'actions-pump-widget-missing');
      throw error;
    });

    // A device may fail a command now and then (as real ones do): then the next pump is tried.
    const candidates = target.pumps.filter((x) => x.status === 0 && x.last_synapse_status === 0);
    let switched: Pump | undefined;
    for (const pump of candidates.slice(0, 3)) {
      const tile = widget.getByRole('article', { name: `Pump ${pump.pump_no} – ${pump.site}` });
      const sw = tile.getByRole('switch', { name: `Pump ${pump.pump_no} switch` });
      assert.equal(await sw.getAttribute('data-position'), 'bottom');
      assert.equal(await tile.getByTestId('pump-onoff').textContent(), 'OFF');
      await sw.click();
      await p.getByText(`Pump ${pump.pump_no} is being turned on`).waitFor();
      // Pending: the request has returned but the device has not confirmed yet.
      await p.waitForFunction(
        (el) => el?.getAttribute('data-position') !== 'bottom',
        await sw.elementHandle(),
      );
      const position = await sw.getAttribute('data-position');
      if (position === 'middle') {
        assert.equal(await tile.getByText('P.', { exact: true }).isVisible(), true);
        assert.equal(await sw.getAttribute('aria-disabled'), 'true');
        await shot(p, 'actions-pump-pending');
        await widget.screenshot({ path: path.join(screenshotDir, 'actions-pump-widget-pending.png') });
      }
      const outcome = await waitFor(
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
    const confirmed = await apiGet<Pump[]>(`/api/site/${target.site.id}/pumps/`);
    assert.deepEqual(
      confirmed.filter((x) => x.id === switched.id).map((x) => [x.status, x.last_synapse_status]),
      [[1, 1]],
    );
    const log = await apiGet<{ pump_no: number; kind: string; state: string; requested_by: string | null }[]>(
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
    for (const step of ['Requested', 'Sent']) {
      assert.ok((await drawer.getByText(step, { exact: true }).count()) >= 1, step);
    }
    assert.ok((await drawer.getByText('Confirmed', { exact: true }).count()) >= 1);
    await shot(p, 'actions-pump-timeline');
    await drawer.getByRole('button', { name: 'Close' }).click();
    await widget.scrollIntoViewIfNeeded();
    await shot(p, 'actions-site-dashboard-light');
    await p.context().close();
  });

  it('reboots a terminal through the confirm modal: in the reboot log, then finished', async () => {
    const p = await page({ dark: true });
    await signInAgent(p);
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
    await widget.screenshot({ path: path.join(screenshotDir, 'actions-reboot-widget-cosmic.png') });
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
    const first = await waitFor('the reboot in the log', async () => {
      const rows = await apiGet<RebootRow[]>(logPath);
      return rows.length ? rows[0] : undefined;
    });
    assert.equal(first.reboot_type, 'software');
    const finished = await waitFor(
      'the reboot to finish',
      async () => {
        const [row] = await apiGet<RebootRow[]>(logPath);
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
    const p = await page({ width: 390, height: 844 });
    await signInAgent(p);
    const widget = p.getByRole('region', { name: 'Support' });
    await widget.waitFor();
    await widget.getByRole('button', { name: /Click here to contact support/ }).click();
    const modal = p.getByRole('dialog', { name: 'New support ticket' });
    await modal.getByRole('button', { name: 'Submit' }).click();
    await modal.getByText('Please enter a subject').waitFor();
    await shot(p, 'actions-ticket-error-390');
    await modal.screenshot({ path: path.join(screenshotDir, 'actions-ticket-modal-390.png') });

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

    const stored = await apiGet<{ subject: string; body: string; forward_state: string }>(
      `/api/zendesk/ticket/${body.ticket_id}/`,
    );
    assert.equal(stored.subject, subject);
    assert.equal(stored.body, 'It stays on after the sale.\nSite manager on 01632 960000.');
    await shot(p, 'actions-agent-dashboard-390');
    await p.context().close();
  });
});
