/** Routes and DNS: captured /proc/net/route, /proc/net/ipv6_route and resolv.conf. */
import { describe, expect, it } from 'vitest';
import { networkSummary, parseIpv6Route, parseResolvConf, parseRoute } from '../../../adapter/inventory/network.js';

const ROUTE = `Iface	Destination	Gateway 	Flags	RefCnt	Use	Metric	Mask		MTU	Window	IRTT
eth0	00000000	010200C0	0003	0	0	0	00000000	0	0	0
eth0	000200C0	00000000	0001	0	0	0	00FFFFFF	0	0	0
`;
const IPV6_ROUTE = `fe800000000000000000000000000000 40 00000000000000000000000000000000 00 00000000000000000000000000000000 00000100 00000002 00000000 00000001     eth0
00000000000000000000000000000000 00 00000000000000000000000000000000 00 fd000000000000000000000000000001 00000400 00000003 00000000 00000003     eth0
00000000000000000000000000000000 00 00000000000000000000000000000000 00 00000000000000000000000000000000 ffffffff 00000001 00000000 00200200       lo
`;

describe('routes and DNS', () => {
  it('finds the default IPv4 and IPv6 gateways', () => {
    expect(parseRoute(ROUTE, true)).toEqual([{ family: 4, gateway: '192.0.2.1', interface: 'eth0' }]);
    expect(parseIpv6Route(IPV6_ROUTE)).toEqual([{ family: 6, gateway: 'fd00::1', interface: 'eth0' }]);
  });

  it('reads nameserver lines only', () => {
    expect(parseResolvConf('# generated\nsearch lan\nnameserver 10.0.0.53\n  nameserver ::1\noptions edns0\n')).toEqual(['10.0.0.53', '::1']);
  });

  it('lists the loopback interface of this machine', async () => {
    const { value } = await networkSummary();
    expect(value.interfaces.some((i) => i.internal && i.addresses.some((a) => a.address === '127.0.0.1' || a.address === '::1'))).toBe(true);
  });
});
