import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, isSpaPath } from '../src/app.ts';
import { loadEnv } from '../src/config/env.ts';
import { openDemoDatabase, postgresUnavailable, TEST_JWT_SECRET } from './helper.ts';

describe('which paths are web app pages', () => {
  it.each([
    ['/site/3/pump/status/log', true],
    ['/agent/1/alert/log/', true],
    ['/company/1/site/2/terminal/hardware/log/', true],
    ['/profile', true],
    ['/', false],
    ['/api/user/', false],
    ['/api-token-auth/', false],
    ['/assets/index-abc.js', false],
    ['/favicon.svg', false],
  ])('%s → %s', (p, expected) => expect(isSpaPath(p)).toBe(expected));
});

describe.skipIf(postgresUnavailable)('plain paths answer the web app', () => {
  let app: Awaited<ReturnType<typeof buildApp>>;
  let close: () => Promise<void>;
  const html = '<!doctype html><html><body><div id="root"></div>forecourt-spa</body></html>';

  beforeAll(async () => {
    const webRoot = mkdtempSync(path.join(os.tmpdir(), 'forecourt-web-'));
    writeFileSync(path.join(webRoot, 'index.html'), html);
    writeFileSync(path.join(webRoot, 'favicon.svg'), '<svg/>');
    const database = await openDemoDatabase();
    const config = loadEnv({
      DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'forecourt-test-')),
      SIMULATOR: 'off',
      LOG_LEVEL: 'silent',
    });
    app = await buildApp({ config, database, jwtSecret: TEST_JWT_SECRET, webRoot });
    await app.ready();
    close = async () => {
      await app.close();
      await database.close();
    };
  });
  afterAll(async () => close?.());

  const page = (url: string, accept = 'text/html,application/xhtml+xml,*/*;q=0.8') =>
    app.inject({ method: 'GET', url, headers: { accept } });

  it.each([
    '/site/3/pump/status/log',
    '/site/3/pump/status/log/',
    '/site/3/pump/activation/log/?q=pump',
    '/company/1/shock/alert/log',
    '/site/3/terminal/battery/log',
    '/company/1/site/1/terminal/hardware/log/',
    '/agent/1/terminal/reboot/log/',
    '/profile',
  ])('%s answers index.html to a browser', async (url) => {
    const res = await page(url);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.body).toContain('forecourt-spa');
  });

  it('never shadows the API: an unknown API path is a JSON 404, a known one answers as before', async () => {
    const unknown = await page('/api/nothing/here/');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ data: { errors: ['Not found: GET /api/nothing/here/'] } });
    const guarded = await page('/api/site/3/pump/status/log/');
    expect(guarded.statusCode).toBe(401);
    expect(guarded.headers['content-type']).toMatch(/json/);
  });

  it('a client not asking for HTML, or a missing file, still gets 404', async () => {
    const json = await page('/site/3/pump/status/log', 'application/json');
    expect(json.statusCode).toBe(404);
    const missing = await page('/assets/missing-file.js');
    expect(missing.statusCode).toBe(404);
    const file = await page('/favicon.svg', '*/*');
    expect(file.statusCode).toBe(200);
    expect(file.body).toBe('<svg/>');
  });
});
