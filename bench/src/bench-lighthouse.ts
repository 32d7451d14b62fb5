import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CHROMIUM_FLAGS, chromiumPath } from '@forecourt/test-support/chromium';
import { portIn } from '@forecourt/test-support/ports';
import { OFFLINE_PROVIDERS } from '@forecourt/test-support/server-process';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { type Config, type Flags, type Result } from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { chromium } from 'playwright-core';
import { dashboards, type Session } from './lib/demo-sessions.ts';
import { fmt, parseArgs, runIfMain, table, waitForQuiet, writeResult } from './lib/report.ts';
import { repoRoot, startServer } from './lib/server.ts';

/**
 * bench:lighthouse — Lighthouse (mobile and desktop presets) on the login page and the three dashboards of the
 * demo users, each page `--runs` times (default 5) in a fresh Chromium profile (cold cache, as Lighthouse
 * measures by default), and the medians side by side: performance, accessibility, best practices, total
 * blocking time, largest contentful paint and the JavaScript transferred (gzip, as served).
 *
 * The built app is served by the compiled server (`apps/server/dist/server.js`, `apps/web/dist`; both built
 * first when missing or with `--build`) on the demo fleet, simulator off. Tile servers, weather and geocoding
 * point at a closed local port: nothing leaves the machine. A dashboard is measured signed in: the demo user's
 * token is put in the profile's localStorage before Lighthouse loads the page (storage reset off).
 *
 * Options: `--runs N`, `--pages login,agent,company,site`, `--presets mobile,desktop`, `--port N` (server port;
 * Chromium takes the next ones), `--details` (print every audit below 100 % of the last run of each page),
 * `--wait N` (seconds to wait for a quiet machine, default 120), `--build`, `--cpu N` (the mobile preset's CPU
 * slowdown instead of 4: 8 scores the page as on a machine half as fast), `--lantern` (print the simulated largest
 * paint's requests and tasks, last run of each page).
 * The last run's report of each page is written to `bench/results/lighthouse/<page>-<preset>.json`.
 */

/** `--cpu N`: the mobile preset's CPU slowdown instead of Lighthouse's 4 (8: as on a machine half as fast). */
let cpuSlowdown: number | undefined;

type PageName = 'login' | 'agent' | 'company' | 'site';
type Preset = 'mobile' | 'desktop';

interface Figures {
  performance: number;
  accessibility: number;
  bestPractices: number;
  tbtMs: number;
  lcpMs: number;
  fcpMs: number;
  jsKb: number;
  /** Lighthouse's measure of this machine's CPU at the time (a typical desktop scores 1,000–2,000). */
  benchmarkIndex: number;
}

/** Puts a session into the fresh profile's localStorage, on a page of the origin that loads no app code. */
async function storeSession(port: number, origin: string, session: Session) {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  const page = await browser.contexts()[0].newPage();
  await page.goto(`${origin}/api/health`);
  await page.evaluate(
    ([token, user]) => {
      localStorage.setItem('auth_app_token', token);
      localStorage.setItem('user', user);
    },
    [session.token, JSON.stringify(session.user)] as const,
  );
  await page.close();
  // Disconnects; the browser keeps running for Lighthouse.
  await browser.close();
}

/** One Lighthouse run; a run the browser spoils (no trace, lost connection) is tried again, twice at most. */
async function runOnce(...run: Parameters<typeof runInFreshProfile>): Promise<Result> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await runInFreshProfile(...run);
    } catch (err) {
      if (attempt >= 3) throw err;
      console.log(`  (run failed, again: ${String(err).split('\n')[0].slice(0, 160)})`);
    }
  }
}

async function runInFreshProfile(
  target: string,
  preset: Preset,
  ports: [number, number],
  origin: string,
  session: Session | null,
): Promise<Result> {
  const userDataDir = mkdtempSync(path.join(os.tmpdir(), 'forecourt-lighthouse-'));
  const chrome = await chromeLauncher.launch({
    chromePath: chromiumPath(),
    chromeFlags: CHROMIUM_FLAGS,
    port: ports[0] ? await portIn(ports[0], ports[1]) : 0,
    userDataDir,
    logLevel: 'silent',
  });
  try {
    if (session) await storeSession(chrome.port, origin, session);
    const flags: Flags = {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility', 'best-practices'],
      // The session in localStorage must survive; the profile is new, so the cache is cold anyway.
      disableStorageReset: true,
      ...(cpuSlowdown && preset === 'mobile' ? { throttling: { cpuSlowdownMultiplier: cpuSlowdown } } : {}),
    };
    const config: Config | undefined = preset === 'desktop' ? (desktopConfig as Config) : undefined;
    const result = await lighthouse(target, flags, config);
    if (!result) throw new Error(`Lighthouse returned nothing for ${target}`);
    if (result.lhr.runtimeError) throw new Error(`${target}: ${result.lhr.runtimeError.message}`);
    return result.lhr;
  } finally {
    chrome.kill();
    rmSync(userDataDir, { recursive: true, force: true });
  }
}

