import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import {
  CompanySchema as AdminCompanySchema,
  AdminSiteSchema,
  AdminTerminalSchema,
} from '@forecourt/contract/admin';
import { AlertSchema, TerminalSchema } from '@forecourt/contract/fleet';
import { PumpSchema, TurnPumpResponseSchema } from '@forecourt/contract/pumps';
import {
  type Command,
  CommandSchema,
  DeviceTokenResponseSchema,
  RebootAcceptedSchema,
} from '@forecourt/contract/terminals';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type Fleet, startFleet } from '../src/fleet.ts';
import type { Options } from '../src/options.ts';
import { DEMO_BEHAVIOUR } from '../src/options.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const serverEntry = path.resolve(here, '../../server/src/server.ts');
const cliEntry = path.resolve(here, '../src/cli.ts');
/** Short enough to watch a terminal go offline within the test. */
const CONNECTIVITY_TIMEOUT_S = 4;

/** The real server, as its own process on a free port with a fresh demo database and no simulator of its own. */
async function startServer(dataDir: string): Promise<{ url: string; proc: ChildProcess }> {
  const proc = spawn(process.execPath, ['--import', 'tsx', serverEntry], {
    cwd: path.dirname(path.dirname(serverEntry)),
    env: {
      ...process.env,
      DATABASE_URL: '',
      DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      SIMULATOR: 'off',
      SEED: 'demo',
      CONNECTIVITY_TIMEOUT: String(CONNECTIVITY_TIMEOUT_S),
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const errors: string[] = [];
  createInterface({ input: proc.stderr! }).on('line', (l) => errors.push(l));
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: proc.stdout! }).on('line', (line) => {
      try {
        const entry = JSON.parse(line) as { msg?: string; address?: string };
        if (entry.address && entry.msg?.startsWith('Forecourt is serving')) resolve(entry.address);
      } catch {
        /* not a log line */
      }
    });
    proc.once('exit', (code) => reject(new Error(`server exited (${code}): ${errors.join('\n')}`)));
  });
  return { url, proc };
}

const until = async <T>(
  what: string,
  fn: () => Promise<T | null | undefined | false>,
  ms = 30_000,
): Promise<T> => {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 300));
  }
};

