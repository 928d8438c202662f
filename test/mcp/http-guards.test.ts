import { describe, expect, it } from 'vitest';
import {
  allowedHostnames,
  allowedOrigins,
  bearerMatches,
  bindRefusal,
  hostnameOf,
  isLoopbackHost,
  originAllowed,
  publicHostnames,
  tunnelRefusal,
} from '../../main/mcp/http-guards.js';

describe('isLoopbackHost', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.1.2.3', true],
    ['localhost', true],
    ['LOCALHOST', true],
    ['::1', true],
    ['[::1]', true],
    ['::ffff:127.0.0.1', true],
    ['0.0.0.0', false],
    ['::', false],
    ['192.168.1.10', false],
    ['10.0.0.1', false],
    ['localhost.evil.com', false],
    ['128.0.0.1', false],
    ['example.com', false],
  ])('%s -> %s', (host, expected) => expect(isLoopbackHost(host)).toBe(expected));
});

describe('hostnameOf', () => {
  it.each([
    ['127.0.0.1:3210', '127.0.0.1'],
    ['LOCALHOST', 'localhost'],
    ['[::1]:3210', '[::1]'],
    ['[::1]', '[::1]'],
    ['mcp.example.com', 'mcp.example.com'],
    ['', null],
    ['a:b:c', null],
    ['[::1]x', null],
    ['host:port', null],
    ['evil.com@127.0.0.1', null],
    ['127.0.0.1 ', '127.0.0.1'],
    ['a b', null],
    ['localhost:65535', 'localhost'],
    ['localhost:65536', null],
    ['[::1]:99999', null],
  ])('%j -> %j', (header, expected) => expect(hostnameOf(header)).toBe(expected));
});

describe('allowed hosts and origins', () => {
  it('allows the loopback names, a specific bind address, and configured extras (port stripped)', () => {
    expect([...allowedHostnames('127.0.0.2', ['Tunnel.Example.com:443'])].sort()).toEqual([
      '127.0.0.1',
      '127.0.0.2',
      '[::1]',
      'localhost',
      'tunnel.example.com',
    ]);
    expect(allowedHostnames('0.0.0.0', []).has('0.0.0.0')).toBe(false);
  });

  it('matches origins exactly on scheme, host and port', () => {
    const allowed = allowedOrigins(3210, ['https://chat.example.com/some/path']);
    expect(originAllowed(undefined, allowed)).toBe(true);
    expect(originAllowed('http://127.0.0.1:3210', allowed)).toBe(true);
    expect(originAllowed('http://localhost:3210', allowed)).toBe(true);
    expect(originAllowed('https://chat.example.com', allowed)).toBe(true);
    expect(originAllowed('http://chat.example.com', allowed)).toBe(false);
    expect(originAllowed('https://chat.example.com:8443', allowed)).toBe(false);
    expect(originAllowed('http://localhost:9999', allowed)).toBe(false);
    expect(originAllowed('null', allowed)).toBe(false);
    expect(originAllowed('chrome-extension://abc', allowed)).toBe(false);
  });
});

describe('bindRefusal', () => {
  it('allows loopback, refuses non-loopback unless allowed explicitly with a token', () => {
    expect(bindRefusal({ host: '127.0.0.1', allowNonLoopback: false, auth: 'none' })).toBeNull();
    expect(bindRefusal({ host: '::1', allowNonLoopback: false, auth: 'bearer' })).toBeNull();
    expect(bindRefusal({ host: '0.0.0.0', allowNonLoopback: false, auth: 'bearer' })?.message).toMatch(/allowNonLoopback/);
    expect(bindRefusal({ host: '192.168.1.2', allowNonLoopback: true, auth: 'none' })?.reason).toBe('open-beyond-loopback');
    expect(bindRefusal({ host: '0.0.0.0', allowNonLoopback: true, auth: 'bearer' })).toBeNull();
  });
});

describe('bearerMatches', () => {
  const token = 'abcdefghijklmnop0123';
  it.each([
    [`Bearer ${token}`, true],
    [`bearer ${token}`, true],
    [`Bearer  ${token}`, true],
    [undefined, false],
    ['', false],
    ['Bearer', false],
    [`Bearer ${token}x`, false],
    [`Bearer ${token.slice(1)}`, false],
    [`Basic ${token}`, false],
    [token, false],
    [`Bearer ${token} extra`, false],
  ])('%j -> %s', (header, expected) => expect(bearerMatches(header, token)).toBe(expected));
});

describe('tunnelRefusal', () => {
  const base = { allowedHosts: [] as string[], publicUrl: '' };
  it('refuses a public tunnel host (allowedHosts or publicUrl) with server.auth "none"', () => {
    expect(tunnelRefusal({ ...base, allowedHosts: ['calm-river.trycloudflare.com'], auth: 'none' })?.reason).toBe('open-tunnel');
    expect(tunnelRefusal({ ...base, publicUrl: 'https://x.ngrok-free.app', auth: 'none' })?.message).toMatch(/x\.ngrok-free\.app/);
  });
  it('allows loopback-only names with "none", and public hosts with any credential', () => {
    expect(tunnelRefusal({ ...base, allowedHosts: ['localhost', '127.0.0.5', '[::1]'], auth: 'none' })).toBeNull();
    for (const auth of ['bearer', 'oauth', 'bearer+oauth'] as const) {
      expect(tunnelRefusal({ ...base, allowedHosts: ['calm-river.trycloudflare.com'], auth })).toBeNull();
    }
  });
  it('lists public hostnames once, without ports, and accepts the publicUrl host as an allowed Host', () => {
    expect(publicHostnames({ allowedHosts: ['A.example.com:443', 'a.example.com', 'localhost'], publicUrl: 'https://b.example.com' })).toEqual([
      'a.example.com',
      'b.example.com',
    ]);
    expect(allowedHostnames('127.0.0.1', [], 'https://b.example.com').has('b.example.com')).toBe(true);
  });
});