interface SimulatedNode {
  type: 'network' | 'cpu';
  request?: { url: string; transferSize: number };
  childEvents?: { name: string; dur?: number }[];
}

/**
 * `--lantern`: Lighthouse's simulation of the largest paint (its optimistic and pessimistic graphs, averaged into
 * the LCP it reports) node by node: every request and main-thread task it counted, with simulated start and end.
 * A request that merely started before the paint counts; this is how one finds which (bench/README.md: Leaflet's).
 * The simulator keeps the node timings of its last simulation of each metric (Lighthouse's LANTERN_DEBUG traces).
 */
async function printLanternGraphs(page: string) {
  // Lighthouse's own re-export of its simulator (the module instance it ran with).
  const { Simulation } = (await import('lighthouse/core/lib/lantern/lantern.js')) as unknown as {
    Simulation: {
      Simulator: { allNodeTimings: Map<string, Map<SimulatedNode, { startTime: number; endTime: number }>> };
    };
  };
  const { Simulator } = Simulation;
  for (const [label, timings] of Simulator.allNodeTimings) {
    if (!label.endsWith('LargestContentfulPaint')) continue;
    const rows = [...timings.entries()].sort((a, b) => a[1].startTime - b[1].startTime);
    const end = Math.max(...rows.map(([, t]) => t.endTime));
    console.log(`  ${page}, ${label}: ${fmt(end)} ms, ${rows.length} nodes`);
    for (const [node, t] of rows) {
      const what =
        node.type === 'network'
          ? `${node.request?.url.replace(/^https?:\/\/[^/]+/, '').slice(0, 70)} (${fmt((node.request?.transferSize ?? 0) / 1024, 1)} KB)`
          : `task: ${(node.childEvents ?? [])
              .filter((e) => (e.dur ?? 0) >= 1000)
              .sort((a, b) => (b.dur ?? 0) - (a.dur ?? 0))
              .slice(0, 3)
              .map((e) => e.name)
              .join(', ')}`;
      console.log(`    ${fmt(t.startTime).padStart(6)}–${fmt(t.endTime).padEnd(6)} ${what}`);
    }
  }
  Simulator.allNodeTimings.clear();
}

function figuresOf(lhr: Result): Figures {
  const score = (id: string) => Math.round((lhr.categories[id]?.score ?? Number.NaN) * 100);
  const items = (
    lhr.audits['resource-summary']?.details as { items?: { resourceType: string; transferSize: number }[] }
  )?.items;
  const script = items?.find((i) => i.resourceType === 'script')?.transferSize ?? Number.NaN;
  return {
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    tbtMs: lhr.audits['total-blocking-time']?.numericValue ?? Number.NaN,
    lcpMs: lhr.audits['largest-contentful-paint']?.numericValue ?? Number.NaN,
    fcpMs: lhr.audits['first-contentful-paint']?.numericValue ?? Number.NaN,
    jsKb: script / 1024,
    benchmarkIndex: lhr.environment?.benchmarkIndex ?? Number.NaN,
  };
}

const median = (values: number[]) => {
  const v = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (!v.length) return Number.NaN;
  const mid = Math.floor(v.length / 2);
  return v.length % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
};

/** Every audit of the three categories scoring below 1, with what Lighthouse says about it. */
function weakAudits(lhr: Result): string[] {
  const lines: string[] = [];
  for (const id of ['performance', 'accessibility', 'best-practices']) {
    for (const ref of lhr.categories[id]?.auditRefs ?? []) {
      const audit = lhr.audits[ref.id];
      if (!audit || audit.score === null || audit.score >= 1) continue;
      if (audit.scoreDisplayMode === 'informative' || audit.scoreDisplayMode === 'notApplicable') continue;
      lines.push(`  [${id}] ${ref.id} (${audit.score}): ${audit.displayValue ?? audit.title}`);
    }
  }
  const consoleErrors = (lhr.audits['errors-in-console']?.details as { items?: { description?: string }[] })
    ?.items;
  for (const e of consoleErrors ?? []) lines.push(`  console: ${String(e.description).slice(0, 160)}`);
  return lines;
}

