import { isRefusedAddress, resolveTarget, TargetRefused } from '../src/sending/target-address.js';

describe('the addresses a webhook target may not resolve to', () => {
  // Each reaches loopback or a private network through an IPv6 form that embeds or translates
  // an IPv4 address, or is a range no public endpoint has.
  it.each([
    ['IPv4-compatible loopback (::/96)', '::7f00:1'],
    ['IPv4-compatible metadata address', '::169.254.169.254'],
    ['SIIT-translated loopback (::ffff:0:0/96)', '::ffff:0:7f00:1'],
    ['SIIT-translated private address', '::ffff:0:a00:1'],
    ['local-use NAT64 (64:ff9b:1::/48)', '64:ff9b:1::a00:1'],
    ['6to4 of loopback (2002::/16)', '2002:7f00:1::1'],
    ['6to4 of a private address', '2002:c0a8:101::1'],
    ['Teredo (2001::/32)', '2001:0:4136:e378:8000:63bf:80ff:fffe'],
    ['site-local (fec0::/10)', 'fec0::1'],
    ['site-local, top of the range', 'feff:ffff::1'],
    // Refused before these ranges were added, kept so.
    ['IPv4-mapped loopback', '::ffff:127.0.0.1'],
    ['well-known NAT64 (64:ff9b::/96)', '64:ff9b::7f00:1'],
    ['unique local', 'fd00:ec2::254'],
    ['link-local', 'fe80::1'],
    ['loopback', '::1'],
  ])('when the address is %s, then it is refused', (_kind, address) => {
    expect(isRefusedAddress(address)).toBe(true);
  });

  it.each([
    ['a public IPv4 address', '8.8.8.8'],
    ['a public IPv4 address, IPv4-mapped', '::ffff:8.8.8.8'],
    ['a public IPv6 address next to Teredo (2001:4860::/32)', '2001:4860:4860::8888'],
    ['a public IPv6 address', '2606:4700:4700::1111'],
  ])('when the address is %s, then it is allowed', (_kind, address) => {
    expect(isRefusedAddress(address)).toBe(false);
  });

  it.each([
    'http://[::127.0.0.1]/hook',
    'http://[::ffff:0:127.0.0.1]/hook',
    'https://[2002:7f00:1::1]/hook',
    'https://[fec0::1]:8443/hook',
  ])(
    'when the URL %s names such an address, then the target is refused before any request',
    async (url) => {
      await expect(resolveTarget(new URL(url), false)).rejects.toBeInstanceOf(TargetRefused);
    },
  );
});
