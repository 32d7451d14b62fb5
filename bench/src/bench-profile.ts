import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launchChromium } from '@forecourt/test-support/chromium';
import { OFFLINE_PROVIDERS } from '@forecourt/test-support/server-process';
import { SourceMapConsumer } from 'source-map-js';
import { dashboards } from './lib/demo-sessions.ts';
import { parseArgs, runIfMain, waitForQuiet } from './lib/report.ts';
import { repoRoot, startServer } from './lib/server.ts';

/**
 * bench:profile — where a dashboard's start spends the main thread on a phone. Opens a demo user's dashboard
 * signed in, in Chromium at a phone's size with the CPU slowed 4× (as Lighthouse's mobile preset assumes), samples
 * the JavaScript profiler and lists every long animation frame (over 50 ms) up to `--seconds` after the
 * navigation, with the functions that took its time, mapped through the build's source maps to the app's and the
 * libraries' sources. `(program)` is the browser's own work (parsing, style, layout); `(idle)` waits within the frame.
 *
 * It builds the web app with source maps first (`apps/web/dist` then holds that build, whose scripts are those of
 * `npm run build` but for the last line naming the map) and the server when missing; the demo fleet, simulator off,
 * tiles, weather and geocoding pointed at a closed local port. Options: `--page agent|company|site` (default
 * agent), `--runs N` (default 2), `--cpu N` (slowdown, default 4), `--seconds N` (default 7), `--top N` functions
 * per frame (default 6), `--no-build`, `--wait N` (seconds to wait for a quiet machine).
 */

