import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, DEMO_PASSWORD, postgresUnavailable, type TestApp } from './helper.ts';

describe.skipIf(postgresUnavailable)('Cache-Control', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    const webRoot = mkdtempSync(path.join(os.tmpdir(), 'forecourt-web-'));
    mkdirSync(path.join(webRoot, 'assets'));
    writeFileSync(path.join(webRoot, 'index.html'), '<!doctype html><title>x</title>');
    writeFileSync(path.join(webRoot, 'assets', 'app-abc123.js'), 'console.log(1)');
    t = await buildTestApp({}, { webRoot });
    token = await t.login('agent');
  });
  afterAll(async () => t?.close());

  it('is no-store on personal answers: the current user, sign-in answers, scoped reads, logs and errors', async () => {
    const answers = [
      await t.as(token, { method: 'GET', url: '/api/user/' }),
      await t.as(token, { method: 'GET', url: '/api/user/sites/' }),
      await t.as(token, { method: 'GET', url: '/api/alerts/agent/1/' }),
      await t.as(token, { method: 'GET', url: '/api/agent/1/alert/log/?limit_to=5' }),
      await t.as(token, { method: 'GET', url: '/api/agent/1/alert/log/?limit_to=5&format=csv' }),
      await t.app.inject({ method: 'GET', url: '/api/user/' }),
      await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username: 'agent', password: DEMO_PASSWORD },
      }),
      await t.app.inject({
        method: 'POST',
        url: '/api-token-auth/',
        payload: { username: 'agent', password: DEMO_PASSWORD },
      }),
      await t.app.inject({ method: 'POST', url: '/auth/request-pass', payload: { email: 'a@b.example' } }),
      await t.app.inject({ method: 'POST', url: '/api-token-refresh/', payload: { token } }),
    ];
    for (const res of answers) {
      expect(res.statusCode).toBeLessThan(500);
      expect(res.headers['cache-control'], res.raw.req.url).toBe('no-store');
    }
  });

  it('keeps revalidation working on scoped reads: 304 for the same ETag, still no-store', async () => {
    const first = await t.as(token, { method: 'GET', url: '/api/agent/1/sites/' });
    const etag = first.headers.etag as string;
    expect(etag).toBeTruthy();
    const again = await t.as(token, {
      method: 'GET',
      url: '/api/agent/1/sites/',
      headers: { 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(304);
    expect(again.headers['cache-control']).toBe('no-store');
  });

  it('leaves public answers and static assets their caching', async () => {
    const config = await t.app.inject({ method: 'GET', url: '/api/config' });
    expect(config.headers['cache-control']).toBe('public, max-age=300');
    const asset = await t.app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).not.toBe('no-store');
    expect(asset.headers['cache-control']).toMatch(/public/);
  });
});
