import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import type { PostgresTemplate } from './db-template.ts';

/**
 * The server as `npm start` runs it, as a process: a bad setting stops it with one line naming the
 * variable; SIGTERM stops it cleanly; a restart on the same embedded database keeps the data and does not
 * seed again — on PGlite in the pglite project, on a fresh PostgreSQL database (`DATABASE_URL`) in the
 * postgres one.
 */
const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dataDirs: string[] = [];

afterAll(() => {
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

async function adminQuery(adminUrl: string, sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

interface Run {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

function start(env: Record<string, string>): Run {
  let out = '';
  let err = '';
  const { JWT_SECRET: _unused, ...inherited } = process.env;
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: serverDir,
    env: {
      ...inherited,
      DATABASE_URL: '',
      SIMULATOR: 'off',
      LOG_LEVEL: 'info',
      HOST: '127.0.0.1',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d) => {
    out += String(d);
  });
  child.stderr?.on('data', (d) => {
    err += String(d);
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, stdout: () => out, stderr: () => err, exited };
}

async function waitForHealth(url: string, run: Run): Promise<void> {
  const end = Date.now() + 90_000;
  while (Date.now() < end) {
    if (run.child.exitCode !== null) throw new Error(`server exited: ${run.stderr()}${run.stdout()}`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('server did not answer /api/health in time');
}

/** The `seeded` field of the server's start line. */
function seededOf(stdout: string): string | undefined {
  for (const line of stdout.split('\n')) {
    if (!line.includes('Forecourt is serving')) continue;
    return (JSON.parse(line) as { seeded?: string }).seeded;
  }
  return undefined;
}

async function agentCount(url: string): Promise<number> {
  const login = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'agent', password: 'demo1234' }),
  });
  expect(login.status).toBe(200);
  const { token } = (await login.json()) as { token: string };
  const user = await fetch(`${url}/api/user/`, { headers: { Authorization: `JWT ${token}` } });
  expect(user.status).toBe(200);
  return ((await user.json()) as { companies: unknown[] }).companies.length;
}

describe.skipIf(process.env.FC_TEST_DB !== 'pglite')('the server process', () => {
  it.each([
    ['PORT', 'abc'],
    ['CONNECTIVITY_TIMEOUT', 'soon'],
    ['DATABASE_URL', 'mysql://x'],
  ])('%s=%s stops it with one line naming the variable', async (name, value) => {
    const run = start({ [name]: value });
    expect(await run.exited).toBe(1);
    const lines = run.stderr().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(name);
    expect(lines[0]).not.toMatch(/\bat .*\.ts:\d+/);
  });

  it('stops cleanly on SIGTERM and SIGINT, and a restart keeps the data without seeding again', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'forecourt-process-'));
    dataDirs.push(dataDir);
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;

    const first = start({ PORT: String(port), DATA_DIR: dataDir, SEED: 'demo' });
    await waitForHealth(url, first);
    expect(seededOf(first.stdout())).toBe('demo');
    const companies = await agentCount(url);
    expect(companies).toBeGreaterThan(0);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);

    const second = start({ PORT: String(port), DATA_DIR: dataDir, SEED: 'demo' });
    await waitForHealth(url, second);
    expect(seededOf(second.stdout())).toBe('kept:demo');
    expect(await agentCount(url)).toBe(companies);
    second.child.kill('SIGINT');
    expect(await second.exited).toBe(0);
    expect(second.stderr()).toBe('');
  }, 240_000);
});

const postgres = process.env.FC_TEST_DB === 'postgres' ? inject('postgresTemplate') : '';

describe.skipIf(!postgres)('the server process on PostgreSQL', () => {
  it('seeds an empty database once, stops cleanly and keeps the data on a restart', async () => {
    const { adminUrl } = JSON.parse(postgres) as PostgresTemplate;
    const name = `forecourt_test_${randomBytes(6).toString('hex')}`;
    await adminQuery(adminUrl, `create database "${name}"`);
    const databaseUrl = new URL(adminUrl);
    databaseUrl.pathname = `/${name}`;
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'forecourt-process-'));
    dataDirs.push(dataDir);
    try {
      const port = await freePort();
      const url = `http://127.0.0.1:${port}`;
      const env = {
        PORT: String(port),
        DATA_DIR: dataDir,
        SEED: 'demo',
        DATABASE_URL: databaseUrl.toString(),
      };

      const first = start(env);
      await waitForHealth(url, first);
      expect(seededOf(first.stdout())).toBe('demo');
      const companies = await agentCount(url);
      expect(companies).toBeGreaterThan(0);
      first.child.kill('SIGINT');
      expect(await first.exited).toBe(0);

      const second = start(env);
      await waitForHealth(url, second);
      expect(seededOf(second.stdout())).toBe('kept:demo');
      expect(await agentCount(url)).toBe(companies);
      second.child.kill('SIGTERM');
      expect(await second.exited).toBe(0);
      expect(second.stderr()).toBe('');
    } finally {
      await adminQuery(adminUrl, `drop database if exists "${name}" with (force)`);
    }
  }, 240_000);
});