interface CallFrame {
  url: string;
  lineNumber: number;
  columnNumber: number;
  functionName: string;
}
interface Profile {
  nodes: { id: number; callFrame: CallFrame }[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
}

const webDist = path.join(repoRoot, 'apps/web/dist');
const maps = new Map<string, SourceMapConsumer | null>();

/** `function source:line` of a sampled frame, through the script's source map when there is one. */
function where(frame: CallFrame): string {
  if (!frame.url) return frame.functionName || '(native)';
  if (!maps.has(frame.url)) {
    try {
      const file = path.join(webDist, `${new URL(frame.url).pathname}.map`);
      maps.set(frame.url, new SourceMapConsumer(JSON.parse(readFileSync(file, 'utf8'))));
    } catch {
      maps.set(frame.url, null);
    }
  }
  const map = maps.get(frame.url);
  const name = frame.functionName || '(anonymous)';
  if (!map) return `${name} ${frame.url.replace(/^.*\//, '')}`;
  const p = map.originalPositionFor({ line: frame.lineNumber + 1, column: frame.columnNumber });
  const source = (p.source ?? '?').replace(/^.*node_modules\//, '').replace(/^.*\/apps\/web\//, '');
  return `${p.name ?? name} ${source}:${p.line ?? '?'}`;
}

/** The package of a `function source:line` from `where`: `zod`, `@mantine/core`, `contract`, `app`, or as is. */
function packageOf(place: string): string {
  const source = place.split(' ').pop() ?? '';
  if (/^\(|^[^ ]*$/.test(place) && !source.includes('/')) return place.startsWith('(') ? place : 'browser';
  const scoped = /^(@[^/]+\/[^/]+)\//.exec(source);
  if (scoped) return scoped[1];
  if (source.includes('packages/contract/')) return 'contract';
  if (source.startsWith('../../src/') || source.startsWith('src/')) return 'app';
  const bare = /^([a-z0-9][^/]*)\//.exec(source);
  return bare ? bare[1] : 'other';
}

export async function benchProfile(argv = process.argv.slice(2)) {
  const args = parseArgs(argv);
  const pageName = (args.flags.get('page') ?? 'agent') as 'agent' | 'company' | 'site';
  const runs = Number(args.flags.get('runs') ?? 2);
  const cpu = Number(args.flags.get('cpu') ?? 4);
  const seconds = Number(args.flags.get('seconds') ?? 7);
  const top = Number(args.flags.get('top') ?? 6);
  if (!['agent', 'company', 'site'].includes(pageName))
    throw new Error('--page takes agent, company or site');
  for (const [name, value] of [
    ['runs', runs],
    ['cpu', cpu],
    ['seconds', seconds],
    ['top', top],
  ] as const) {
    if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} takes a number above 0`);
  }
  if (!args.flags.has('no-build')) {
    console.log('building the web app with source maps and the server ...');
    execFileSync('npx', ['vite', 'build', '--sourcemap'], {
      cwd: path.join(repoRoot, 'apps/web'),
      stdio: 'inherit',
    });
    execFileSync('npm', ['run', 'build', '-w', 'apps/server'], { cwd: repoRoot, stdio: 'inherit' });
  }
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'forecourt-bench-profile-'));
  const server = await startServer({
    dataDir,
    seed: 'demo',
    compiled: true,
    env: OFFLINE_PROVIDERS,
  });
  const browser = await launchChromium();
  try {
    const target = (await dashboards(server.url))[pageName];
    await waitForQuiet(Number(args.flags.get('wait') ?? 120));
    console.log(`\n== bench:profile: #${target.hash}, 412×823 px, CPU ${cpu}× slower, ${runs} runs ==`);
    for (let run = 1; run <= runs; run++) {
      const context = await browser.newContext({
        viewport: { width: 412, height: 823 },
        deviceScaleFactor: 1.75,
        isMobile: true,
        hasTouch: true,
      });
      await context.addInitScript(
        ([token, user]) => {
          localStorage.setItem('auth_app_token', token);
          localStorage.setItem('user', user);
        },
        [target.session.token, JSON.stringify(target.session.user)] as const,
      );
      await context.addInitScript(() => {
        const w = window as unknown as { __frames: { start: number; duration: number }[]; __lcp: number };
        w.__frames = [];
        w.__lcp = Number.NaN;
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) w.__frames.push({ start: e.startTime, duration: e.duration });
        }).observe({ type: 'long-animation-frame', buffered: true });
        // The largest paint is reported to observers only.
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) w.__lcp = e.startTime;
        }).observe({ type: 'largest-contentful-paint', buffered: true });
      });
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpu });
      // The navigation's start on the profiler's clock: the document request's timestamp.
      let navigationUs = 0;
      await cdp.send('Network.enable');
      cdp.on('Network.requestWillBeSent', (e: { type?: string; timestamp: number }) => {
        if (e.type === 'Document' && !navigationUs) navigationUs = e.timestamp * 1e6;
      });
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
      await cdp.send('Profiler.start');
      await page.goto(`${server.url}/#${target.hash}`);
      await page.waitForTimeout(seconds * 1000);
      const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: Profile };
      const { lcp, frames } = await page.evaluate(() => {
        const w = window as unknown as { __frames: { start: number; duration: number }[]; __lcp: number };
        return { lcp: w.__lcp, frames: w.__frames };
      });
      await context.close();
      const byId = new Map(profile.nodes.map((n) => [n.id, n]));
      let t = profile.startTime;
      const samples = profile.samples.map((id, i) => {
        t += profile.timeDeltas[i];
        return { id, ms: (t - navigationUs) / 1000 };
      });
      const blocking = frames.reduce((sum, f) => sum + Math.max(0, f.duration - 50), 0);
      console.log(
        `\nrun ${run}: largest paint ${lcp.toFixed(0)} ms; ${frames.length} long frames, ${blocking.toFixed(0)} ms over 50 ms in all`,
      );
      // Up to the largest paint, every sample's self time by package (the app's own sources as `app`).
      const byPackage = new Map<string, number>();
      for (let i = 0; i < samples.length - 1; i++) {
        const s = samples[i];
        if (s.ms < 0 || s.ms > lcp) continue;
        const node = byId.get(s.id);
        if (!node) continue;
        const key = packageOf(where(node.callFrame));
        if (key === '(idle)') continue;
        byPackage.set(key, (byPackage.get(key) ?? 0) + (samples[i + 1].ms - s.ms));
      }
      console.log(
        `  busy before the largest paint, by package: ${[...byPackage.entries()]
          .sort((a, b) => b[1] - a[1])
          .slice(0, 8)
          .map(([key, ms]) => `${key} ${ms.toFixed(0)} ms`)
          .join(', ')}`,
      );
      for (const frame of frames) {
        const self = new Map<string, number>();
        for (let i = 0; i < samples.length - 1; i++) {
          const s = samples[i];
          if (s.ms < frame.start || s.ms > frame.start + frame.duration) continue;
          const node = byId.get(s.id);
          if (!node) continue;
          const key = where(node.callFrame);
          self.set(key, (self.get(key) ?? 0) + (samples[i + 1].ms - s.ms));
        }
        const list = [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, top);
        console.log(`  ${frame.start.toFixed(0)} ms, ${frame.duration.toFixed(0)} ms long:`);
        for (const [key, ms] of list) console.log(`    ${ms.toFixed(0).padStart(4)} ms  ${key}`);
      }
    }
    console.log(
      '\nTimes are from the start of the navigation, on the slowed CPU; the functions are self time (samples every ' +
        '0.2 ms). apps/web/dist now holds a build with source maps: `npm run build` makes the plain one.',
    );
  } finally {
    await browser.close();
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

runIfMain(import.meta.url, benchProfile);
