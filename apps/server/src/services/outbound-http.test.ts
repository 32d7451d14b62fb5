import { describe, expect, it } from 'vitest';
import { addressAllowed, allowListOf, checkUrl } from './outbound-http.ts';

const none = allowListOf([]);

describe('outbound-http', () => {
  it('refuses internal addresses, IPv4 and IPv6, IPv4-mapped included', () => {
    for (const a of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '::1',
      '::',
      'fe80::1',
      'fd00:ec2::254',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:a9fe:a9fe',
    ])
      expect(addressAllowed(a, none), a).toBe(false);
    for (const a of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111'])
      expect(addressAllowed(a, none), a).toBe(true);
  });

  it('lets listed addresses and ranges through', () => {
    const allow = allowListOf(['127.0.0.2', '10.20.0.0/16', 'hooks.internal']);
    expect(addressAllowed('127.0.0.2', allow)).toBe(true);
    expect(addressAllowed('127.0.0.1', allow)).toBe(false);
    expect(addressAllowed('10.20.3.4', allow)).toBe(true);
    expect(addressAllowed('10.21.3.4', allow)).toBe(false);
  });

  it('checks URLs: http(s) only, no credentials, names resolving to loopback refused unless listed', async () => {
    expect(await checkUrl('ftp://93.184.216.34/', none)).toMatchObject({ ok: false });
    expect(await checkUrl('http://user:pw@93.184.216.34/', none)).toMatchObject({ ok: false });
    expect(await checkUrl('https://93.184.216.34/hook', none)).toEqual({ ok: true });
    expect(await checkUrl('http://[::ffff:169.254.169.254]/', none)).toMatchObject({ ok: false });
    expect(await checkUrl('http://localhost:8080/', none)).toMatchObject({ ok: false });
    expect(await checkUrl('http://hooks.internal/', allowListOf(['hooks.internal']))).toEqual({ ok: true });
  });
});
