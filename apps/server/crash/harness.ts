import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stopChild, waitForHealth } from '@forecourt/test-support/server-process';
import pg from 'pg';

export const serverRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface ServerProcess {
  url: string;
  pid: number;
  logs: string[];
  /** kill -9: no shutdown hook runs. */
  crash(): Promise<void>;
  stop(): Promise<void>;
  readonly exited: boolean;
}

/**
 * The real server as a process (`node --import tsx src/server.ts`, as `npm start` runs it) on `port`, with
 * the demo seed, simulator off; waits for /api/health.
 */
export async function startServer(opts: {
  port: number;
  dataDir: string;
  databaseUrl?: string;
  env?: Record<string, string>;
}): Promise<ServerProcess> {
  const logs: string[] = [];
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    PORT: String(opts.port),
    HOST: '127.0.0.1',
    DATA_DIR: opts.dataDir,
    SEED: 'demo',
    SIMULATOR: 'off',
    LOG_LEVEL: 'warn',
    CONNECTIVITY_TIMEOUT: '1000h',
    JWT_SECRET: 'crash-suite-secret-'.padEnd(48, 'x'),
    ...(opts.env ?? {}),
  };
  delete env.DATABASE_URL;
  if (opts.databaseUrl) env.DATABASE_URL = opts.databaseUrl;
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: serverRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let exited = false;
  const exit = new Promise<void>((resolve) =>
    child.once('exit', () => {
      exited = true;
      resolve();
    }),
  );
  const keep = (d: Buffer) => {
    logs.push(String(d));
    if (logs.length > 400) logs.shift();
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const url = `http://127.0.0.1:${opts.port}`;
  await waitForHealth(url, child, { output: () => logs.join('') });
  return {
    url,
    pid: child.pid!,
    logs,
    get exited() {
      return exited;
    },
    async crash() {
      if (!exited) child.kill('SIGKILL');
      await exit;
    },
    stop: () => stopChild(child),
  };
}

export async function api<T = unknown>(
  url: string,
  init: { method?: string; token?: string; device?: string; body?: unknown; timeoutMs?: number } = {},
): Promise<{ status: number; body: T; headers: Headers; ms: number }> {
  const headers: Record<string, string> = {};
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  if (init.token) headers.authorization = `JWT ${init.token}`;
  if (init.device) headers.authorization = `Device ${init.device}`;
  const t0 = performance.now();
  const res = await fetch(url, {
    method: init.method ?? 'GET',
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    signal: AbortSignal.timeout(init.timeoutMs ?? 30_000),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    /* not JSON */
  }
  return { status: res.status, body: body as T, headers: res.headers, ms: performance.now() - t0 };
}

export async function signIn(url: string, username = 'agent', password = 'demo1234'): Promise<string> {
  const r = await api<{ token: string }>(`${url}/api/auth/login`, {
    method: 'POST',
    body: { username, password },
  });
  if (r.status !== 200) throw new Error(`sign-in failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.token;
}

/** The main PostgreSQL server (DATABASE_URL, else the local one with trust auth), or null when unreachable. */
export const postgresAdminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export async function postgresReachable(adminUrl = postgresAdminUrl): Promise<boolean> {
  const c = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 2000 });
  try {
    await c.connect();
    await c.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await c.end().catch(() => {});
  }
}

/** A new empty database on the server of `adminUrl`; `drop` removes it. */
export async function freshDatabase(adminUrl = postgresAdminUrl) {
  const prefix = process.env.CRASH_DB_PREFIX ?? 'forecourt_crash';
  const name = `${prefix}_${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
  const admin = async (sql: string) => {
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  await admin(`create database ${name}`);
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  return { url: u.toString(), drop: () => admin(`drop database if exists ${name} with (force)`) };
}

export function tempDir(name: string): string {
  return mkdtempSync(path.join(os.tmpdir(), `forecourt-crash-${name}-`));
}

/**
 * A private PostgreSQL cluster (initdb + pg_ctl) that a test may stop and start without touching anyone
 * else's database. As root it runs as the `postgres` user (initdb refuses root). Null when initdb is missing.
 */
export async function privateCluster(port: number) {
  const has = (cmd: string) => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;
  if (!has('initdb') || !has('pg_ctl')) return null;
  const isRoot = process.getuid?.() === 0;
  let uid: number | null = null;
  let gid: number | null = null;
  if (isRoot) {
    const id = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
    if (id.status !== 0 || !has('runuser')) return null;
    uid = Number(id.stdout.trim());
    gid = Number(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout.trim());
  }
  const dir = tempDir('pg');
  const data = path.join(dir, 'data');
  mkdirSync(data);
  const socketDir = path.join(dir, 'sock');
  mkdirSync(socketDir);
  if (uid !== null && gid !== null) {
    chownSync(dir, uid, gid);
    chownSync(data, uid, gid);
    chownSync(socketDir, uid, gid);
  }
  const run = (cmd: string, args: string[]) => {
    const argv = isRoot ? ['runuser', '-u', 'postgres', '--', cmd, ...args] : [cmd, ...args];
    return execFileSync(argv[0], argv.slice(1), { stdio: 'pipe', encoding: 'utf8' });
  };
  const user = isRoot ? 'postgres' : os.userInfo().username;
  run('initdb', ['-D', data, '-U', user, '--auth=trust', '-E', 'UTF8', '--no-sync']);
  const options = `-p ${port} -k ${socketDir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=50`;
  const log = path.join(dir, 'postgres.log');
  const cluster = {
    port,
    adminUrl: `postgres://${user}@127.0.0.1:${port}/postgres`,
    start: () => void run('pg_ctl', ['-D', data, '-l', log, '-o', options, '-w', '-t', '60', 'start']),
    /** Fast shutdown: every connection is terminated (57P01), new ones refused. */
    stop: () => void run('pg_ctl', ['-D', data, '-m', 'fast', '-w', '-t', '60', 'stop']),
    destroy() {
      try {
        if (existsSync(path.join(data, 'postmaster.pid'))) cluster.stop();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
  cluster.start();
  return cluster;
}
