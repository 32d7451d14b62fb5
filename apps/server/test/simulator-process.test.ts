import { existsSync, readFileSync } from 'node:fs';
import { DeviceTokenResponseSchema } from '@forecourt/contract/terminals';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashDeviceToken } from '../src/services/device-tokens.ts';
import {
  demoAgentExists,
  localAddress,
  simulatorStateFile,
  startSimulatorProcess,
} from '../src/services/simulator-process.ts';
import { buildTestApp, postgresUnavailable, type TestApp } from './helper.ts';

const until = async (what: string, fn: () => Promise<boolean> | boolean, ms = 60_000) => {
  const end = Date.now() + ms;
  while (!(await fn())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
};

describe.skipIf(postgresUnavailable)('the simulator as a child process of the server', () => {
  let t: TestApp;
  let url: string;
  let stateFile: string;
  beforeAll(async () => {
    t = await buildTestApp();
    url = localAddress(await t.app.listen({ port: 0, host: '127.0.0.1' }));
    stateFile = simulatorStateFile(t.app.config.DATA_DIR);
  });
  afterAll(async () => t?.close());

  it('calls the server on a loopback address and starts only when the demo agent exists', async () => {
    expect(localAddress('http://0.0.0.0:8080')).toBe('http://127.0.0.1:8080');
    expect(localAddress('http://[::]:8080')).toBe('http://[::1]:8080');
    expect(await demoAgentExists(t.app, 'agent')).toBe(true);
    expect(await demoAgentExists(t.app, 'nobody-here')).toBe(false);
  });

  it('runs the fleet, is restarted when it dies, and stops with the server', async () => {
    const sim = startSimulatorProcess(t.app, { url });
    try {
      const tokens = async () =>
        Number((await t.database.query<{ n: string }>('select count(*) as n from device_tokens'))[0].n);
      // Provisioned through the API, then long-polling for commands like real terminals.
      await until(
        'terminals provisioned and polling',
        async () => (await tokens()) > 10 && t.app.commands.waiting() > 10,
      );
      const first = sim.current()!;
      expect(first.pid).toBeGreaterThan(0);
      first.kill('SIGKILL');
      await until('a restarted simulator', () => {
        const next = sim.current();
        return next !== null && next.pid !== first.pid;
      });
      const second = sim.current()!;
      await until('the restarted fleet polling', () => t.app.commands.waiting() > 10);
      await sim.stop();
      expect(second.exitCode !== null || second.signalCode !== null).toBe(true);
      expect(sim.current()).toBeNull();
    } finally {
      await sim.stop();
    }
  }, 120_000);

  it('never takes back a terminal whose token someone else rotated, not even after a restart', async () => {
    const sim = startSimulatorProcess(t.app, { url });
    try {
      await until('the fleet polling', () => t.app.commands.waiting() > 10);
      const [{ terminal_id: terminalId }] = await t.database.query<{ terminal_id: number }>(
        'select terminal_id from device_tokens order by terminal_id limit 1',
      );
      const agent = await t.login('agent');
      // A real device is installed: its installer provisions a token of its own.
      const res = await t.as(agent, { method: 'POST', url: `/api/terminal/${terminalId}/device-token/` });
      const realToken = DeviceTokenResponseSchema.parse(res.json()).token;
      const holder = async () =>
        (
          await t.database.query<{ token_hash: string }>(
            'select token_hash from device_tokens where terminal_id = $1',
            [terminalId],
          )
        )[0].token_hash;
      await until(
        'the simulator to let the terminal go',
        () => existsSync(stateFile) && readFileSync(stateFile, 'utf8').includes(`"released":[${terminalId}]`),
      );
      const first = sim.current()!;
      first.kill('SIGKILL');
      await until('a restarted simulator', () => {
        const next = sim.current();
        return next !== null && next.pid !== first.pid;
      });
      await until('the restarted fleet polling', () => t.app.commands.waiting() > 10);
      expect(await holder()).toBe(hashDeviceToken(realToken));
      const me = await t.app.inject({
        method: 'GET',
        url: '/api/device/v1/me',
        headers: { authorization: `Device ${realToken}` },
      });
      expect(me.statusCode).toBe(200);
    } finally {
      await sim.stop();
    }
  }, 180_000);
});
