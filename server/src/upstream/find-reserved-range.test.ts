import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findReservedRange, parseAddress } from './find-reserved-range.ts';

describe('findReservedRange', () => {
  it('refuses every special-purpose IPv4 range, at both ends', () => {
    const reserved: [string, string][] = [
      ['0.0.0.0', '"this network"'],
      ['0.255.255.255', '"this network"'],
      ['10.1.2.3', 'private'],
      ['100.64.0.1', 'shared address space (carrier-grade NAT)'],
      ['100.127.255.254', 'shared address space (carrier-grade NAT)'],
      ['127.0.0.1', 'loopback'],
      ['127.255.255.255', 'loopback'],
      ['169.254.169.254', 'link-local'],
      ['172.16.0.1', 'private'],
      ['172.31.255.255', 'private'],
      ['192.0.0.8', 'IETF protocol assignments'],
      ['192.0.2.10', 'documentation'],
      ['192.168.1.1', 'private'],
      ['198.18.0.1', 'benchmarking'],
      ['198.19.255.255', 'benchmarking'],
      ['198.51.100.7', 'documentation'],
      ['203.0.113.9', 'documentation'],
      ['224.0.0.1', 'multicast'],
      ['239.255.255.250', 'multicast'],
      ['240.0.0.1', 'reserved'],
      ['255.255.255.255', 'reserved'],
    ];
    for (const [address, range] of reserved) assert.equal(findReservedRange(address), range, address);
  });

  it('accepts public IPv4 addresses next to the reserved ranges', () => {
    for (const address of [
      '1.1.1.1',
      '8.8.8.8',
      '9.255.255.255',
      '11.0.0.0',
      '100.63.255.255',
      '100.128.0.0',
      '172.15.255.255',
      '172.32.0.0',
      '198.17.255.255',
      '198.20.0.0',
      '223.255.255.255',
      '104.18.6.192',
    ]) {
      assert.equal(findReservedRange(address), undefined, address);
    }
  });

  it('refuses IPv6 loopback, unspecified, unique-local, link-local, multicast and documentation', () => {
    const reserved: [string, string][] = [
      ['::1', 'loopback'],
      ['[::1]', 'loopback'],
      ['::', 'unspecified'],
      ['fc00::1', 'unique local'],
      ['fd12:3456:789a::1', 'unique local'],
      ['fe80::1', 'link-local'],
      ['fe80::1%eth0', 'link-local'],
      ['febf:ffff::1', 'link-local'],
      ['fec0::1', 'site-local (deprecated)'],
      ['ff02::1', 'multicast'],
      ['2001:db8::1', 'documentation'],
      ['2001::1', 'IETF protocol assignments'],
      ['64:ff9b:1::1', 'local-use IPv4/IPv6 translation'],
      ['100::1', 'discard-only'],
      ['::7f00:1', 'IPv4-compatible (deprecated)'],
      ['4000::1', 'reserved'],
    ];
    for (const [address, range] of reserved) assert.equal(findReservedRange(address), range, address);
  });

  it('judges IPv4-mapped, NAT64 and 6to4 addresses by the IPv4 address they carry', () => {
    assert.equal(findReservedRange('::ffff:127.0.0.1'), 'loopback');
    assert.equal(findReservedRange('::ffff:7f00:1'), 'loopback', 'the URL parser writes it in hex');
    assert.equal(findReservedRange('::ffff:10.0.0.1'), 'private');
    assert.equal(findReservedRange('::ffff:169.254.169.254'), 'link-local');
    assert.equal(findReservedRange('64:ff9b::192.168.0.1'), 'private');
    assert.equal(findReservedRange('2002:c0a8:0101::1'), 'private', '6to4 of 192.168.1.1');
    assert.equal(findReservedRange('::ffff:8.8.8.8'), undefined);
    assert.equal(findReservedRange('64:ff9b::8.8.8.8'), undefined);
    assert.equal(findReservedRange('2002:0808:0808::1'), undefined);
  });

  it('accepts public IPv6 addresses', () => {
    for (const address of ['2606:4700::6810:6c0', '2a00:1450:4001:80b::200e', '2001:4860:4860::8888']) {
      assert.equal(findReservedRange(address), undefined, address);
    }
  });

  it('is not fooled by text that is not an address', () => {
    assert.equal(findReservedRange('localhost'), 'not an IP address');
    assert.equal(findReservedRange('127.0.0.1.nip.io'), 'not an IP address');
    assert.equal(parseAddress('example.com'), undefined);
    assert.deepEqual(parseAddress('::ffff:1.2.3.4'), [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 255, 255, 1, 2, 3, 4]);
    assert.deepEqual(parseAddress('1:2:3:4:5:6:7:8')?.slice(0, 4), [0, 1, 0, 2]);
  });
});