export async function benchLighthouse(argv = process.argv.slice(2)) {
  const args = parseArgs(argv);
  const runs = Number(args.flags.get('runs') ?? 5);
  const pages = (args.flags.get('pages') ?? 'login,agent,company,site').split(',') as PageName[];
  const presets = (args.flags.get('presets') ?? 'mobile,desktop').split(',') as Preset[];
  const port = Number(args.flags.get('port') ?? 0) || undefined;
  cpuSlowdown = args.flags.has('cpu') ? Number(args.flags.get('cpu')) : undefined;
  if (cpuSlowdown !== undefined && !(cpuSlowdown >= 1 && cpuSlowdown <= 32)) {
    throw new Error(`--cpu must be a number from 1 to 32, not ${args.flags.get('cpu')}`);
  }
  console.log(`\n== bench:lighthouse (${presets.join(' and ')}, ${runs} runs per page, medians) ==`);

  const webDist = path.join(repoRoot, 'apps/web/dist/index.html');
  const serverDist = path.join(repoRoot, 'apps/server/dist/server.js');
  if (args.flags.has('build') || !existsSync(webDist) || !existsSync(serverDist)) {
    console.log('building the web app and the server ...');
    execFileSync('npm', ['run', 'build', '-w', 'apps/web', '-w', 'apps/server'], {
      cwd: repoRoot,
      stdio: 'inherit',
    });
  }
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'forecourt-bench-lighthouse-'));
  const env = OFFLINE_PROVIDERS;
  // A given port may be held for a while by an outgoing connection's TIME_WAIT (it is in the ephemeral
  // range): then the next pair of ports is tried.
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  let serverPort = port;
  for (let attempt = 0; !server; attempt++) {
    try {
      server = await startServer({ dataDir, seed: 'demo', compiled: true, port: serverPort, env });
    } catch (err) {
      if (!port || attempt >= 19 || !String(err).includes('EADDRINUSE')) throw err;
      serverPort = port + 2 * ((attempt + 1) % 10);
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
  // Chromium's debugging port: the first free one after the server's (within the 100 from --port).
  const chromePorts: [number, number] = serverPort ? [serverPort + 1, (port ?? 0) + 99] : [0, 0];
  const reportDir = path.join(repoRoot, 'bench', 'results', 'lighthouse');
  mkdirSync(reportDir, { recursive: true });
  const rows: Array<Record<string, string | number>> = [];
  const figures: Record<string, unknown> = {};
  try {
    const users = await dashboards(server.url);
    const targets: Record<PageName, { hash: string; session: Session | null }> = {
      login: { hash: '/auth/login', session: null },
      agent: users.agent,
      company: users.company,
      site: users.site,
    };
    await waitForQuiet(args.wait);
    // One unmeasured run warms the server's snapshots and the machine's file cache.
    await runOnce(
      `${server.url}/#${targets.agent.hash}`,
      'desktop',
      chromePorts,
      server.url,
      targets.agent.session,
    );

    for (const name of pages) {
      const target = targets[name];
      if (!target) throw new Error(`unknown page ${name} (login, agent, company, site)`);
      for (const preset of presets) {
        const all: Figures[] = [];
        let last: Result | undefined;
        for (let i = 0; i < runs; i++) {
          last = await runOnce(
            `${server.url}/#${target.hash}`,
            preset,
            chromePorts,
            server.url,
            target.session,
          );
          const f = figuresOf(last);
          all.push(f);
          console.log(
            `  ${name} ${preset} #${i + 1}: perf ${f.performance}, a11y ${f.accessibility}, bp ${f.bestPractices}, TBT ${fmt(f.tbtMs)} ms, LCP ${fmt(f.lcpMs)} ms, JS ${fmt(f.jsKb, 1)} KB`,
          );
        }
        if (last) {
          if (args.flags.has('lantern')) await printLanternGraphs(`${name} ${preset}, last run`);
          writeFileSync(path.join(reportDir, `${name}-${preset}.json`), JSON.stringify(last));
          if (args.flags.has('details')) {
            const weak = weakAudits(last);
            if (weak.length) console.log(`  ${name} ${preset}, last run, below 100 %:\n${weak.join('\n')}`);
          }
        }
        const med = (k: keyof Figures) => median(all.map((f) => f[k]));
        const m: Figures = {
          performance: med('performance'),
          accessibility: med('accessibility'),
          bestPractices: med('bestPractices'),
          tbtMs: med('tbtMs'),
          lcpMs: med('lcpMs'),
          fcpMs: med('fcpMs'),
          jsKb: med('jsKb'),
          benchmarkIndex: med('benchmarkIndex'),
        };
        figures[`${name}-${preset}`] = { median: m, runs: all };
        rows.push({
          page: `${name} (#${target.hash})`,
          preset,
          performance: fmt(m.performance),
          accessibility: fmt(m.accessibility),
          'best practices': fmt(m.bestPractices),
          'TBT ms': fmt(m.tbtMs),
          'LCP ms': fmt(m.lcpMs),
          'FCP ms': fmt(m.fcpMs),
          'JS KB': fmt(m.jsKb, 1),
          'CPU index': fmt(m.benchmarkIndex),
          'perf min–max': `${Math.min(...all.map((f) => f.performance))}–${Math.max(...all.map((f) => f.performance))}`,
        });
      }
    }
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  console.log(`\nmedians of ${runs} runs (load average now ${os.loadavg()[0].toFixed(2)})`);
  table(rows);
  console.log(
    'targets (agent dashboard): performance ≥ 95 mobile and 100 desktop, accessibility and best practices 100',
  );
  console.log(
    "CPU index: Lighthouse's benchmarkIndex of the machine during the runs; the mobile preset slows the CPU 4× on " +
      'top of it, calibrated for a machine of ~1,000–2,000 (a busy or small machine scores the page lower)',
  );
  console.log(
    `results: ${writeResult('lighthouse', figures)}; reports: ${path.relative(repoRoot, reportDir)}/`,
  );
}

runIfMain(import.meta.url, benchLighthouse);
