import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  brotliCompressSync,
  brotliDecompressSync,
  gunzipSync,
  gzipSync,
  constants as zlibConstants,
} from 'node:zlib';
import { DeviceTokenResponseSchema } from '@forecourt/contract/terminals';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FleetFixture, fleetFixture, settleCommands } from './fleet-fixture.ts';
import { buildTestApp, postgresUnavailable, type TestApp } from './helper.ts';

/**
 * Compressed answers: polled snapshots share one gzip per snapshot, everything else of 1 KB or more is
 * compressed by @fastify/compress, and a device may send its body gzipped.
 */
describe.skipIf(postgresUnavailable)('compression', () => {
  let t: TestApp;
  let f: FleetFixture;
  let agent: string;
  let mapUrl: string;
  const webRoot = mkdtempSync(path.join(os.tmpdir(), 'forecourt-web-'));
  const script = `console.log(${JSON.stringify('forecourt '.repeat(4000))});\n`;

  /** A GET without a user, asking for `encoding` when given. */
  const getWith = (url: string, encoding?: string) =>
    t.app.inject({ method: 'GET', url, headers: encoding ? { 'accept-encoding': encoding } : {} });
  /** The agent's map of terminals: a polled answer. */
  const pollMap = (encoding?: string) =>
    t.as(agent, { method: 'GET', url: mapUrl, headers: encoding ? { 'accept-encoding': encoding } : {} });

  beforeAll(async () => {
    mkdirSync(path.join(webRoot, 'assets'));
    writeFileSync(path.join(webRoot, 'index.html'), '<!doctype html><title>Forecourt</title>');
    writeFileSync(path.join(webRoot, 'assets', 'app.js'), script);
    // What the web build writes beside an asset (apps/web/vite/precompress-plugin.ts).
    writeFileSync(path.join(webRoot, 'assets', 'built.js'), script);
    writeFileSync(
      path.join(webRoot, 'assets', 'built.js.br'),
      brotliCompressSync(script, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } }),
    );
    writeFileSync(path.join(webRoot, 'assets', 'built.js.gz'), gzipSync(script, { level: 9 }));
    t = await buildTestApp({}, { webRoot });
    f = await fleetFixture(t.database);
    await settleCommands(t.database);
    agent = await t.login('agent');
    const me = await t.as(agent, { method: 'GET', url: '/api/user/' });
    mapUrl = `/api/agent/${me.json().agent}/map/terminals/`;
  });
  afterAll(async () => {
    await t?.close();
    rmSync(webRoot, { recursive: true, force: true });
  });

  it('sends a polled answer gzipped to a client that accepts it, with the same ETag as the plain one', async () => {
    const plain = await pollMap();
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(1024);
    expect(plain.headers.vary).toMatch(/accept-encoding/i);

    const zipped = await pollMap('gzip, deflate, br');
    expect(zipped.statusCode).toBe(200);
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers['content-type']).toMatch(/^application\/json/);
    expect(zipped.headers.etag).toBe(plain.headers.etag);
    expect(zipped.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    expect(gunzipSync(zipped.rawPayload).toString('utf8')).toBe(plain.body);

    // The same snapshot is compressed once: a second caller gets the very same bytes.
    const again = await pollMap('gzip');
    expect(again.headers.etag).toBe(plain.headers.etag);
    expect(Buffer.compare(again.rawPayload, zipped.rawPayload)).toBe(0);

    const refused = await pollMap('gzip;q=0');
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(refused.body).toBe(plain.body);

    const notModified = await t.as(agent, {
      method: 'GET',
      url: mapUrl,
      headers: { 'accept-encoding': 'gzip', 'if-none-match': plain.headers.etag as string },
    });
    expect(notModified.statusCode).toBe(304);
    expect(notModified.rawPayload.length).toBe(0);
  });

  it('compresses other large answers with the encoding the client prefers, and leaves small ones alone', async () => {
    const doc = await getWith('/api/openapi.json', 'br');
    expect(doc.statusCode).toBe(200);
    expect(doc.headers['content-encoding']).toBe('br');
    expect(JSON.parse(brotliDecompressSync(doc.rawPayload).toString('utf8')).openapi).toMatch(/^3\./);

    const health = await getWith('/api/health', 'gzip');
    expect(health.statusCode).toBe(200);
    expect(health.headers['content-encoding']).toBeUndefined();
    expect(health.json().status).toBe('ok');
  });

  it('serves the web app compressed', async () => {
    const res = await getWith('/assets/app.js', 'gzip');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(res.rawPayload).toString('utf8')).toBe(script);
    const plain = await getWith('/assets/app.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
  });

  it('sends an asset the build compressed as it is, in the encoding the client prefers, never twice', async () => {
    const dir = path.join(webRoot, 'assets');
    const br = await getWith('/assets/built.js', 'gzip, deflate, br');
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(Buffer.compare(br.rawPayload, readFileSync(path.join(dir, 'built.js.br')))).toBe(0);
    expect(brotliDecompressSync(br.rawPayload).toString('utf8')).toBe(script);

    const gz = await getWith('/assets/built.js', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(Buffer.compare(gz.rawPayload, readFileSync(path.join(dir, 'built.js.gz')))).toBe(0);

    const plain = await getWith('/assets/built.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
    // The compressed copies are not pages of their own.
    expect((await getWith('/assets/missing.js')).statusCode).toBe(404);
  });

  it('takes a device body sent gzipped, and answers a corrupt or unknown encoding with a 4xx', async () => {
    const provisioned = await t.as(agent, {
      method: 'POST',
      url: `/api/terminal/${f.plainTerminalId}/device-token/`,
    });
    const token = DeviceTokenResponseSchema.parse(provisioned.json()).token;
    const postTelemetry = (encoding: string, payload: string | Buffer) =>
      t.app.inject({
        method: 'POST',
        url: '/api/device/v1/telemetry',
        headers: {
          authorization: `Device ${token}`,
          'content-type': 'application/json',
          'content-encoding': encoding,
        },
        payload,
      });
    const points = Array.from({ length: 50 }, (_, i) => ({
      at: new Date(Date.now() - (50 - i) * 1000).toISOString(),
      battery_life: 60 + i / 10,
    }));
    const ok = await postTelemetry('gzip', gzipSync(JSON.stringify(points)));
    expect(ok.statusCode).toBe(202);
    expect(ok.json()).toEqual({ accepted: 50 });
    // A device write's answer is no page: two static headers instead of helmet's (decision 0023).
    expect(ok.headers['x-content-type-options']).toBe('nosniff');
    expect(ok.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(ok.headers['x-frame-options']).toBeUndefined();

    const corrupt = await postTelemetry('gzip', Buffer.from('this is not gzip at all'));
    expect(corrupt.statusCode).toBe(400);
    expect(corrupt.json().data.errors[0]).toMatch(/decompress/);

    const unknown = await postTelemetry('zip', JSON.stringify(points));
    expect(unknown.statusCode).toBe(415);
    expect(unknown.json().data.errors[0]).toMatch(/Content-Encoding: zip/);
  });
});
