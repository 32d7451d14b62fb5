import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstTileUrl, tileProbe } from './tile-probe.ts';

describe('firstTileUrl', () => {
  it('fills a Leaflet template with the zoom-0 tile', () => {
    expect(firstTileUrl('https://{s}.tile.example.test/{z}/{x}/{y}{r}.png')).toBe(
      'https://a.tile.example.test/0/0/0.png',
    );
    expect(firstTileUrl('https://x.test/tile/{z}/{y}/{x}')).toBe('https://x.test/tile/0/0/0');
  });
});

describe('tileProbe against a real tile server', () => {
  let server: Server;
  let base = '';
  const asked: string[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      asked.push(req.url ?? '');
      res.statusCode = req.url?.startsWith('/ok/') ? 200 : 404;
      res.end('tile');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('finds a server that answers the tile reachable, asks once within the TTL', async () => {
    asked.length = 0;
    const reachable = tileProbe();
    expect(await reachable(`${base}/ok/{z}/{x}/{y}.png`)).toBe(true);
    expect(await reachable(`${base}/ok/{z}/{x}/{y}.png`)).toBe(true);
    expect(asked).toEqual(['/ok/0/0/0.png']);
  });

  it('finds a server answering 404, a closed port and a bad template unreachable', async () => {
    const reachable = tileProbe();
    expect(await reachable(`${base}/missing/{z}/{x}/{y}.png`)).toBe(false);
    expect(await reachable('http://127.0.0.1:9/{z}/{x}/{y}.png')).toBe(false);
    expect(await reachable('not a url {z}')).toBe(false);
  });

  it('after the TTL asks again, answering with the previous verdict meanwhile', async () => {
    asked.length = 0;
    let up = false;
    const reachable = tileProbe({ ttlMs: 0, check: async () => up });
    expect(await reachable(`${base}/x/{z}/{x}/{y}`)).toBe(false);
    up = true;
    // The new check starts; the previous answer stands until it is done.
    expect(await reachable(`${base}/x/{z}/{x}/{y}`)).toBe(false);
    expect(await reachable(`${base}/x/{z}/{x}/{y}`)).toBe(true);
  });
});
