import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { repoRoot } from '../src/harness.ts';
import { apiGet, apiSignIn, eventually, journey, shot } from '../src/journey.ts';

/**
 * A software rollout end to end (docs/rollouts.md): a package uploaded in the console, rolled out over a tag of
 * simulator terminals in waves [10, 100] with a 20 s wait (a simulator install takes a few seconds); the rollout's page shows wave 1 then wave 2 complete,
 * live, as the simulator installs. Then a second rollout over terminals a second simulator runs with every install
 * failing (`--install-failure-rate 1`) pauses itself after its first failures, and its page says so and why.
 */

const rollouts = journey({ env: { SIMULATOR: 'on' }, timeout: 30_000 });

interface Terminal {
  id: number;
  terminal_id: string;
  tags: string[];
}
interface Rollout {
  id: number;
  state: string;
  wave: number;
  counts: Record<string, number>;
}

async function api(url: string, token: string, method: string, pathname: string, body?: unknown) {
  const res = await fetch(`${url}${pathname}`, {
    method,
    headers: { Authorization: `JWT ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  assert.ok(res.ok, `${method} ${pathname} → ${res.status} ${await res.clone().text()}`);
  return res.json();
}

describe('software rollouts in the console', () => {
  it('uploads a package and rolls it out over a tag in two waves, live', async () => {
    const { url } = rollouts.server;
    const token = await apiSignIn(url, 'agent');
    // Ten terminals the simulator runs (online ones), tagged for this journey.
    const sites = await apiGet<Array<{ id: number }>>(url, token, '/api/user/sites/');
    const online = await eventually('online terminals', async () => {
      const on: number[] = [];
      for (const s of sites.slice(0, 8)) {
        const rows = await apiGet<Array<{ id: number; connectivity: string }>>(
          url,
          token,
          `/api/site/${s.id}/terminals/`,
        );
        on.push(...rows.filter((r) => r.connectivity === 'on').map((r) => r.id));
      }
      return on.length >= 10 ? on : undefined;
    });
    const terminals = await apiGet<Terminal[]>(url, token, '/api/admin/terminals/?limit_to=1000');
    const chosen = terminals.filter((x) => online.includes(x.id)).slice(0, 10);
    assert.ok(chosen.length >= 2, 'online terminals found');
    for (const x of chosen)
      await api(url, token, 'PATCH', `/api/admin/terminals/${x.id}/`, { tags: [...x.tags, 'e2e-rollout'] });

    const p = await rollouts.signedIn('agent');
    await p.goto(rollouts.url('/software'));
    await p.getByRole('heading', { level: 1, name: 'Software', exact: true }).waitFor();
    const upload = p.getByRole('form', { name: 'Upload a package' });
    // The file field is a button over a hidden file input.
    await upload.locator('input[type="file"]').setInputFiles({
      name: 'firmware.bin',
      mimeType: 'application/octet-stream',
      buffer: Buffer.alloc(200_000, 7),
    });
    await upload.getByLabel('Name').fill('E2E firmware');
    await upload.getByLabel('Version').fill('e2e-1.0');
    await upload.getByRole('button', { name: 'Upload' }).click();
    await p.getByRole('table', { name: 'Packages' }).getByText('E2E firmware').waitFor();

    const form = p.getByRole('form', { name: 'New rollout' });
    await form.getByLabel('Package').click();
    await p.getByRole('option', { name: 'E2E firmware e2e-1.0' }).click();
    const tags = form.getByLabel('Terminals with the tags (empty: all)');
    await tags.fill('e2e-rollout');
    await tags.press('Enter');
    await form.getByLabel('Waves (cumulative %)').fill('10, 100');
    await form.getByLabel('Wait per wave (s)').fill('20');
    await form.getByRole('button', { name: 'Start rollout' }).click();
    const link = p.getByRole('link', { name: /^Open rollout \d+$/ }).first();
    await link.waitFor();
    await link.click();
    await p.getByRole('heading', { level: 1, name: /^Rollout \d+$/ }).waitFor();
    const id = Number(p.url().split('/').pop());
    await eventually('wave 1 done', async () => {
      const r = await apiGet<Rollout>(url, token, `/api/rollouts/${id}/`);
      return r.wave >= 2 || r.counts.done >= 1 ? r : undefined;
    });
    await shot(p, 'rollout-wave-1');
    const done = await eventually(
      'rollout completed',
      async () => {
        const r = await apiGet<Rollout>(url, token, `/api/rollouts/${id}/`);
        return r.state === 'completed' ? r : undefined;
      },
      180_000,
    );
    assert.equal(done.counts.done + done.counts.failed + done.counts.skipped, chosen.length);
    // The page follows it live: completed without a reload.
    await p.getByText('Completed', { exact: true }).first().waitFor();
    await shot(p, 'rollout-completed');
    await p.context().close();
  });

  let failing: ChildProcess | undefined;
  after(() => {
    failing?.kill('SIGTERM');
  });

  it('a rollout whose installs fail pauses itself after wave 1, and its page says why', async () => {
    const { url } = rollouts.server;
    const token = await apiSignIn(url, 'agent');
    // A second simulator takes over the first terminals it discovers (provisioning their device tokens anew, so
    // the server's own simulator lets them go: a rotated token is never handed a command) and fails every install.
    const take = 4;
    failing = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        path.join(repoRoot, 'apps/simulator/src/cli.ts'),
        '--url',
        url,
        '--terminals',
        String(take),
        '--install-failure-rate',
        '1',
        '--rediscover',
        '0',
        '--report',
        '0',
      ],
      {
        cwd: path.join(repoRoot, 'apps/simulator'),
        env: { ...process.env, SIMULATOR_STATE: '' },
        stdio: 'pipe',
      },
    );
    let out = '';
    failing.stdout?.on('data', (b) => {
      out += String(b);
    });
    failing.stderr?.on('data', (b) => {
      out += String(b);
    });
    await eventually('the failing simulator runs', async () =>
      /simulating \d+ terminals/.test(out) ? true : undefined,
    );
    // The terminals it runs: the first `take` it discovered (the agent's sites by id, each site's terminals in
    // order), less those offline at start.
    const me = await apiGet<{ agent: number }>(url, token, '/api/user/');
    const sites = (await apiGet<Array<{ id: number }>>(url, token, `/api/agent/${me.agent}/sites/`)).sort(
      (a, b) => a.id - b.id,
    );
    const found: Array<{ id: number; connectivity: string | null }> = [];
    for (const s of sites) {
      if (found.length >= take) break;
      found.push(
        ...(await apiGet<Array<{ id: number; connectivity: string | null }>>(
          url,
          token,
          `/api/site/${s.id}/terminals/`,
        )),
      );
    }
    const run = found.slice(0, take).filter((x) => x.connectivity !== 'off');
    assert.ok(run.length >= 2, `the failing simulator runs at least two terminals (${out})`);
    for (const x of run) {
      const row = await apiGet<Terminal>(url, token, `/api/admin/terminals/${x.id}/`);
      await api(url, token, 'PATCH', `/api/admin/terminals/${x.id}/`, { tags: [...row.tags, 'e2e-failing'] });
    }
    const upload = new FormData();
    upload.set('name', 'E2E broken firmware');
    upload.set('version', 'e2e-2.0');
    upload.set('file', new Blob([Buffer.alloc(50_000, 9)]), 'broken.bin');
    const res = await fetch(`${url}/api/software/`, {
      method: 'POST',
      headers: { Authorization: `JWT ${token}` },
      body: upload,
    });
    assert.equal(res.status, 201, await res.clone().text());
    const pkg = (await res.json()) as { id: number };
    const rollout = (await api(url, token, 'POST', '/api/rollouts/', {
      package_id: pkg.id,
      target: { scope: { kind: 'agent', id: me.agent }, tags: ['e2e-failing'] },
      waves: [50, 100],
      wave_wait_s: 20,
      max_failure_pct: 5,
    })) as Rollout;

    const p = await rollouts.signedIn('agent');
    await p.goto(rollouts.url(`/software/rollouts/${rollout.id}`));
    await p.getByRole('heading', { level: 1, name: `Rollout ${rollout.id}` }).waitFor();
    // Paused by itself, live: the state badge, the reason, and Resume in place of Pause.
    const reason = p.getByRole('status', { name: 'Why it paused' });
    await reason.waitFor({ timeout: 90_000 });
    assert.match((await reason.textContent()) ?? '', /Wave 1: \d+ of \d+ finished terminals failed/);
    await p.getByText('Paused', { exact: true }).first().waitFor();
    await p.getByRole('button', { name: 'Resume' }).waitFor();
    assert.equal(await p.getByRole('button', { name: 'Pause' }).count(), 0);
    await p.getByRole('table', { name: 'Terminals of the rollout' }).getByText('Failed').first().waitFor();
    const paused = await apiGet<Rollout & { paused_reason: string }>(
      url,
      token,
      `/api/rollouts/${rollout.id}/`,
    );
    assert.equal(paused.state, 'paused');
    assert.equal(paused.wave, 1, 'wave 2 never started');
    assert.ok(paused.counts.failed >= 1);
    assert.equal(paused.counts.done, 0);
    await shot(p, 'rollout-paused');
    await p.context().close();
  });

  it('the rollout page in the cosmic theme, at phone width and in Arabic (screenshots)', async () => {
    const token = await apiSignIn(rollouts.server.url, 'agent');
    const [latest] = await apiGet<Rollout[]>(rollouts.server.url, token, '/api/rollouts/');
    assert.ok(latest, 'a rollout exists');
    for (const dark of [false, true]) {
      for (const size of [undefined, { width: 390, height: 844 }]) {
        for (const arabic of [false, true]) {
          if (!arabic && !dark && !size) continue;
          const name = `rollout-${dark ? 'cosmic' : 'light'}${size ? '-phone' : ''}${arabic ? '-ar' : ''}`;
          const p = await rollouts.signedIn('agent', { dark, ...size });
          if (arabic) await p.evaluate(() => localStorage.setItem('fc-language', 'ar'));
          await p.goto(rollouts.url(`/software/rollouts/${latest.id}`));
          if (arabic) await p.reload();
          await p
            .getByRole('heading', { level: 1, name: arabic ? `النشر ${latest.id}` : `Rollout ${latest.id}` })
            .waitFor();
          if (arabic) assert.equal(await p.evaluate(() => document.documentElement.dir), 'rtl');
          await shot(p, name);
          await p.goto(rollouts.url('/software'));
          await p.getByRole('heading', { level: 1, name: arabic ? 'البرمجيات' : 'Software' }).waitFor();
          await shot(p, name.replace('rollout-', 'software-'));
          await p.context().close();
        }
      }
    }
  });
});
