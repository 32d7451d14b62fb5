import autocannon from 'autocannon';

export interface LoadResult {
  /** Completed requests per second (any status). */
  rps: number;
  /** 2xx and 3xx responses per second. */
  okRps: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  total: number;
  ok: number;
  errors: number;
  statuses: Record<string, number>;
  seconds: number;
}

export type CannonOptions = autocannon.Options;

/** Runs autocannon and summarises: throughput, latency percentiles (ms), failures (errors, timeouts, 4xx, 5xx). */
export async function cannon(opts: CannonOptions): Promise<LoadResult> {
  const r = (await autocannon({ timeout: 10, ...opts })) as autocannon.Result & Record<string, unknown>;
  const seconds = r.duration;
  const ok = (r['2xx'] as number) + (r['3xx'] as number);
  const failures = r.errors + r.timeouts + (r['4xx'] as number) + (r['5xx'] as number);
  const total = ok + (r['1xx'] as number) + (r['4xx'] as number) + (r['5xx'] as number);
  return {
    rps: total / seconds,
    okRps: ok / seconds,
    p50: r.latency.p50,
    p90: r.latency.p90,
    p99: r.latency.p99,
    max: r.latency.max,
    total,
    ok,
    errors: failures,
    statuses: Object.fromEntries(
      Object.entries((r.statusCodeStats ?? {}) as Record<string, { count: number } | number>).map(
        ([code, v]) => [code, typeof v === 'number' ? v : v.count],
      ),
    ),
    seconds,
  };
}

export async function json<T>(
  url: string,
  init: RequestInit & { expect?: number[] } = {},
): Promise<{ status: number; body: T; headers: Headers }> {
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(60_000) });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    /* not JSON */
  }
  if (init.expect && !init.expect.includes(res.status)) {
    throw new Error(`${init.method ?? 'GET'} ${url} → ${res.status}: ${text.slice(0, 300)}`);
  }
  return { status: res.status, body: body as T, headers: res.headers };
}

/** Signs in (correct sign-ins are never limited, docs/deploying.md). */
export async function login(baseUrl: string, username = 'agent', password = 'demo1234') {
  const r = await json<{ token: string }>(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
    expect: [200],
  });
  return r.body.token;
}

export const authHeader = (token: string) => ({ authorization: `JWT ${token}` });

/** The hardware event types (docs/event-types.md): the hardware issues widget's filter. */
const HARDWARE = [1, 2, 12, 13, 14, 15];

/** What the agent dashboard asks for, every poll (docs/product.md#dashboards: alerts, hardware issues, connectivity, map, sites, time zones). */
export function agentDashboardPaths(agentId: number): string[] {
  return [
    `/api/alerts/agent/${agentId}/`,
    `/api/alerts/agent/${agentId}/?${HARDWARE.map((t) => `event_type=${t}`).join('&')}`,
    `/api/agent/${agentId}/connectivity/`,
    `/api/agent/${agentId}/map/terminals/`,
    `/api/agent/${agentId}/sites/`,
    `/api/agent/${agentId}/time/zones/`,
  ];
}
