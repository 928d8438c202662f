/**
 * An upstream started at start that never answers `initialize` (until its startup timeout, a
 * minute here) does not hold the server's own `initialize`: hosts are answered after a few
 * seconds with the tools of the upstreams that did list, over stdio and HTTP; later requests are
 * not held again; and the server stops at once, not after the slow one's startup timeout.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectFront, connectStdioHost, FIXTURE, gatewayHome, nodeUpstream, type GatewayHome } from '../helpers/gateway.js';

let home: GatewayHome;
beforeAll(() => {
  home = gatewayHome();
  home.write({
    gateway: {
      servers: [
        nodeUpstream('quick', FIXTURE, { start: 'at-start' }),
        // Reads its input and never answers it.
        { name: 'slow', command: 'node', args: ['-e', 'process.stdin.resume()'], start: 'at-start', startupTimeoutMs: 60_000 },
      ],
    },
  });
});
afterAll(() => home?.remove());

describe('an upstream slow to start', () => {
  it('does not hold a stdio host: it is answered within seconds with the quick upstream tools', async () => {
    const began = Date.now();
    const host = await connectStdioHost(home);
    try {
      expect(Date.now() - began).toBeLessThan(20_000);
      const names = (await host.listTools()).tools.map((t) => t.name);
      expect(names).toContain('quick_noop');
      expect(names.some((n) => n.startsWith('slow_'))).toBe(false);
      expect((await host.callTool({ name: 'quick_noop', arguments: {} })).isError).toBeFalsy();
    } finally {
      const closing = Date.now();
      await host.close();
      expect(Date.now() - closing).toBeLessThan(10_000);
    }
  }, 45_000);

  it('does not hold an HTTP host either', async () => {
    const began = Date.now();
    const client = await connectFront('http modern', home);
    try {
      const names = (await client.listTools()).tools.map((t: { name: string }) => t.name);
      expect(Date.now() - began).toBeLessThan(20_000);
      // This test client shows names in the dotted style.
      expect(names).toContain('quick.noop');
      // Each HTTP request builds its server: the next one is not held for the grace again.
      const again = Date.now();
      await client.listTools();
      expect(Date.now() - again).toBeLessThan(2_000);
    } finally {
      const closing = Date.now();
      // SIGTERM, and the exit awaited.
      await client.close();
      expect(Date.now() - closing).toBeLessThan(10_000);
    }
  }, 45_000);
});
