import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { FastifyInstance } from 'fastify';
import { runningCompiled, serverDir } from '../lib/runtime.ts';

export interface SimulatorProcess {
  /** The running child, null between a crash and its restart. */
  current(): ChildProcess | null;
  stop(): Promise<void>;
}

export const simulatorDir = path.resolve(serverDir, '../simulator');

/**
 * How to run the simulator: its compiled bundle (apps/simulator/dist/cli.js, built by `npm start`) beside a
 * compiled server, its sources under the tsx loader beside a server that runs its own sources.
 */
export const simulatorArgv = (url: string): string[] =>
  runningCompiled
    ? [path.join(simulatorDir, 'dist/cli.js'), '--url', url]
    : ['--import', 'tsx', path.join(simulatorDir, 'src/cli.ts'), '--url', url];

/** The address the simulator should call: a wildcard bind address becomes loopback. */
export function localAddress(address: string): string {
  const u = new URL(address);
  if (u.hostname === '0.0.0.0') u.hostname = '127.0.0.1';
  if (u.hostname === '[::]') u.hostname = '[::1]';
  return u.origin;
}

/** True when the demo agent the simulator signs in as exists (not with SEED=none). */
export function demoAgentExists(app: FastifyInstance, username: string): Promise<boolean> {
  return app.repos.users.isAgent(username);
}

/** Where the simulator keeps its device tokens and the terminals it let go, across its restarts and the server's. */
export const simulatorStateFile = (dataDir: string) => path.resolve(dataDir, 'simulator-state.json');

/**
 * Runs the fleet simulator as a child process against this server, as any device would reach it. It is
 * restarted when it dies (backing off while it keeps failing) and stopped with the server; it also ends by
 * itself when its stdin closes, so it never outlives a crashed server. Its state file in DATA_DIR lets every
 * restart reuse the device tokens it provisioned, and never take back a terminal whose token someone else rotated.
 */
export function startSimulatorProcess(
  app: FastifyInstance,
  opts: { url: string; username?: string; password?: string },
): SimulatorProcess {
  const log = app.log.child({ service: 'simulator' });
  let child: ChildProcess | null = null;
  let stopping = false;
  let failures = 0;
  let restartTimer: ReturnType<typeof setTimeout> | null = null;

  const launch = () => {
    if (stopping) return;
    const startedAt = Date.now();
    const proc = spawn(process.execPath, simulatorArgv(opts.url), {
      cwd: simulatorDir,
      env: {
        ...process.env,
        SIMULATOR_PARENT: '1',
        SIMULATOR_USERNAME: opts.username ?? 'agent',
        SIMULATOR_PASSWORD: opts.password ?? 'demo1234',
        SIMULATOR_STATE: simulatorStateFile(app.config.DATA_DIR),
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    child = proc;
    // The simulator prints `<ISO time> <level> <message>`: logged at that level, without its own timestamp.
    const relay = (fallback: 'info' | 'warn') => (line: string) => {
      const m = /^\d{4}-\d\d-\d\dT[\d:.]+Z (debug|info|warn|error) (.*)$/.exec(line);
      if (m) log[m[1] as 'debug' | 'info' | 'warn' | 'error'](m[2]);
      else log[fallback](line);
    };
    createInterface({ input: proc.stdout! }).on('line', relay('info'));
    createInterface({ input: proc.stderr! }).on('line', relay('warn'));
    proc.on('error', (err) => log.error({ err }, 'simulator could not start'));
    proc.on('exit', (code, signal) => {
      child = null;
      if (stopping) return;
      failures = Date.now() - startedAt > 60_000 ? 0 : failures + 1;
      const delay = Math.min(300_000, 2_000 * 2 ** Math.min(failures, 8));
      log.warn({ code, signal }, `simulator exited; restarting in ${Math.round(delay / 1000)} s`);
      restartTimer = setTimeout(launch, delay);
      restartTimer.unref();
    });
  };
  launch();

  const stop = async () => {
    stopping = true;
    if (restartTimer) clearTimeout(restartTimer);
    const proc = child;
    if (!proc || proc.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      const kill = setTimeout(() => proc.kill('SIGKILL'), 5_000);
      proc.once('exit', () => {
        clearTimeout(kill);
        resolve();
      });
      proc.stdin?.end();
      proc.kill('SIGTERM');
    });
  };
  return { current: () => child, stop };
}