describe('the simulator against a real server', () => {
  let dataDir: string;
  let server: { url: string; proc: ChildProcess };
  let fleet: Fleet;
  let fleetOptions: Options;
  let token: string;
  const api = async <T>(method: string, p: string, schema: z.ZodType<T>, body?: unknown): Promise<T> => {
    const res = await fetch(`${server.url}${p}`, {
      method,
      headers: { authorization: `JWT ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return schema.parse(await res.json());
  };
  const command = (id: number) => api('GET', `/api/command/${id}/`, CommandSchema);
  const settled = (id: number) =>
    until<Command>(`command ${id} to finish`, async () => {
      const cmd = await command(id);
      return cmd.state !== 'queued' && cmd.state !== 'sent' ? cmd : null;
    });

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'forecourt-sim-e2e-'));
    server = await startServer(dataDir);
    fleetOptions = {
      url: server.url,
      username: 'agent',
      password: 'demo1234',
      terminals: 8,
      all: false,
      reportS: 0,
      quiet: true,
      state: path.join(dataDir, 'simulator-state.json'),
      rediscoverS: 1,
      behaviour: {
        ...DEMO_BEHAVIOUR,
        rate: 1,
        batch: 2,
        transactionFlushMs: 1_000,
        peakTransactionsPerHour: 3_600,
        eventsPerHour: 360,
        shocksPerHour: 360,
        pumpStatusEveryMs: 2_000,
        pollWaitS: 3,
        pumpDelayMs: [2_000, 2_500],
        pumpFailShare: 0,
        rebootMs: [1_000, 1_500],
        rebootFailShare: 0,
        outagesPerHour: 0,
      },
    };
    fleet = await startFleet(fleetOptions, () => {});
    const res = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'agent', password: 'demo1234' }),
    });
    token = ((await res.json()) as { token: string }).token;
  });

  afterAll(async () => {
    fleet?.stop();
    if (server?.proc.exitCode === null) {
      const exited = new Promise((r) => server.proc.once('exit', r));
      server.proc.kill('SIGTERM');
      await exited;
    }
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('provisions and runs the agent’s terminals, which report through the device API', async () => {
    expect(fleet.terminals.length).toBeGreaterThan(0);
    await until('telemetry, transactions, events and pump statuses', async () => {
      const s = fleet.stats;
      return s.telemetry >= 16 && s.transactions > 0 && s.events > 0 && s.pumpStatuses > 0;
    });
    expect(fleet.stats.failures).toBe(0);
    const sim = fleet.terminals[0];
    const site = await until('the first site’s terminals online', async () => {
      const list = await api('GET', `/api/site/${sim.siteId}/terminals/`, z.array(TerminalSchema));
      const mine = list.find((t) => t.id === sim.id);
      return mine?.connectivity === 'on' ? list : null;
    });
    expect(site.length).toBeGreaterThan(0);
  });

  it('a pump turned on goes pending, then the terminal confirms it within seconds', async () => {
    const controller = fleet.terminals.find((t) => t.pumps.size > 0)!;
    const pumps = await api('GET', `/api/site/${controller.siteId}/pumps/`, z.array(PumpSchema));
    const pump = pumps.find((p) => p.status === 0 && p.last_synapse_status === 0) ?? pumps[0];
    const word = pump.status === 0 ? 'on' : 'off';
    const turn = await api('POST', `/api/pump/${pump.id}/turn/${word}/`, TurnPumpResponseSchema);
    expect(turn.error).toBe(false);
    expect(turn.pump!.status).not.toBe(turn.pump!.last_synapse_status);
    const done = await settled(turn.command_id!);
    expect(done.state).toBe('confirmed');
    expect(done.history.map((h) => h.state)).toEqual(['queued', 'sent', 'confirmed']);
    const after = (await api('GET', `/api/site/${controller.siteId}/pumps/`, z.array(PumpSchema))).find(
      (p) => p.id === pump.id,
    )!;
    expect(after.last_synapse_status).toBe(word === 'on' ? 1 : 0);
    expect(after.status).toBe(after.last_synapse_status);
    expect(controller.pumps.get(pump.pump_no)).toBe(after.last_synapse_status);
  });

  it('a reboot goes queued → sent → confirmed while the terminal is silent for a while', async () => {
    const sim = fleet.terminals[1];
    const reboot = await api('POST', `/api/terminal/${sim.id}/reboot/`, RebootAcceptedSchema, {
      reboot_type: 'full',
    });
    expect(reboot.command.state).toBe('queued');
    await until('the terminal to reboot', async () => sim.state === 'rebooting');
    const done = await settled(reboot.command.id);
    expect(done.state).toBe('confirmed');
    expect(done.history.map((h) => h.state)).toEqual(['queued', 'sent', 'confirmed']);
    expect(sim.state).toBe('up');
  });

  it('a terminal that stops goes offline with an alert after the timeout, cleared when it returns', async () => {
    const sim = fleet.terminals.find((t) => t.pumps.size === 0 && t.state === 'up')!;
    const alerts = () =>
      api('GET', `/api/alerts/site/${sim.siteId}/?event_type=3&event_type=4`, z.array(AlertSchema));
    const connectivity = async () =>
      (await api('GET', `/api/site/${sim.siteId}/terminals/`, z.array(TerminalSchema))).find(
        (t) => t.id === sim.id,
      )?.connectivity;
    expect(await connectivity()).toBe('on');
    // Silent for three connectivity timeouts, then back by itself.
    sim.goDown('outage', 3 * CONNECTIVITY_TIMEOUT_S * 1000);
    const offline = await until('an active offline alert', async () =>
      (await alerts()).find((a) => a.event_type === 3 && a.number === sim.number && a.state === 'active'),
    );
    expect(offline.text).toMatch(/^Terminal offline: /);
    expect(offline.issue).toBe('Terminal offline');
    expect(offline.severity).toBe('critical');
    expect(await connectivity()).toBe('off');
    // Its return clears that alert (docs/product.md#alert-lifecycle); no separate 'Terminal online' alert.
    const cleared = await until('the offline alert cleared', async () =>
      (await alerts()).find((a) => a.id === offline.id && a.state === 'cleared'),
    );
    expect(cleared.cleared_at).not.toBeNull();
    expect((await alerts()).some((a) => a.event_type === 4 && a.id > offline.id)).toBe(false);
    await until('the terminal on again', async () => (await connectivity()) === 'on');
  });

  it('lets a terminal go when someone else rotates its token, and never takes it back, not even on restart', async () => {
    const sim = fleet.terminals.find((t) => t.pumps.size === 0 && t.state === 'up')!;
    // A real device is installed: its installer provisions a token of its own.
    const realToken = (await api('POST', `/api/terminal/${sim.id}/device-token/`, DeviceTokenResponseSchema))
      .token;
    await until('the simulator to let the terminal go', async () => fleet.released.has(sim.id));
    expect(sim.state).toBe('stopped');
    const me = () =>
      fetch(`${server.url}/api/device/v1/me`, { headers: { authorization: `Device ${realToken}` } });
    expect((await me()).status).toBe(200);

    // A restarted simulator (same state file) reuses its other tokens and leaves that terminal alone.
    const again = await startFleet({ ...fleetOptions, terminals: 8 }, () => {});
    try {
      expect(again.terminals.length).toBeGreaterThan(0);
      expect(again.terminals.map((t) => t.id)).not.toContain(sim.id);
      expect(again.released.has(sim.id)).toBe(true);
      expect((await me()).status).toBe(200);
    } finally {
      again.stop();
    }
  });

  it('picks up a terminal created after it started, leaves one a real device holds, and lets go of a decommissioned one', async () => {
    const [company] = await api('GET', '/api/admin/companies/?limit_to=1', z.array(AdminCompanySchema));
    const site = await api('POST', '/api/admin/sites/', AdminSiteSchema, {
      company_id: company.id,
      title: 'Knaresborough Services',
      number: 'SIM-NEW-1',
      lat: 54.01,
      lng: -1.47,
      timezone: 'Europe/London',
    });
    const created = (terminal_id: string) =>
      api('POST', '/api/admin/terminals/', AdminTerminalSchema, {
        site_id: site.id,
        terminal_id,
        card_acceptor_name: 'KNARESBOROUGH',
      });
    const fresh = await created('SIM-NEW-T1');
    const installed = await created('SIM-NEW-T2');
    // This one has a real device: its installer provisioned the token before the simulator looked.
    const realToken = (
      await api('POST', `/api/terminal/${installed.id}/device-token/`, DeviceTokenResponseSchema)
    ).token;
    const sim = await until('the simulator to adopt the new terminal', async () =>
      fleet.terminals.find((t) => t.id === fresh.id && t.state === 'up'),
    );
    const terminals = () => api('GET', `/api/site/${site.id}/terminals/`, z.array(TerminalSchema));
    await until('the new terminal to report', async () =>
      (await terminals()).find((t) => t.id === fresh.id && t.connectivity === 'on'),
    );
    expect(fleet.terminals.map((t) => t.id)).not.toContain(installed.id);
    const me = await fetch(`${server.url}/api/device/v1/me`, {
      headers: { authorization: `Device ${realToken}` },
    });
    expect(me.status).toBe(200);

    const gone = await fetch(`${server.url}/api/admin/terminals/${fresh.id}/`, {
      method: 'DELETE',
      headers: { authorization: `JWT ${token}` },
    });
    expect(gone.status).toBe(200);
    await until('the simulator to let the decommissioned terminal go', async () =>
      fleet.released.has(fresh.id),
    );
    expect(sim.state).toBe('stopped');
    await until('the fleet to drop it', async () => !fleet.terminals.some((t) => t.id === fresh.id));
  });

  it('the command line prints usage and rejects bad flags', () => {
    const help = spawnSync(process.execPath, ['--import', 'tsx', cliEntry, '--help'], { encoding: 'utf8' });
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('--terminals N');
    const bad = spawnSync(process.execPath, ['--import', 'tsx', cliEntry, '--rate', 'fast'], {
      encoding: 'utf8',
    });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('--rate must be a number');
  });
});
