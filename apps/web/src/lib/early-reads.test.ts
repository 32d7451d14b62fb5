import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fleetFirstReadUrls } from '../app/routes/pages/dashboards/first-read-urls.ts';
import { prefetchFleetDashboard } from '../app/routes/pages/dashboards/first-reads.ts';
import { fakeJwt, json, mockFetch } from '../testing/fetch-mock.ts';
import { api } from './api-client.ts';
import { clearSession, sessionStore, setToken } from './auth/session.ts';
import { clearEarlyReads, EARLY_READ_MAX_AGE_MS, startEarlyReads, takeEarlyRead } from './early-reads.ts';
import { queryClient } from './query-client.ts';

afterEach(() => {
  clearEarlyReads();
  clearSession();
  queryClient.clear();
});

describe('early reads', () => {
  it('the API client takes an early answer once instead of asking again, and checks it with the schema', async () => {
    const token = fakeJwt();
    setToken(token);
    const api$ = mockFetch({ 'GET /api/x/': json({ id: 7 }) });
    startEarlyReads(['/api/x/'], token);
    expect(api$.calls).toHaveLength(1);
    expect(api$.calls[0].headers.get('Authorization')).toBe(`JWT ${token}`);
    expect(await api.get('/api/x/', { schema: z.object({ id: z.number() }) })).toEqual({ id: 7 });
    expect(api$.calls).toHaveLength(1);
    // Taken once: the next read asks the server.
    await api.get('/api/x/');
    expect(api$.calls).toHaveLength(2);
  });

  it('an early answer the schema refuses is a parse error, as any other', async () => {
    const token = fakeJwt();
    setToken(token);
    mockFetch({ 'GET /api/x/': json({ id: 'seven' }) });
    startEarlyReads(['/api/x/'], token);
    await expect(api.get('/api/x/', { schema: z.object({ id: z.number() }) })).rejects.toMatchObject({
      kind: 'parse',
    });
  });

  it('an early 401 ends the session as a fetched one does', async () => {
    const token = fakeJwt();
    setToken(token);
    mockFetch({ 'GET /api/x/': json({ detail: 'expired' }, 401) });
    startEarlyReads(['/api/x/'], token);
    await expect(api.get('/api/x/')).rejects.toMatchObject({ status: 401 });
    expect(sessionStore.get().token).toBe('');
  });

  it('is not handed out for another token, once stale, or twice; one read per URL is on its way', async () => {
    const api$ = mockFetch({ 'GET /api/x/': json({}) });
    startEarlyReads(['/api/x/', '/api/x/'], 'a', 1_000);
    startEarlyReads(['/api/x/'], 'a', 2_000);
    expect(api$.calls).toHaveLength(1);
    expect(takeEarlyRead('/api/x/', 'b', 2_000)).toBeUndefined();
    startEarlyReads(['/api/x/'], 'a', 1_000);
    expect(takeEarlyRead('/api/x/', 'a', 1_000 + EARLY_READ_MAX_AGE_MS)).toBeUndefined();
    startEarlyReads(['/api/x/'], 'a', 1_000);
    expect(takeEarlyRead('/api/x/', 'a', 1_500)).toBeInstanceOf(Promise);
    expect(takeEarlyRead('/api/x/', 'a', 1_500)).toBeUndefined();
    startEarlyReads(['/api/y/'], '', 1_000);
    expect(api$.find('GET', '/api/y/')).toHaveLength(0);
  });

  it('sends exactly the reads of a fleet dashboard first view, which then asks nothing twice', async () => {
    const token = fakeJwt();
    setToken(token);
    const api$ = mockFetch({});
    for (const scope of [
      { kind: 'agent', id: 3 },
      { kind: 'company', id: 5 },
    ] as const) {
      api$.calls.length = 0;
      queryClient.clear();
      prefetchFleetDashboard(scope);
      await new Promise((r) => setTimeout(r, 20));
      const asked = api$.calls.map((c) => c.url.pathname + c.url.search).sort();
      const early = fleetFirstReadUrls(scope)
        .map((u) => new URL(u, 'http://localhost'))
        .map((u) => u.pathname + u.search)
        .sort();
      expect(asked).toEqual(early);
      // Started early, the same reads are taken, not sent again.
      api$.calls.length = 0;
      queryClient.clear();
      startEarlyReads(fleetFirstReadUrls(scope), token);
      expect(api$.calls).toHaveLength(early.length);
      prefetchFleetDashboard(scope);
      await new Promise((r) => setTimeout(r, 20));
      expect(api$.calls).toHaveLength(early.length);
    }
  });
});
