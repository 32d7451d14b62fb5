import { vi } from 'vitest';

export interface MockRequest {
  method: string;
  url: URL;
  headers: Headers;
  body: unknown;
}

export type MockReply = { status?: number; body?: unknown; headers?: Record<string, string> } | Error;
export type MockHandler = (request: MockRequest) => MockReply | Promise<MockReply>;

export function json(body: unknown, status = 200): MockReply {
  return { status, body };
}

/**
 * Replace fetch with a tiny router: keys are `METHOD /path` (query ignored). Unmatched calls answer
 * 404 and are recorded, so a test sees exactly which calls the app made.
 */
export function mockFetch(routes: Record<string, MockHandler | MockReply>) {
  const calls: MockRequest[] = [];
  const spy = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(typeof input === 'string' ? input : input.toString(), 'http://localhost');
    const method = (init.method ?? 'GET').toUpperCase();
    let body: unknown = init.body;
    if (typeof body === 'string') {
      try {
        body = JSON.parse(body);
      } catch {
        /* keep text */
      }
    }
    const request: MockRequest = { method, url, headers: new Headers(init.headers), body };
    calls.push(request);
    const route = routes[`${method} ${url.pathname}`];
    const reply =
      typeof route === 'function'
        ? await route(request)
        : (route ?? { status: 404, body: { data: { errors: ['Not found'] } } });
    if (reply instanceof Error) throw reply;
    return new Response(reply.body === undefined ? null : JSON.stringify(reply.body), {
      status: reply.status ?? 200,
      headers: { 'content-type': 'application/json', ...reply.headers },
    });
  });
  vi.stubGlobal('fetch', spy);
  return {
    calls,
    spy,
    find: (method: string, path: string) =>
      calls.filter((c) => c.method === method && c.url.pathname === path),
  };
}

/** A JWT-shaped token (unsigned) carrying the given payload. */
export function fakeJwt(payload: Record<string, unknown> = {}): string {
  const b64 = (v: unknown) =>
    btoa(JSON.stringify(v)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  return `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ sub: '1', exp: Math.floor(Date.now() / 1000) + 3600, ...payload })}.sig`;
}
