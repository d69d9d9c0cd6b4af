/**
 * Host names that point at this machine or a private network: loopback, RFC 1918 and unique-local ranges,
 * link-local (cloud metadata services live at 169.254.169.254), `localhost` and the unspecified address. A download
 * that starts at a public host is never redirected to one of these (docs/security.md, model downloads).
 */
import dns from 'node:dns';
import { isIP } from 'node:net';

export function isPrivateHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  const kind = isIP(host);
  if (kind === 4) return isPrivateIpv4(host);
  if (kind === 6) return isPrivateIpv6(host);
  return false;
}

function isPrivateIpv4(address: string): boolean {
  const [a, b] = address.split('.').map(Number) as [number, number, number, number];
  return (
    a === 0 || // this network
    a === 10 ||
    a === 127 ||
    (a === 100 && b >= 64 && b <= 127) || // carrier-grade NAT
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168)
  );
}

function isPrivateIpv6(address: string): boolean {
  if (address === '::' || address === '::1') return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (mapped) return isPrivateIpv4(mapped[1]!);
  const first = parseInt(address.split(':')[0] || '0', 16);
  return (first & 0xfe00) === 0xfc00 /* unique local fc00::/7 */ || (first & 0xffc0) === 0xfe80 /* link-local fe80::/10 */;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[] | string, family?: number) => void;

/**
 * A `lookup` for connections that must reach public hosts only: a name that resolves to a private or loopback
 * address fails the connection (a public host name pointed at 127.0.0.1 is the classic way around a literal check).
 */
export function publicOnlyLookup(hostname: string, options: dns.LookupOptions, callback: LookupCallback): void {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, '', 0);
    const list = addresses;
    const refused = list.find((a) => isPrivateHost(a.address));
    if (refused) {
      const error: NodeJS.ErrnoException = new Error(`${hostname} resolves to ${refused.address}, an address on this machine or its private network`);
      error.code = 'EPRIVATEADDRESS';
      return callback(error, '', 0);
    }
    if (options.all) return callback(null, list);
    const first = list[0]!;
    callback(null, first.address, first.family);
  });
}
