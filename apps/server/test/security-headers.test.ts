import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tileSource } from '../src/lib/csp.ts';
import { buildTestApp, postgresUnavailable, type TestApp } from './helper.ts';

const directive = (csp: string, name: string) =>
  new RegExp(`(?:^|;)\\s*${name} ([^;]*)`).exec(csp)?.[1]?.split(/\s+/) ?? null;

describe('tileSource', () => {
  it('turns a tile URL template into the origin it loads from', () => {
    expect(tileSource('https://tile.openstreetmap.org/{z}/{x}/{y}.png')).toBe(
      'https://tile.openstreetmap.org',
    );
    expect(tileSource('https://{s}.tiles.example.com:8443/{z}/{x}/{y}@2x.png')).toBe(
      'https://*.tiles.example.com:8443',
    );
    expect(tileSource('not a url')).toBeNull();
    expect(tileSource('javascript:alert(1)')).toBeNull();
  });
});

describe.skipIf(postgresUnavailable)('security headers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({
      TILE_URL_ROAD: 'https://{s}.road.example.test/{z}/{x}/{y}.png',
      TILE_URL_SATELLITE: 'http://sat.example.test:8080/{z}/{y}/{x}.jpg',
    });
  });
  afterAll(async () => t?.close());

  it('sends a policy with scripts from the origin only, no framing, images from the origin and the tile servers', async () => {
    for (const url of ['/api/config', '/api/does-not-exist', '/api/health']) {
      const res = await t.app.inject({ method: 'GET', url });
      const csp = String(res.headers['content-security-policy']);
      expect(directive(csp, 'script-src')).toEqual(["'self'"]);
      expect(directive(csp, 'frame-ancestors')).toEqual(["'none'"]);
      expect(directive(csp, 'img-src')).toEqual([
        "'self'",
        'data:',
        'blob:',
        'https://*.road.example.test',
        'http://sat.example.test:8080',
      ]);
      expect(csp).not.toContain("'unsafe-eval'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    }
  });
});
