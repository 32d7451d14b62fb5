import { isIPv4, isIPv6 } from 'node:net';

/**
 * The key a client address is counted under for the per-address cap of live streams: an IPv4 address as is (an
 * IPv4-mapped IPv6 one too), an IPv6 address by its /64 prefix (one subscriber is commonly given a whole /64, so
 * counting each address apart would cap nobody). Anything else (no address: a closed socket) counts as itself.
 */
export function addressKey(ip: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (mapped && isIPv4(mapped[1])) return mapped[1];
  const zoneless = ip.split('%')[0];
  if (!isIPv6(zoneless)) return ip;
  const [head, tail = ''] = zoneless.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  // An embedded IPv4 tail (::1.2.3.4) counts as two groups; only the first four groups matter here.
  const right = tail ? tail.split(':') : [];
  const groups = zoneless.includes('::')
    ? [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((g) => Number.parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}
