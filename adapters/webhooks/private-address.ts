import net from 'node:net';

/**
 * Addresses a webhook must not reach (unless WEBHOOK_ALLOW_PRIVATE_URLS=true): loopback, private,
 * link-local (cloud metadata services), carrier-grade NAT, unspecified, multicast, reserved and
 * documentation ranges, for IPv4 and IPv6, and every IPv6 form that carries an IPv4 address
 * inside it (IPv4-mapped, IPv4-compatible, 6to4, Teredo, NAT64), whatever that address is: such
 * an address can always lead to an internal IPv4 host through a translator.
 *
 * Two lists, because a net.BlockList compares IPv4 and IPv4-mapped IPv6 addresses as one: an
 * IPv6 rule such as ::ffff:0:0/96 would also match every IPv4 address.
 */
const blockedV4 = new net.BlockList();
for (const [address, prefix] of [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local: cloud metadata (169.254.169.254)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  blockedV4.addSubnet(address, prefix, 'ipv4');
}

const blockedV6 = new net.BlockList();
for (const [address, prefix] of [
  ['::', 96], // unspecified, loopback (::1) and IPv4-compatible ::a.b.c.d
  ['::ffff:0:0', 96], // IPv4-mapped ::ffff:a.b.c.d
  ['::ffff:0:0:0', 96], // IPv4-translated (SIIT)
  ['64:ff9b::', 96], // NAT64 well-known prefix
  ['64:ff9b:1::', 48], // NAT64 local-use prefix
  ['100::', 64], // discard-only
  ['2001::', 32], // Teredo (an IPv4 server and client inside)
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4 (an IPv4 address inside)
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const) {
  blockedV6.addSubnet(address, prefix, 'ipv6');
}

/** True for an address a webhook must not reach, and for anything that is not an address. */
export function isPrivateAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return blockedV4.check(address, 'ipv4');
  if (family === 6) return blockedV6.check(address, 'ipv6');
  return true; // not an address at all: refuse
}

/** The host of a URL as an address or a name (IPv6 literals without their brackets). */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}
