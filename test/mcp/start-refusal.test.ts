import { describe, expect, it } from 'vitest';
import { httpStartRefusal } from '../../main/mcp/start-refusal.js';

const base = { host: '127.0.0.1', port: 8765, allowNonLoopback: false, allowedHosts: [] as string[], publicUrl: '', auth: 'bearer' as const };

describe('httpStartRefusal', () => {
  it('accepts the defaults and OAuth with one public host', () => {
    expect(httpStartRefusal(base)).toBeNull();
    expect(httpStartRefusal({ ...base, auth: 'oauth', allowedHosts: ['abc.trycloudflare.com'] })).toBeNull();
    expect(httpStartRefusal({ ...base, auth: 'oauth' })).toBeNull(); // loopback clients: the loopback origin
  });

  it('refuses, in order: the bind address, an open tunnel, OAuth without one public URL', () => {
    expect(httpStartRefusal({ ...base, host: '0.0.0.0' })?.reason).toBe('not-loopback');
    expect(httpStartRefusal({ ...base, auth: 'none', allowedHosts: ['abc.trycloudflare.com'] })).toMatchObject({
      reason: 'open-tunnel',
      message: expect.stringContaining('abc.trycloudflare.com'),
    });
    expect(httpStartRefusal({ ...base, auth: 'bearer+oauth', allowedHosts: ['a.example.com', 'b.example.com'] })).toMatchObject({
      reason: 'no-public-url',
      message: expect.stringContaining('server.publicUrl'),
    });
    expect(httpStartRefusal({ ...base, auth: 'oauth', host: '0.0.0.0', allowNonLoopback: true })?.reason).toBe('no-public-url');
    // Bearer alone needs no public URL.
    expect(httpStartRefusal({ ...base, allowedHosts: ['a.example.com', 'b.example.com'] })).toBeNull();
  });
});
