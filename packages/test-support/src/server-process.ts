import type { ChildProcess } from 'node:child_process';
import { sleep } from './wait.ts';

export interface HealthWait {
  /** How long to wait in all (default 120 s; a first start on a large seed takes minutes). */
  timeoutMs?: number;
  /** Between two probes (default 100 ms). */
  intervalMs?: number;
  /** What the process said so far, for the error. */
  output?: () => string;
  /** Its name in the error (default "server"). */
  what?: string;
}

/**
 * Waits until `${url}/api/health` answers 200. Fails as soon as `child` exits, and after `timeoutMs` (then
 * kills it with SIGKILL), with what the process said.
 */
export async function waitForHealth(url: string, child: ChildProcess, opts: HealthWait = {}): Promise<void> {
  const timeoutMs = opts.timeoutMs ?? 120_000;
  const what = opts.what ?? 'server';
  const said = () => (opts.output ? `:\n${opts.output()}` : '');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`${what} exited (${child.exitCode ?? child.signalCode}) before it was ready${said()}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${what} not ready within ${timeoutMs} ms${said()}`);
    }
    try {
      const res = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(1000) });
      if (res.ok) return;
    } catch {
      /* not listening yet */
    }
    await sleep(opts.intervalMs ?? 100);
  }
}

/** Ends `child`: SIGTERM, and SIGKILL if it has not exited after `graceMs`. Resolves once it has exited. */
export async function stopChild(child: ChildProcess, graceMs = 20_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

/** A closed local port: a request there is refused at once. */
export const NOWHERE = 'http://127.0.0.1:9';

/**
 * The server's map tiles, weather and geocoding pointed at {@link NOWHERE}, so that no run reaches the internet
 * and every run sees what a machine without network sees.
 */
export const OFFLINE_PROVIDERS = {
  TILE_URL_ROAD: `${NOWHERE}/{z}/{x}/{y}.png`,
  TILE_URL_SATELLITE: `${NOWHERE}/{z}/{y}/{x}`,
  WEATHER_URL: NOWHERE,
  GEO_URL: NOWHERE,
};
