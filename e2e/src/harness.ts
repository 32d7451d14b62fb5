import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium } from '@forecourt/test-support/chromium';
import { freePort } from '@forecourt/test-support/ports';
import { stopChild, waitForHealth } from '@forecourt/test-support/server-process';
import type { Browser, BrowserContext, Page } from 'playwright-core';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const screenshotDir = path.join(repoRoot, 'e2e', 'screenshots');

export interface RunningServer {
  url: string;
  dataDir: string;
  logs: string[];
  stop(): Promise<void>;
}

/**
 * Starts the real server (built web app, API, device API) on a free port (or `opts.port`) with a fresh
 * DATA_DIR, seeded with the demo fleet. The web app must be built first (`npm run build -w apps/web`).
 */
export async function startServer(
  // An undefined value unsets a variable of this process's environment.
  env: Record<string, string | undefined> = {},
  opts: { port?: number } = {},
): Promise<RunningServer> {
  // E2E_PORT pins the port (a machine shared by several runs gives each its own range).
  const port = opts.port ?? (process.env.E2E_PORT ? Number(process.env.E2E_PORT) : await freePort());
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'forecourt-e2e-'));
  const logs: string[] = [];
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/server.ts'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SEED: 'demo',
      SIMULATOR: 'off',
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d) => logs.push(String(d)));
  child.stderr?.on('data', (d) => logs.push(String(d)));
  const url = `http://127.0.0.1:${port}`;
  // A fresh PGlite data directory migrates and seeds first: on a loaded two-core machine that took over 90 s.
  await waitForHealth(url, child, { timeoutMs: 240_000, intervalMs: 250, output: () => logs.join('') });
  return {
    url,
    dataDir,
    logs,
    async stop() {
      await stopChild(child, 15_000);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export const launchBrowser = (): Promise<Browser> => launchChromium();

export async function newContext(
  browser: Browser,
  opts: { width?: number; height?: number; dark?: boolean } = {},
) {
  return browser.newContext({
    viewport: { width: opts.width ?? 1366, height: opts.height ?? 900 },
    colorScheme: opts.dark ? 'dark' : 'light',
  });
}

export async function screenshot(page: Page, name: string, opts: { fullPage?: boolean } = {}) {
  mkdirSync(screenshotDir, { recursive: true });
  await page.screenshot({ path: path.join(screenshotDir, `${name}.png`), fullPage: opts.fullPage ?? true });
}

export type { Browser, BrowserContext, Page };
