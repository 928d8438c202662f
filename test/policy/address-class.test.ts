import { describe, expect, it } from 'vitest';
import { classifyAddress, parseIpv6 } from '../../main/policy/address-class.js';

const kind = (address: string) => classifyAddress(address).class;

describe('classifyAddress: IPv4', () => {
  it.each([
    ['8.8.8.8', 'public'],
    ['1.1.1.1', 'public'],
    ['93.184.216.34', 'public'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['100.64.0.1', 'shared'],
    ['100.127.255.255', 'shared'],
    ['100.128.0.1', 'public'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['169.254.0.1', 'link-local'],
    ['169.254.169.254', 'metadata'],
    ['169.254.170.2', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['192.0.0.192', 'metadata'],
    ['172.15.255.255', 'public'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['172.32.0.1', 'public'],
    ['192.0.0.8', 'reserved'],
    ['192.0.2.1', 'documentation'],
    ['192.88.99.1', 'tunnel'],
    ['192.168.1.1', 'private'],
    ['198.18.0.1', 'reserved'],
    ['198.19.255.255', 'reserved'],
    ['198.51.100.7', 'documentation'],
    ['203.0.113.9', 'documentation'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'broadcast'],
  ])('%s is %s', (address, expected) => {
    const verdict = classifyAddress(address);
    expect(verdict.class).toBe(expected);
    expect(verdict.allowed).toBe(expected === 'public');
    if (!verdict.allowed) expect(verdict.reason).toContain(verdict.address);
  });

  it.each([
    ['127.1', '127.0.0.1'],
    ['0x7f.0.0.1', '127.0.0.1'],
    ['0x7F000001', '127.0.0.1'],
    ['2130706433', '127.0.0.1'],
    ['0177.0.0.1', '127.0.0.1'],
    ['017700000001', '127.0.0.1'],
    ['0', '0.0.0.0'],
    ['169.254.43518', '169.254.169.254'],
    ['0xa9.0xfe.0xa9.0xfe', '169.254.169.254'],
    ['2852039166', '169.254.169.254'],
    ['10.1', '10.0.0.1'],
    ['192.168.257', '192.168.1.1'],
    ['[127.0.0.1]', '127.0.0.1'],
    [' 127.0.0.1 ', '127.0.0.1'],
  ])('reads the odd spelling %s as %s and refuses it', (spelling, canonical) => {
    const verdict = classifyAddress(spelling);
    expect(verdict.address).toBe(canonical);
    expect(verdict.allowed).toBe(false);
  });

  it('refuses what is not an address, and out-of-range parts', () => {
    for (const bad of ['', 'localhost', 'example.com', '256.0.0.1', '1.2.3.4.5', '1..2.3', '08.0.0.1', '4294967296', '1.2.3.256', '1.2.65536', 'ffff']) {
      expect(classifyAddress(bad), bad).toMatchObject({ allowed: false, class: 'invalid' });
    }
    expect(classifyAddress('0x')).toMatchObject({ address: '0.0.0.0', class: 'unspecified' }); // "0x" alone is 0 to inet_aton
  });
});

describe('classifyAddress: IPv6', () => {
  it.each([
    ['2606:4700:4700::1111', 'public'],
    ['2001:4860:4860::8888', 'public'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['febf::1', 'link-local'],
    ['fec0::1', 'private'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['fd00:ec2::254', 'metadata'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'documentation'],
    ['2001:0::1', 'tunnel'],
    ['100::1', 'reserved'],
    ['64:ff9b:1::1', 'private'],
    ['4000::1', 'reserved'],
    ['[::1]', 'loopback'],
  ])('%s is %s', (address, expected) => {
    expect(kind(address)).toBe(expected);
    expect(classifyAddress(address).allowed).toBe(expected === 'public');
  });

  it.each([
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::FFFF:169.254.169.254', 'metadata'],
    ['::ffff:10.0.0.1', 'private'],
    ['::127.0.0.1', 'loopback'],
    ['0:0:0:0:0:ffff:c0a8:101', 'private'],
    ['64:ff9b::169.254.169.254', 'metadata'],
    ['64:ff9b::7f00:1', 'loopback'],
    ['2002:7f00:1::', 'loopback'],
    ['2002:a9fe:a9fe::1', 'metadata'],
  ])('IPv4 inside IPv6: %s is judged as the IPv4 it reaches (%s)', (address, expected) => {
    const verdict = classifyAddress(address);
    expect(verdict).toMatchObject({ allowed: false, class: expected });
    expect(verdict.reason).toMatch(/reaches \d+\.\d+\.\d+\.\d+/);
  });

  it('allows IPv4 inside IPv6 when that IPv4 is public', () => {
    expect(classifyAddress('::ffff:8.8.8.8')).toMatchObject({ allowed: true, class: 'public' });
    expect(classifyAddress('2002:808:808::1')).toMatchObject({ allowed: true, class: 'public' });
  });

  it('parses the forms and refuses malformed ones', () => {
    expect(parseIpv6('1::')).toEqual([1, 0, 0, 0, 0, 0, 0, 0]);
    expect(parseIpv6('::ffff:1.2.3.4')).toEqual([0, 0, 0, 0, 0, 0xffff, 0x102, 0x304]);
    expect(parseIpv6('1:2:3:4:5:6:7:8')).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    for (const bad of [
      '1:2:3:4:5:6:7',
      '1:2:3:4:5:6:7:8:9',
      '1::2::3',
      '12345::',
      ':::',
      'g::1',
      '::1.2.3',
      '::1.2.3.4:5',
      '1:2:3:4:5:6:7::8:9',
      '::256.1.1.1',
    ]) {
      expect(classifyAddress(bad), bad).toMatchObject({ allowed: false, class: 'invalid' });
    }
  });
});
