import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import {
  type Browser,
  launchBrowser,
  newContext,
  type RunningServer,
  repoRoot,
  startServer,
} from '../src/harness.ts';
import { apiGet, apiSignIn, eventually, type Page, type SitePump, shot, signIn } from '../src/journey.ts';

/**
 * Two server processes on one PostgreSQL database (docs/deploying.md "Several nodes on one PostgreSQL", decision 0015): the console
 * signed in on node A turns a pump on; the pump's terminal, played by this test through the device API,
 * long-polls node B and is handed the command during that long-poll; its confirmation, posted through node B,
 * ends the pending state on node A's screen. A token signed by node A works on node B (JWT_SECRET unset: the
 * first node generated the secret and keeps it in the database), and its logout on A ends it on B.
 *
 * Needs a PostgreSQL server: E2E_POSTGRES_URL, else DATABASE_URL, else 127.0.0.1:5432 as postgres with trust
 * auth. It creates a throw-away database there and drops it afterwards; unreachable → the suite is skipped.
 * E2E_PORT pins the ports (node A on E2E_PORT, node B on E2E_PORT + 1).
 */

const adminUrl =
  process.env.E2E_POSTGRES_URL || process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const shown = (() => {
  const u = new URL(adminUrl);
  u.password = '';
  return `${u.host}${u.pathname}`;
})();

async function admin(sql: string): Promise<void> {
  const c = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 3_000 });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

async function unreachable(): Promise<string | false> {
  try {
    await admin('select 1');
    return false;
  } catch (err) {
    return `PostgreSQL is unreachable at ${shown} (${(err as Error).message}): the two-node journey needs one (set E2E_POSTGRES_URL or DATABASE_URL, or run it on 127.0.0.1:5432 with trust auth)`;
  }
}

const skip = await unreachable();
if (skip) console.log(`two-nodes: skipped — ${skip}`);

/** How long the device's long-poll waits for a command (the device API allows up to 30 s). */
const WAIT_S = 25;

interface DeviceCommand {
  id: number;
  kind: string;
  pump_no?: number;
  created_at: string;
}

