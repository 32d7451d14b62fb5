import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP } from 'node:net';

/**
 * Outgoing notifications over HTTP (webhooks, Slack, Teams), guarded against server-side request forgery
 * (docs/integrations.md#addresses-refused): only http(s), and never to an address that is loopback, private,
 * link-local, cloud metadata, unspecified or otherwise not public — checked on the URL's host when a contact point
 * is saved, and again on every address the name resolves to when sending (the connection uses the address just
 * checked, so a name re-pointed in between cannot slip through). Redirects are not followed. `WEBHOOK_ALLOWED_HOSTS`
 * lists host names and CIDRs let through anyway (a receiver inside the network).
 */

const INTERNAL_V4 = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const;
const INTERNAL_V6 = [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const;

/** Loopback, private, link-local (cloud metadata), unspecified, multicast, reserved and documentation ranges. */
const internal = new BlockList();
for (const [net, bits] of INTERNAL_V4) internal.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of INTERNAL_V6) internal.addSubnet(net, bits, 'ipv6');

const bare = (host: string) => host.replace(/^\[|\]$/g, '').toLowerCase();

export interface AllowList {
  hosts: Set<string>;
  ranges: BlockList;
}

/** Reads `WEBHOOK_ALLOWED_HOSTS` entries (already checked by config/env.ts): host names, addresses and CIDRs. */
export function allowListOf(entries: readonly string[]): AllowList {
  const hosts = new Set<string>();
  const ranges = new BlockList();
  for (const raw of entries) {
    const entry = bare(raw.trim());
    if (!entry) continue;
    const [address, bits] = entry.split('/');
    const family = isIP(address ?? '');
    if (family) {
      const type = family === 4 ? 'ipv4' : 'ipv6';
      if (bits === undefined) ranges.addAddress(address!, type);
      else ranges.addSubnet(address!, Number(bits), type);
    } else hosts.add(entry);
  }
  return { hosts, ranges };
}

/** Whether an address (v4 or v6, IPv4-mapped included) may be connected to. */
export function addressAllowed(address: string, allow: AllowList): boolean {
  const a = bare(address);
  const family = isIP(a);
  if (!family) return false;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (allow.ranges.check(a, type)) return true;
  return !internal.check(a, type);
}

export type UrlVerdict = { ok: true } | { ok: false; reason: string };

const lookupAll = (host: string) =>
  new Promise<LookupAddress[]>((resolve, reject) =>
    dnsLookup(host, { all: true, verbatim: true }, (err, addresses) =>
      err ? reject(err) : resolve(addresses),
    ),
  );

/**
 * Checks a URL before it is stored or used: http(s), and a host that is an allowed public address, resolves only to
 * such addresses, or is listed. A name that does not resolve is refused.
 */
export async function checkUrl(raw: string, allow: AllowList): Promise<UrlVerdict> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'is not a URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return { ok: false, reason: 'must be http or https' };
  if (url.username || url.password) return { ok: false, reason: 'may not carry a user name or password' };
  const host = bare(url.hostname);
  if (allow.hosts.has(host)) return { ok: true };
  if (isIP(host))
    return addressAllowed(host, allow)
      ? { ok: true }
      : { ok: false, reason: `points at an internal address (${host})` };
  let addresses: LookupAddress[];
  try {
    addresses = await lookupAll(host);
  } catch {
    return { ok: false, reason: `host ${host} does not resolve` };
  }
  const bad = addresses.find((a) => !addressAllowed(a.address, allow));
  if (bad || !addresses.length)
    return { ok: false, reason: `host ${host} resolves to an internal address (${bad?.address ?? 'none'})` };
  return { ok: true };
}

export interface PostResult {
  /** The HTTP status, null when no answer came. */
  statusCode: number | null;
  /** A short reason when it did not succeed (never the answer's body). */
  error: string | null;
}

/**
 * POSTs `body` to `url` and answers its status; 2xx is success, a redirect is not followed (a failure), and no
 * answer within `timeoutMs` is a failure. The answer's body is read and dropped.
 */
export async function postJson(
  raw: string,
  body: string,
  headers: Record<string, string>,
  allow: AllowList,
  timeoutMs: number,
): Promise<PostResult> {
  const verdict = await checkUrl(raw, allow);
  if (!verdict.ok) return { statusCode: null, error: `refused: the URL ${verdict.reason}` };
  const url = new URL(raw);
  const listed = allow.hosts.has(bare(url.hostname));
  const client = url.protocol === 'https:' ? https : http;
  // Every address the connection may use is checked again here, after resolution.
  const lookup = (
    hostname: string,
    options: { family?: number | string; all?: boolean },
    callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    const family =
      options.family === 'IPv6' ? 6 : options.family === 'IPv4' ? 4 : Number(options.family ?? 0);
    dnsLookup(hostname, { all: true, family: family === 4 || family === 6 ? family : 0 }, (err, list) => {
      if (err) return callback(err, '', 0);
      const ok = list.filter((a) => listed || addressAllowed(a.address, allow));
      if (!ok.length) {
        const refused: NodeJS.ErrnoException = new Error(
          `refused: ${hostname} resolves to an internal address`,
        );
        refused.code = 'EREFUSED_INTERNAL';
        return callback(refused, '', 0);
      }
      if (options.all) return callback(null, ok);
      return callback(null, ok[0]!.address, ok[0]!.family);
    });
  };
  return new Promise<PostResult>((resolve) => {
    let settled = false;
    const done = (r: PostResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(r);
    };
    const req = client.request(
      url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          ...headers,
        },
        lookup: lookup as unknown as http.RequestOptions['lookup'],
        agent: false,
      },
      (res) => {
        res.resume();
        const code = res.statusCode ?? null;
        if (code !== null && code >= 200 && code < 300) done({ statusCode: code, error: null });
        else if (code !== null && code >= 300 && code < 400)
          done({ statusCode: code, error: `answered ${code}: redirects are not followed` });
        else done({ statusCode: code, error: `answered ${code ?? 'nothing'}` });
      },
    );
    const timer = setTimeout(() => {
      req.destroy();
      done({ statusCode: null, error: `no answer within ${Math.round(timeoutMs / 100) / 10} s` });
    }, timeoutMs);
    req.on('error', (err: NodeJS.ErrnoException) => {
      const message = err.message.startsWith('refused:')
        ? err.message
        : `${err.code ?? 'error'}: ${err.message}`;
      done({ statusCode: null, error: message.slice(0, 200) });
    });
    req.end(body);
  });
}
