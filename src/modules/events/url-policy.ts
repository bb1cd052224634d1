/**
 * Which URLs an endpoint may have, and which addresses a delivery may connect to (README
 * "Endpoint URLs and SSRF"). Pure but for `guardedLookup`, which resolves names with the system
 * resolver and refuses the blocked addresses at connection time (a name that resolves to a private
 * address later, DNS rebinding, is refused too).
 */
import dns from 'node:dns';
import net from 'node:net';

export const MAX_URL_LENGTH = 2000;

/** Loopback, private, link-local, shared, documentation, benchmarking, multicast and reserved ranges (RFC 6890 and its IPv6 peers). */
const blocked = new net.BlockList();
for (const [prefix, bits] of [
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
] as const)
  blocked.addSubnet(prefix, bits, 'ipv4');
for (const [prefix, bits] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  blocked.addSubnet(prefix, bits, 'ipv6');

/** True when a delivery in production may not connect to this address. */
export function isBlockedAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family !== 6) return true;
  // An IPv4-mapped IPv6 address (::ffff:10.0.0.1) is the IPv4 address.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return blocked.check(mapped[1]!, 'ipv4');
  return blocked.check(address, 'ipv6');
}

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Why `raw` cannot be an endpoint's URL, or null when it can. Everywhere: an absolute http(s) URL
 * without user name or password, at most 2000 characters. https only, except http to localhost,
 * 127.0.0.1 or [::1] outside production (a receiver on the developer's machine). In production, no
 * host that is a blocked address literal or a name under `localhost`.
 */
export function urlProblem(raw: string, production: boolean): string | null {
  if (raw.length > MAX_URL_LENGTH) return `url must be at most ${MAX_URL_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'url must be an absolute URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'url must be an https URL';
  if (url.username !== '' || url.password !== '') return 'url must not carry a user name or password';
  const host = url.hostname.toLowerCase();
  const local = LOCAL_HOSTS.has(host);
  if (url.protocol === 'http:' && (production || !local)) {
    return production ? 'url must be an https URL' : 'url must be an https URL (http only to localhost or 127.0.0.1)';
  }
  if (production) {
    const literal = host.startsWith('[') ? host.slice(1, -1) : host;
    if (host === 'localhost' || host.endsWith('.localhost') || (net.isIP(literal) !== 0 && isBlockedAddress(literal))) {
      return 'url must not point to a private, loopback or reserved address';
    }
  }
  return null;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

/**
 * A `lookup` for http.request that resolves as the system does and fails when any address the
 * name resolves to is blocked: the connection is made to a checked address only.
 */
export function guardedLookup(hostname: string, options: dns.LookupOptions, callback: LookupCallback): void {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, []);
    const list = addresses as dns.LookupAddress[];
    const bad = list.find((a) => isBlockedAddress(a.address));
    if (bad || list.length === 0) {
      const refused = Object.assign(new Error(`${hostname} resolves to ${bad?.address ?? 'no address'}, which deliveries may not reach`), {
        code: 'EADDRBLOCKED',
      });
      return callback(refused, []);
    }
    if (options.all) return callback(null, list);
    return callback(null, list[0]!.address, list[0]!.family);
  });
}