// Each test carries the skip (not the suite), so the run's summary counts them as skipped.
describe('two nodes on one PostgreSQL', () => {
  const dbName = `fc_e2e_two_nodes_${process.pid}_${Date.now().toString(36)}`;
  let dbCreated = false;
  let nodeA: RunningServer | undefined;
  let nodeB: RunningServer | undefined;
  let browser: Browser | undefined;
  let agentToken: string;

  /** The target: a pump that is off and confirmed off, its site, and the device token of its terminal. */
  let target: { pump: SitePump; companyId: number; siteId: number; terminalId: number; deviceToken: string };

  const A = () => nodeA!.url;
  const B = () => nodeB!.url;

  /** A call to the device API of `base` as the target's terminal. */
  const device = (base: string, pathname: string, init: { method?: string; body?: unknown } = {}) =>
    fetch(`${base}/api/device/v1/${pathname}`, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers: {
        Authorization: `Device ${target.deviceToken}`,
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });

  before(async () => {
    if (skip) return;
    if (!existsSync(path.join(repoRoot, 'apps/web/dist/index.html'))) {
      execFileSync('npm', ['run', 'build', '-w', 'apps/web'], { cwd: repoRoot, stdio: 'inherit' });
    }
    await admin(`create database ${dbName}`);
    dbCreated = true;
    const u = new URL(adminUrl);
    u.pathname = `/${dbName}`;
    // JWT_SECRET unset: the first node generates the signing secret and keeps it in the database.
    const env = { DATABASE_URL: u.toString(), JWT_SECRET: undefined, SIMULATOR: 'off' };
    const port = process.env.E2E_PORT ? Number(process.env.E2E_PORT) : undefined;
    // The first node migrates the empty database and seeds the demo once; the second finds it ready.
    nodeA = await startServer({ ...env, SEED: 'demo' }, { port });
    nodeB = await startServer({ ...env, SEED: 'none' }, { port: port && port + 1 });
    browser = await launchBrowser();
    agentToken = await apiSignIn(A(), 'agent');
  });

  after(async () => {
    await browser?.close();
    await Promise.all([nodeA?.stop(), nodeB?.stop()]);
    if (dbCreated) await admin(`drop database if exists ${dbName} with (force)`);
  });

  it('a token signed by node A works on node B (the signing secret is shared through the database)', {
    skip,
  }, async () => {
    const me = await apiGet<{ username: string; agent: number | null }>(B(), agentToken, '/api/user/');
    assert.equal(me.username, 'agent');
    assert.ok(me.agent && me.agent > 0);
    // And the other way round.
    const other = await apiSignIn(B(), 'company');
    assert.equal((await apiGet<{ username: string }>(A(), other, '/api/user/')).username, 'company');
  });

  it('finds a pump that is off and provisions its terminal through node A', { skip }, async () => {
    const user = await apiGet<{ companies: { id: number }[] }>(A(), agentToken, '/api/user/');
    for (const company of user.companies) {
      const sites = await apiGet<{ id: number }[]>(A(), agentToken, `/api/company/${company.id}/sites/`);
      for (const site of sites) {
        const pumps = await apiGet<SitePump[]>(A(), agentToken, `/api/site/${site.id}/pumps/`);
        const off = pumps.filter((p) => p.status === 0 && p.last_synapse_status === 0);
        if (!off.length) continue;
        const terminals = await apiGet<{ id: number }[]>(A(), agentToken, `/api/site/${site.id}/terminals/`);
        for (const terminal of terminals) {
          const res = await fetch(`${A()}/api/terminal/${terminal.id}/device-token/`, {
            method: 'POST',
            headers: { Authorization: `JWT ${agentToken}` },
          });
          assert.equal(res.status, 200, `device token of terminal ${terminal.id}: ${res.status}`);
          const { token } = (await res.json()) as { token: string };
          // Which pumps this terminal carries: asked of node B, where the token was not issued.
          const me = await fetch(`${B()}/api/device/v1/me`, {
            headers: { Authorization: `Device ${token}` },
          });
          assert.equal(me.status, 200, `device /me on node B: ${me.status}`);
          const carried = ((await me.json()) as { pumps: { pump_no: number }[] }).pumps.map((p) => p.pump_no);
          const pump = off.find((p) => carried.includes(p.pump_no));
          if (pump) {
            target = {
              pump,
              companyId: company.id,
              siteId: site.id,
              terminalId: terminal.id,
              deviceToken: token,
            };
            return;
          }
        }
      }
    }
    assert.fail('no pump that is off in the demo fleet');
  });

  it('turns a pump on from node A; the device long-polling node B gets the command and its confirmation shows on A', {
    skip,
  }, async () => {
    assert.ok(target, 'a target pump was found');
    // Nothing queued for this terminal yet: the long-poll below can only be answered by the console's request.
    const empty = await device(B(), 'commands?wait=0');
    assert.equal(empty.status, 200);
    assert.deepEqual(await empty.json(), []);

    const p: Page = await (await newContext(browser!)).newPage();
    p.setDefaultTimeout(30_000);
    p.on('pageerror', (e) => console.log('PAGEERROR', e.message));
    await signIn(p, A(), 'agent');
    const siteHash = `#/company/${target.companyId}/site/${target.siteId}/dashboard`;
    // The app's own landing navigation after sign-in may still be on its way: go again until the site stays.
    await eventually(
      `the site dashboard ${siteHash}`,
      async () => {
        await p.goto(`${A()}/${siteHash}`);
        await p.getByRole('region', { name: 'Pump activation' }).waitFor();
        return (await p.evaluate(() => window.location.hash)) === siteHash ? true : undefined;
      },
      60_000,
    );
    // The console on node A holds its live stream (while it is live it does not poll: what changes on
    // screen below came through the stream).
    const live = p.getByRole('status', { name: 'Live' });
    await live.waitFor();
    const widget = p.getByRole('region', { name: 'Pump activation' });
    const { pump } = target;
    const tile = widget.getByRole('article', { name: `Pump ${pump.pump_no} – ${pump.site}` });
    const sw = tile.getByRole('switch', { name: `Pump ${pump.pump_no} switch` });
    await sw.and(tile.locator('[data-position="bottom"]')).waitFor();
    assert.equal(await tile.getByTestId('pump-onoff').textContent(), 'OFF');

    // The device's long-poll on node B, started before the console asks node A.
    const started = Date.now();
    let answered = false;
    const poll = device(B(), `commands?wait=${WAIT_S}`).then(async (res) => {
      answered = true;
      return { status: res.status, body: (await res.json()) as DeviceCommand[], ms: Date.now() - started };
    });

    assert.equal(answered, false, 'the long-poll is still waiting when the console asks');
    await sw.click();
    await p.getByText(`Pump ${pump.pump_no} is being turned on`).waitFor();
    // Pending on A: the switch in the middle, 'P.' on the tile, no clicks taken.
    await sw.and(tile.locator('[data-position="middle"]')).waitFor();
    await tile.getByText('P.', { exact: true }).waitFor();

    const got = await poll;
    assert.equal(got.status, 200);
    assert.equal(got.body.length, 1, `one command handed out: ${JSON.stringify(got.body)}`);
    const [command] = got.body;
    assert.equal(command.kind, 'pump_on');
    assert.equal(command.pump_no, pump.pump_no);
    // Handed out during the long-poll, not by its final look after the wait ran out: node B was woken by the
    // command node A queued (through PostgreSQL), not by its own timer.
    assert.ok(got.ms < WAIT_S * 1000, `the command arrived before the long-poll's ${WAIT_S} s ran out`);
    console.log(`two-nodes: node B's long-poll answered with the command ${got.ms} ms after it was sent`);
    await shot(p, 'two-nodes-pending', widget);

    // The device carries it out and confirms through node B, as a terminal does: its pump status, then the ack.
    const status = await device(B(), 'pumps/status', {
      body: { pump_no: pump.pump_no, status: 1, code: 4000, text: 'Normal' },
    });
    assert.equal(
      status.status,
      202,
      `pumps/status on node B: ${status.status} ${await status.clone().text()}`,
    );
    const ack = await device(B(), `commands/${command.id}/ack`, {
      body: { result: 'ok', detail: `Pump ${pump.pump_no} is on` },
    });
    assert.equal(ack.status, 200, `ack on node B: ${ack.status} ${await ack.clone().text()}`);
    assert.deepEqual(await ack.json(), { id: command.id, state: 'confirmed' });

    // Node A's screen: ON, and the pending state is over.
    await sw.and(tile.locator('[data-position="top"]')).waitFor();
    await tile.getByTestId('pump-onoff').filter({ hasText: /^ON$/ }).waitFor();
    await tile.getByText('P.', { exact: true }).waitFor({ state: 'detached' });
    assert.notEqual(await sw.getAttribute('aria-disabled'), 'true');
    assert.ok(await live.isVisible(), 'node A stayed live throughout');
    await shot(p, 'two-nodes-confirmed', widget);

    const pumps = await apiGet<SitePump[]>(A(), agentToken, `/api/site/${target.siteId}/pumps/`);
    assert.deepEqual(
      pumps.filter((x) => x.id === pump.id).map((x) => [x.status, x.last_synapse_status]),
      [[1, 1]],
    );
    await p.context().close();
  });

  it('a logout on node A ends the token on node B', { skip }, async () => {
    const token = await apiSignIn(A(), 'agent');
    await apiGet(B(), token, '/api/user/');
    const out = await fetch(`${A()}/api/auth/logout`, {
      method: 'DELETE',
      headers: { Authorization: `JWT ${token}` },
    });
    assert.ok(out.ok, `logout on node A: ${out.status}`);
    await eventually('node B to refuse the revoked token', async () => {
      const res = await fetch(`${B()}/api/user/`, { headers: { Authorization: `JWT ${token}` } });
      return res.status === 401 ? true : undefined;
    });
  });
});
