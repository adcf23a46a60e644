import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * Loopback, private, shared, link-local (cloud metadata 169.254.169.254), multicast and reserved;
 * in IPv6 also every form that carries or translates to an IPv4 address (compatible, SIIT, NAT64,
 * 6to4, Teredo), since where it leads depends on the network's gateways.
 */
const refused = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const) {
  refused.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  // ::, ::1 and the deprecated IPv4-compatible addresses (::127.0.0.1 reaches loopback).
  ['::', 96],
  // SIIT-translated IPv4 (RFC 2765, ::ffff:0:a.b.c.d); IPv4-mapped ::ffff:a.b.c.d is checked as IPv4.
  ['::ffff:0:0:0', 96],
  ['fc00::', 7], // unique local, includes AWS's fd00:ec2::254 metadata address
  ['fe80::', 10],
  ['fec0::', 10], // site-local (deprecated, still routed inside some networks)
  ['ff00::', 8],
  // NAT64 gateways translate these to IPv4: the well-known prefix and the local-use one (RFC 8215).
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  // Tunnels with an IPv4 address inside: 6to4 (2002:a.b.c.d::/48) and Teredo.
  ['2002::', 16],
  ['2001::', 32],
] as const) {
  refused.addSubnet(network, prefix, 'ipv6');
}

export function isRefusedAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return refused.check(mapped[1]!, 'ipv4');
  return refused.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');
}

export class TargetRefused extends Error {
  constructor(host: string, address: string) {
    super(`target ${host} resolves to ${address}, a loopback, private or link-local address`);
    this.name = 'TargetRefused';
  }
}

export interface ResolvedTarget {
  address: string;
  family: 4 | 6;
}

/**
 * Resolves the target's host once. Every address it has must be public (unless allowed): a name
 * with one private address among public ones is refused, so no retry can land on the private one.
 * The attempt then connects to this address only (send-attempt.ts), never resolving again.
 */
export async function resolveTarget(url: URL, allowPrivate: boolean): Promise<ResolvedTarget> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(host)
    ? [{ address: host, family: isIP(host) }]
    : await lookup(host, { all: true, verbatim: true });
  if (addresses.length === 0) throw new Error(`${host} has no address`);
  if (!allowPrivate) {
    const bad = addresses.find((entry) => isRefusedAddress(entry.address));
    if (bad) throw new TargetRefused(host, bad.address);
  }
  const first = addresses[0]!;
  return { address: first.address, family: first.family === 6 ? 6 : 4 };
}
