import { POLLING_DELAY_MS } from '@forecourt/contract/rules';
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

/** Signs in as the demo agent: its token and its agent id (`GET /api/user/`). */
export async function signedInAgent(baseUrl: string): Promise<{ token: string; agentId: number }> {
  const token = await login(baseUrl);
  const me = await json<{ agent: number | null }>(`${baseUrl}/api/user/`, {
    headers: authHeader(token),
    expect: [200],
  });
  if (!me.body.agent) throw new Error('the agent sign-in has no agent id');
  return { token, agentId: me.body.agent };
}

/** The terminals of the agent's sites, site by site, until at least `count` are listed (each with its site). */
export async function agentTerminals(
  baseUrl: string,
  token: string,
  agentId: number,
  count: number,
): Promise<Array<{ id: number; siteId: number }>> {
  const get = <T>(path: string) =>
    json<T>(`${baseUrl}${path}`, { headers: authHeader(token), expect: [200] });
  const sites = await get<Array<{ id: number }>>(`/api/agent/${agentId}/sites/`);
  const terminals: Array<{ id: number; siteId: number }> = [];
  for (const site of sites.body) {
    if (terminals.length >= count) break;
    const list = await get<Array<{ id: number }>>(`/api/site/${site.id}/terminals/`);
    for (const t of list.body) terminals.push({ id: t.id, siteId: site.id });
  }
  if (terminals.length === 0) throw new Error('no terminals found through the API');
  return terminals;
}

/** A device token for each terminal, provisioned through the API by the agent. */
export async function provisionDevices(
  baseUrl: string,
  token: string,
  terminalIds: number[],
): Promise<string[]> {
  const tokens: string[] = [];
  for (const id of terminalIds) {
    const r = await json<{ token: string }>(`${baseUrl}/api/terminal/${id}/device-token/`, {
      method: 'POST',
      headers: authHeader(token),
    });
    if (r.status >= 300)
      throw new Error(`device-token for terminal ${id}: ${r.status} ${JSON.stringify(r.body)}`);
    tokens.push(r.body.token);
  }
  console.log(`provisioned ${tokens.length} device tokens through the API`);
  return tokens;
}

/**
 * Devices posting `body` to the device API's telemetry for `duration` seconds: one connection per device token, each
 * signed with its own token.
 */
export function postTelemetry(
  baseUrl: string,
  deviceTokens: readonly string[],
  body: string,
  duration: number,
): Promise<LoadResult> {
  let next = 0;
  return cannon({
    url: `${baseUrl}/api/device/v1/telemetry`,
    method: 'POST',
    connections: deviceTokens.length,
    duration,
    body,
    headers: { 'content-type': 'application/json' },
    setupClient: (client) => {
      const tok = deviceTokens[next++ % deviceTokens.length];
      client.setHeaders({ 'content-type': 'application/json', authorization: `Device ${tok}` });
    },
  });
}

/** How often the console's dashboards poll, in seconds (the contract's POLLING_DELAY_MS). */
export const DASHBOARD_POLL_S = POLLING_DELAY_MS / 1000;

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
