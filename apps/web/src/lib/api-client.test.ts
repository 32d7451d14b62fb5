import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { env } from '../config/env.ts';
import { fakeJwt, json, mockFetch } from '../testing/fetch-mock.ts';
import { ApiError, api, apiUrl, setUnauthorizedHandler } from './api-client.ts';
import { clearSession, sessionStore, setToken } from './auth/session.ts';

afterEach(() => {
  clearSession();
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
});
