import { largeDataset, startOn } from './lib/dataset.ts';
import {
  agentDashboardPaths,
  authHeader,
  cannon,
  DASHBOARD_POLL_S,
  json,
  type LoadResult,
  signedInAgent,
} from './lib/load.ts';
import { fmt, parseArgs, runIfMain, table, waitForQuiet, writeResult } from './lib/report.ts';

const P99_BUDGET_MS = 100;

interface Step {
  operators: number;
  targetRps: number;
  okRps: number;
  p50: number;
  p99: number;
  errors: number;
  notModified: number;
  held: boolean;
}

/**
 * bench:api — simulated operators, each polling the agent dashboard's endpoints every 12.5 s like the browser
 * (keeping each response's ETag and sending If-None-Match). The operator count is ramped to find the most held
 * with p99 < 100 ms, no errors and the full request rate served; and, in the same run, the saturated
 * dashboard throughput ÷ the hello-world (/api/health) throughput.
 */
export async function benchApi(argv = process.argv.slice(2)) {
  const args = parseArgs(argv);
  const scale = Number(args.flags.get('scale') ?? (args.db === 'postgres' ? 1 : 0.1));
  const stepSeconds = Number(args.flags.get('step') ?? 15);
  const maxOperators = Number(args.flags.get('max-operators') ?? 200_000);
  console.log(`\n== bench:api on ${args.db}, scale data set LARGE_SCALE=${scale} ==`);

  const target = await largeDataset(args.db, scale);
  const server = await startOn(target, 'large');
  try {
    const { token, agentId } = await signedInAgent(server.url);
    const counts = await json<unknown[]>(`${server.url}/api/agent/${agentId}/sites/`, {
      headers: authHeader(token),
    });
    if (Array.isArray(counts.body))
      console.log(`agent ${agentId} sees ${counts.body.length.toLocaleString('en')} sites`);

    // The endpoints that exist (others are reported, not measured), with their first ETag.
    const etags = new Map<string, string>();
    const paths: string[] = [];
    const sizes: Record<string, number> = {};
    const skip = (args.flags.get('skip') ?? '').split(',').filter(Boolean);
    const timed = async (p: string) => {
      const t0 = performance.now();
      const res = await fetch(`${server.url}${p}`, { headers: authHeader(token) });
      const body = await res.text();
      return { res, body, ms: performance.now() - t0 };
    };
    /** Time of a cold answer and of one after 3 s idle (the shared snapshot has expired and is rebuilt). */
    const answerMs: Record<string, { first: number; rebuilt: number }> = {};
    for (const p of agentDashboardPaths(agentId)) {
      if (skip.some((s) => p.includes(s))) {
        console.log(`  skipped ${p} (--skip)`);
        continue;
      }
      const first = await timed(p);
      if (first.res.status !== 200) {
        console.log(`  skipped ${p}: ${first.res.status} (not available)`);
        continue;
      }
      await new Promise((r) => setTimeout(r, 3000));
      const again = await timed(p);
      paths.push(p);
      sizes[p] = again.body.length;
      answerMs[p] = { first: first.ms, rebuilt: again.ms };
      const etag = again.res.headers.get('etag');
      if (etag) etags.set(p, etag);
      console.log(
        `  ${p}: ${fmt(again.body.length / 1024, 1)} KB, cold answer ${fmt(first.ms)} ms, after 3 s idle ${fmt(again.ms)} ms${etag ? ', ETag' : ', no ETag'}`,
      );
    }
    if (paths.length === 0) throw new Error('none of the dashboard endpoints is available yet');

    /** Browser-like requests: If-None-Match with the latest ETag seen for that URL; 304 counts as served. */
    const requests = paths.map((p) => ({
      method: 'GET' as const,
      path: p,
      setupRequest: (req: Record<string, unknown>) => {
        const etag = etags.get(p);
        const headers: Record<string, string> = {
          ...(req.headers as Record<string, string>),
          ...authHeader(token),
        };
        if (etag) headers['if-none-match'] = etag;
        else delete headers['if-none-match'];
        return { ...req, headers };
      },
      onResponse: (status: number, _body: string, _ctx: unknown, headers: Record<string, string>) => {
        if (status === 200 && headers?.etag) etags.set(p, headers.etag);
      },
    }));
    const dashboard = (extra: Record<string, unknown>) =>
      cannon({ url: server.url, requests: requests as never, ...extra }) as Promise<LoadResult>;

    // Saturation, same run: hello world, then the dashboard mix as fast as it goes.
    await waitForQuiet(args.wait);
    await cannon({ url: `${server.url}/api/health`, connections: 50, duration: 2 });
    const hello = await cannon({ url: `${server.url}/api/health`, connections: 50, duration: args.duration });
    await dashboard({ connections: 50, duration: 3 });
    const saturated = await dashboard({ connections: 50, duration: args.duration });
    const ratio = saturated.okRps / hello.okRps;
    table([
      { measure: 'hello world /api/health', 'req/s': hello.okRps, 'p99 ms': hello.p99, errors: hello.errors },
      {
        measure: `dashboard mix (${paths.length} endpoints)`,
        'req/s': saturated.okRps,
        'p99 ms': saturated.p99,
        errors: saturated.errors,
      },
    ]);
    console.log(`ratio dashboard ÷ hello world = ${fmt(ratio, 3)}`);

    // Ramp: N operators = N × endpoints ÷ 12.5 s requests per second, latency corrected for coordinated omission.
    const steps: Step[] = [];
    const tryOperators = async (operators: number): Promise<Step> => {
      const targetRps = (operators * paths.length) / DASHBOARD_POLL_S;
      const connections = Math.max(20, Math.min(2000, Math.ceil(targetRps / 15)));
      const r = await dashboard({ connections, overallRate: Math.ceil(targetRps), duration: stepSeconds });
      const step: Step = {
        operators,
        targetRps,
        okRps: r.okRps,
        p50: r.p50,
        p99: r.p99,
        errors: r.errors,
        notModified: r.statuses['304'] ?? 0,
        held: r.errors === 0 && r.p99 < P99_BUDGET_MS && r.okRps >= targetRps * 0.95,
      };
      steps.push(step);
      console.log(
        `  ${fmt(operators).padStart(7)} operators → ${fmt(targetRps).padStart(6)} req/s wanted, ${fmt(r.okRps).padStart(6)} served, p50 ${fmt(r.p50)} ms, p99 ${fmt(r.p99)} ms, ${r.errors} errors → ${step.held ? 'held' : 'NOT held'}`,
      );
      return step;
    };
    // Double from the start until a step fails (or halve until one holds), then bisect three times.
    let good = 0;
    let bad = 0;
    const start = Number(args.flags.get('start') ?? 1000);
    if ((await tryOperators(start)).held) {
      good = start;
      for (let n = start * 2; n <= maxOperators; n *= 2) {
        if ((await tryOperators(n)).held) good = n;
        else {
          bad = n;
          break;
        }
      }
      if (bad === 0) bad = maxOperators * 2;
    } else {
      bad = start;
      for (let n = Math.floor(start / 2); n >= 25; n = Math.floor(n / 2)) {
        if ((await tryOperators(n)).held) {
          good = n;
          break;
        }
        bad = n;
      }
    }
    const grain = good >= 2000 ? 250 : 25;
    for (let i = 0; i < 3 && good > 0 && bad - good > Math.max(grain, good * 0.1); i++) {
      const mid = Math.round((good + bad) / 2 / grain) * grain;
      if ((await tryOperators(mid)).held) good = mid;
      else bad = mid;
    }
    console.log(
      `\nmost operators held (p99 < ${P99_BUDGET_MS} ms, polling ${paths.length} endpoints every ${DASHBOARD_POLL_S} s): ${fmt(good)} on ${args.db}; dashboard ÷ hello world = ${fmt(ratio, 3)}`,
    );
    const figures = {
      db: args.db,
      scale,
      endpoints: paths,
      responseBytes: sizes,
      answerMs,
      pollSeconds: DASHBOARD_POLL_S,
      hello,
      dashboard: saturated,
      ratioDashboardVsHello: ratio,
      steps,
      maxOperatorsHeld: good,
      rssMb: server.rssMb(),
    };
    console.log(
      `results: ${writeResult(`api-${args.db}${skip.length ? `-without-${skip.join('-')}` : ''}`, figures)}`,
    );
    return figures;
  } finally {
    await server.stop();
    await target.cleanup();
  }
}

runIfMain(import.meta.url, benchApi);
