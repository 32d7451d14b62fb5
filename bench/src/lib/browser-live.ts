/// <reference lib="dom" />

import { existsSync } from 'node:fs';
import path from 'node:path';
import { chromiumPath, launchChromium } from '@forecourt/test-support/chromium';
import { sleep } from '@forecourt/test-support/wait';
import { repoRoot } from './server.ts';

/** A critical event type (the catalogue's "Power supply failure"): it sorts first in the alerts widget. */
const CRITICAL_EVENT = { code: 14, name: 'Power supply failure' };

/** Why the browser samples cannot be taken here, or null when they can. */
export function browserMissing(): string | null {
  if (!existsSync(path.join(repoRoot, 'apps/web/dist/index.html')))
    return `the web app is not built (${path.join(repoRoot, 'apps/web/dist/index.html')} is missing): run \`npm run build -w apps/web\` first (in your own clone on a shared machine), or leave the browser out with --only live,hello,two`;
  if (!existsSync(chromiumPath())) return `no Chromium at ${chromiumPath()} (CHROMIUM_PATH names another)`;
  return null;
}

export interface BrowserSample {
  /** The alert's text (unique to the sample). */
  text: string;
  /** Device POST sent → the first animation frame with the alert's row visible in the alerts widget, ms. */
  visibleMs: number;
  /** Device POST sent → 202, ms. */
  postMs: number;
}

export interface BrowserLatency {
  samples: BrowserSample[];
  /** Median of visibleMs (a sample not seen within the timeout counts as slower than any that was). */
  median: number;
  /** Samples not visible within the timeout. */
  missed: number;
  /** Navigation to the login page → dashboard shown with the header saying Live, s. */
  signInSeconds: number;
}

/** The middle value (the mean of the two middle ones for an even count); NaN for none. */
export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  if (s.length === 0) return Number.NaN;
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/**
 * Device event → visible in Chromium: the agent signs in through the login form and waits on the dashboard until
 * the header says "Live"; then `samples` times, one critical event with a unique text is posted through the device
 * API as `terminalId` and the time runs from sending the POST to the first animation frame in which that alert's
 * row (its acknowledge button, named after the text) is in the alerts widget and visible. The page takes that
 * time itself (a `requestAnimationFrame` poll returning `Date.now()`; same machine, same clock as the POST's), so
 * the DevTools round trip back to this process is not in it. Samples are `gapMs` apart so each starts from a
 * quiet stream. Bounded: every wait has a timeout, the browser is closed whatever happens.
 */
export async function browserLatency(o: {
  url: string;
  deviceToken: string;
  samples: number;
  timeoutMs?: number;
  gapMs?: number;
}): Promise<BrowserLatency> {
  const timeoutMs = o.timeoutMs ?? 15_000;
  const gapMs = o.gapMs ?? 1500;
  const browser = await launchChromium({ timeout: 60_000 });
  try {
    const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
    // tsx (esbuild keepNames) wraps named functions of the page callbacks below in __name(): define it in the page.
    await context.addInitScript({ content: 'globalThis.__name = (f) => f;' });
    const page = await context.newPage();
    page.setDefaultTimeout(60_000);
    const t0 = performance.now();
    await page.goto(`${o.url}/#/auth/login`);
    await page.getByLabel('Username').fill('agent');
    await page.getByLabel('Password', { exact: true }).fill('demo1234');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL(/#\/agent\//);
    await page.getByRole('heading', { level: 1, name: 'Dashboard', exact: true }).waitFor();
    await page.getByRole('status', { name: 'Live' }).waitFor();
    const alerts = page.getByRole('region', { name: 'Alerts', exact: true });
    await alerts.scrollIntoViewIfNeeded();
    await alerts
      .getByRole('button', { name: /^Ack: / })
      .first()
      .waitFor();
    const signInSeconds = (performance.now() - t0) / 1000;

    const run = Date.now().toString(36);
    const samples: BrowserSample[] = [];
    for (let i = 0; i < o.samples; i++) {
      await sleep(gapMs);
      const mark = `bench live ${run}-${i + 1}`;
      const text = `${CRITICAL_EVENT.name}: ${mark}`;
      // The in-page watcher: polls at every animation frame; notes that it runs (so the POST is sent only once it
      // does) and answers the page's clock when the row is there and visible.
      const seen = page
        .waitForFunction(
          (m: string) => {
            (globalThis as { __benchWatching?: string }).__benchWatching = m;
            const widget = document.querySelector('[data-testid="alerts-widget"]');
            for (const el of widget?.querySelectorAll('[aria-label]') ?? [])
              if (el.getAttribute('aria-label')?.endsWith(m) && el.checkVisibility()) return Date.now();
            return false;
          },
          mark,
          { polling: 'raf', timeout: timeoutMs },
        )
        .then(
          async (h) => (await h.jsonValue()) as number,
          () => null,
        );
      await page.waitForFunction(
        (m: string) => (globalThis as { __benchWatching?: string }).__benchWatching === m,
        mark,
        { timeout: 10_000 },
      );
      const sentAt = Date.now();
      const res = await fetch(`${o.url}/api/device/v1/events`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Device ${o.deviceToken}` },
        body: JSON.stringify({ event_type: CRITICAL_EVENT.code, text }),
        signal: AbortSignal.timeout(10_000),
      });
      const postMs = Date.now() - sentAt;
      const body = await res.text();
      if (res.status !== 202)
        throw new Error(`POST /api/device/v1/events → ${res.status}: ${body.slice(0, 300)}`);
      const at = await seen;
      const visibleMs = at === null ? Number.POSITIVE_INFINITY : at - sentAt;
      samples.push({ text, visibleMs, postMs });
      console.log(
        `  sample ${i + 1}: ${at === null ? `NOT visible within ${timeoutMs / 1000} s` : `visible after ${visibleMs} ms`} (POST → 202 ${postMs} ms)`,
      );
      // What the watcher found is that alert's row: its acknowledge button, as a user (and the e2e) finds it.
      if (at !== null)
        await alerts
          .getByRole('button', { name: `Ack: ${text}` })
          .waitFor({ state: 'visible', timeout: 5000 });
    }
    return {
      samples,
      median: median(samples.map((s) => s.visibleMs)),
      missed: samples.filter((s) => !Number.isFinite(s.visibleMs)).length,
      signInSeconds,
    };
  } finally {
    await browser.close().catch(() => undefined);
  }
}
