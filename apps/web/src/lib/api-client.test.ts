import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { env } from '../config/env.ts';
import { fakeJwt, json, mockFetch } from '../testing/fetch-mock.ts';
import { ApiError, api, apiUrl, IDEMPOTENT_RETRY_MS, setUnauthorizedHandler } from './api-client.ts';
import { clearSession, sessionStore, setToken } from './auth/session.ts';
import { liveCursor, readsCursor } from './live-stream-state.ts';

afterEach(() => {
  clearSession();
  liveCursor.set(null);
  readsCursor.reset();
  env.authHeaderMode = 'jwt';
  env.authHeader = 'Authorization';
});

describe('api client', () => {
  it('sends the token as "Authorization: JWT <token>" on every call when one exists', async () => {
    const api$ = mockFetch({ 'GET /api/user/': json({ ok: 1 }) });
    await api.get('/api/user/');
    expect(api$.calls[0].headers.get('Authorization')).toBeNull();
    const token = fakeJwt();
    setToken(token);
    await api.get('/api/user/');
    expect(api$.calls[1].headers.get('Authorization')).toBe(`JWT ${token}`);
  });

  it('names the newest change the stream told of (X-Live-Cursor) on reads, none without a stream', async () => {
    const api$ = mockFetch({ 'GET /api/user/': json({}), 'POST /api/x': json({}) });
    await api.get('/api/user/');
    expect(api$.calls[0].headers.get('X-Live-Cursor')).toBeNull();
    liveCursor.set('1234');
    await api.get('/api/user/');
    await api.post('/api/x', {});
    expect(api$.calls[1].headers.get('X-Live-Cursor')).toBe('1234');
    expect(api$.calls[2].headers.get('X-Live-Cursor')).toBeNull();
  });

  it("notes each read's X-Live-Cursor (answers and 304s, not errors or actions) for the stream's first resume", async () => {
    const user = z.object({ name: z.string() });
    const api$ = mockFetch({
      'GET /api/a/': { status: 200, body: { name: 'a' }, headers: { etag: '"a1"', 'x-live-cursor': '52' } },
      'GET /api/b/': { status: 200, body: { name: 'b' }, headers: { 'x-live-cursor': '57' } },
      'GET /api/gone/': { status: 404, body: {}, headers: { 'x-live-cursor': '3' } },
      'POST /api/x': { status: 200, body: {}, headers: { 'x-live-cursor': '1' } },
    });
    await api.get('/api/a/', { schema: user });
    await api.get('/api/b/', { schema: user });
    await api.get('/api/gone/').catch(() => undefined);
    await api.post('/api/x', {});
    // The 304 of an unchanged read names how up to date the answer it hands back is.
    api$.spy.mockImplementationOnce(
      async () => new Response(null, { status: 304, headers: { etag: '"a1"', 'x-live-cursor': '50' } }),
    );
    await expect(api.get('/api/a/', { schema: user })).resolves.toEqual({ name: 'a' });
    expect(readsCursor.take(() => {})).toBe(50);
  });

  it('sends the raw token in the configured header in raw mode', async () => {
    env.authHeaderMode = 'raw';
    env.authHeader = 'X-Auth-Token';
    const api$ = mockFetch({ 'GET /api/user/': json({}) });
    setToken('raw-token');
    await api.get('/api/user/');
    expect(api$.calls[0].headers.get('X-Auth-Token')).toBe('raw-token');
  });

  it('turns an error body into one ApiError shape, reading data.errors', async () => {
    mockFetch({ 'POST /api/x': json({ data: { errors: ['bad subject', 'bad body'] } }, 400) });
    const error = await api.post('/api/x', {}).catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 400, kind: 'http', errors: ['bad subject', 'bad body'] });
  });

  it('a network failure is an ApiError of kind network', async () => {
    mockFetch({ 'GET /api/x': new TypeError('Failed to fetch') });
    await expect(api.get('/api/x')).rejects.toMatchObject({ kind: 'network', status: 0 });
  });

  it('an idempotent action carries a fresh Idempotency-Key per call, other calls none', async () => {
    const api$ = mockFetch({ 'POST /api/x': json({}) });
    await api.post('/api/x', {}, { idempotent: true });
    await api.post('/api/x', {}, { idempotent: true });
    await api.post('/api/x', {});
    const [first, second, plain] = api$.calls.map((c) => c.headers.get('Idempotency-Key'));
    expect(first).toMatch(/^[0-9a-f]{32}$/);
    expect(second).toMatch(/^[0-9a-f]{32}$/);
    expect(second).not.toBe(first);
    expect(plain).toBeNull();
  });

  it('an idempotent action with no answer is sent once more with the same key; a plain call is not', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let calls = 0;
    const api$ = mockFetch({
      'POST /api/x': () => (++calls === 1 ? new TypeError('Failed to fetch') : json({ done: 1 })),
    });
    const answer = api.post('/api/x', { a: 1 }, { idempotent: true });
    await vi.advanceTimersByTimeAsync(IDEMPOTENT_RETRY_MS);
    await expect(answer).resolves.toEqual({ done: 1 });
    expect(api$.calls).toHaveLength(2);
    expect(api$.calls[1].headers.get('Idempotency-Key')).toBe(api$.calls[0].headers.get('Idempotency-Key'));
    expect(api$.calls[1].body).toEqual({ a: 1 });

    calls = 0;
    await expect(api.post('/api/x', {})).rejects.toMatchObject({ kind: 'network' });
    expect(api$.calls).toHaveLength(3);
  });

  it('an idempotent action is not sent again after an answer, nor twice more when the retry fails too', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const api$ = mockFetch({ 'POST /api/x': json({ data: { errors: ['no'] } }, 409) });
    await expect(api.post('/api/x', {}, { idempotent: true })).rejects.toMatchObject({ status: 409 });
    expect(api$.calls).toHaveLength(1);
    const down = mockFetch({ 'POST /api/x': new TypeError('Failed to fetch') });
    const answer = api.post('/api/x', {}, { idempotent: true }).catch((e) => e);
    await vi.advanceTimersByTimeAsync(IDEMPOTENT_RETRY_MS);
    expect(await answer).toMatchObject({ kind: 'network', status: 0 });
    expect(down.calls).toHaveLength(2);
  });

  it('after a lost answer, a 409 with Retry-After (the first still being handled) asks again for its answer', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let calls = 0;
    const api$ = mockFetch({
      'POST /api/x': () => {
        calls++;
        if (calls === 1) return new TypeError('Failed to fetch');
        if (calls <= 3) return { status: 409, body: { error: true }, headers: { 'retry-after': '1' } };
        return json({ done: 1 });
      },
    });
    const answer = api.post('/api/x', {}, { idempotent: true });
    await vi.advanceTimersByTimeAsync(3 * IDEMPOTENT_RETRY_MS);
    await expect(answer).resolves.toEqual({ done: 1 });
    expect(new Set(api$.calls.map((c) => c.headers.get('Idempotency-Key'))).size).toBe(1);
    expect(api$.calls).toHaveLength(4);
    // A 409 without Retry-After (the action's own conflict) is an answer.
    const conflict = mockFetch({ 'POST /api/x': json({ error: true }, 409) });
    await expect(api.post('/api/x', {}, { idempotent: true })).rejects.toMatchObject({ status: 409 });
    expect(conflict.calls).toHaveLength(1);
  });

  it('a response that does not match the contract schema is an ApiError of kind parse', async () => {
    mockFetch({ 'GET /api/x': json({ id: 'not a number' }) });
    await expect(api.get('/api/x', { schema: z.object({ id: z.number() }) })).rejects.toMatchObject({
      kind: 'parse',
    });
  });

  it('a 401 ends the session and goes to the login page, once, in one place', async () => {
    const handler = vi.fn();
    setUnauthorizedHandler(handler);
    mockFetch({ 'GET /api/alerts/agent/1/': json({ data: { errors: ['expired'] } }, 401) });
    setToken(fakeJwt());
    await expect(api.get('/api/alerts/agent/1/')).rejects.toMatchObject({ status: 401 });
    expect(sessionStore.get().token).toBe('');
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it('auth calls opt out of the 401 handling', async () => {
    const handler = vi.fn();
    setUnauthorizedHandler(handler);
    mockFetch({ 'POST /api/auth/login': json({}, 401) });
    setToken(fakeJwt());
    await expect(api.post('/api/auth/login', {}, { handleUnauthorized: false })).rejects.toBeInstanceOf(
      ApiError,
    );
    expect(handler).not.toHaveBeenCalled();
  });

  it('repeats array query parameters and leaves out empty ones', () => {
    expect(
      apiUrl('/api/alerts/agent/1/', { event_type: [1, 2, 12], limit_to: 10, offline: undefined, q: '' }),
    ).toBe('/api/alerts/agent/1/?event_type=1&event_type=2&event_type=12&limit_to=10');
  });

  it('sends If-None-Match with the last ETag and reuses the parsed answer on a 304, without parsing again', async () => {
    setToken(fakeJwt());
    let parses = 0;
    const schema = z.array(z.object({ id: z.number() })).transform((v) => {
      parses++;
      return v;
    });
    let version = 1;
    const api$ = mockFetch({
      'GET /api/agent/1/map/terminals/': (req) => {
        const etag = `"v${version}"`;
        if (req.headers.get('If-None-Match') === etag) return { status: 304, headers: { etag } };
        return { status: 200, body: [{ id: version }], headers: { etag } };
      },
    });
    const first = await api.get('/api/agent/1/map/terminals/', { schema });
    expect(first).toEqual([{ id: 1 }]);
    expect(api$.calls[0].headers.get('If-None-Match')).toBeNull();

    const second = await api.get('/api/agent/1/map/terminals/', { schema });
    expect(api$.calls[1].headers.get('If-None-Match')).toBe('"v1"');
    expect(second).toBe(first);
    expect(parses).toBe(1);

    version = 2;
    const third = await api.get('/api/agent/1/map/terminals/', { schema });
    expect(third).toEqual([{ id: 2 }]);
    expect(parses).toBe(2);
    await api.get('/api/agent/1/map/terminals/', { schema });
    expect(api$.calls[3].headers.get('If-None-Match')).toBe('"v2"');
    expect(parses).toBe(2);
  });

  it('keeps remembered answers per token and URL, and forgets them on sign-out', async () => {
    const schema = z.object({ n: z.number() });
    const api$ = mockFetch({
      'GET /api/alerts/agent/1/': { status: 200, body: { n: 1 }, headers: { etag: '"a"' } },
      'GET /api/user/': json({ ok: 1 }),
    });
    setToken(fakeJwt({ sub: '1' }));
    await api.get('/api/alerts/agent/1/', { schema });
    await api.get('/api/alerts/agent/1/', { schema, query: { limit_to: 5 } });
    expect(api$.calls[1].headers.get('If-None-Match')).toBeNull();
    await api.get('/api/user/');
    await api.get('/api/user/');
    expect(api$.calls[3].headers.get('If-None-Match')).toBeNull();

    setToken(fakeJwt({ sub: '2' }));
    await api.get('/api/alerts/agent/1/', { schema });
    expect(api$.calls[4].headers.get('If-None-Match')).toBeNull();
    await api.get('/api/alerts/agent/1/', { schema });
    expect(api$.calls[5].headers.get('If-None-Match')).toBe('"a"');

    clearSession();
    setToken(fakeJwt({ sub: '2' }));
    await api.get('/api/alerts/agent/1/', { schema });
    expect(api$.calls[6].headers.get('If-None-Match')).toBeNull();
  });
});
