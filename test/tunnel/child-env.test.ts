/** The tunnel client's environment and header lists: built from nothing, secrets only where they must be. */
import { describe, expect, it } from 'vitest';
import { AUTHORIZATION_VARIABLE, buildTunnelEnv, secretsOf } from '../../main/tunnel/child-env.js';
import { formatHeaderSpec, parseHeaderSpec, resolveHeaderSpec } from '../../main/tunnel/header-spec.js';

const base = {
  PATH: '/usr/bin',
  HOME: '/home/me',
  LANG: 'C.UTF-8',
  HTTPS_PROXY: 'http://proxy:3128',
  CHATGPT_MCP_TOKEN: 'server-token-from-env-0123456789',
  OPENAI_API_KEY: 'sk-other-key',
  AWS_SECRET_ACCESS_KEY: 'aws',
  NODE_OPTIONS: '--require evil.js',
  DISPLAY: ':0',
};

describe('tunnel client environment', () => {
  it('inherits only OS essentials and proxy settings, and adds the tunnel settings', () => {
    const env = buildTunnelEnv({
      base,
      tunnelId: 'tunnel_x',
      apiKey: 'sk-key',
      serverUrl: 'http://127.0.0.1:3210/mcp',
      token: 'tok-0123456789abcdef',
      healthListenAddr: '127.0.0.1:0',
      healthUrlFile: '/a/url',
    });
    expect(env).toEqual({
      PATH: '/usr/bin',
      HOME: '/home/me',
      LANG: 'C.UTF-8',
      HTTPS_PROXY: 'http://proxy:3128',
      CONTROL_PLANE_TUNNEL_ID: 'tunnel_x',
      CONTROL_PLANE_API_KEY: 'sk-key',
      MCP_SERVER_URL: 'http://127.0.0.1:3210/mcp',
      HEALTH_LISTEN_ADDR: '127.0.0.1:0',
      HEALTH_URL_FILE: '/a/url',
      LOG_FORMAT: 'json',
      LOG_LEVEL: 'info',
      [AUTHORIZATION_VARIABLE]: 'Bearer tok-0123456789abcdef',
      MCP_EXTRA_HEADERS: `Authorization: env:${AUTHORIZATION_VARIABLE}`,
      MCP_DISCOVERY_EXTRA_HEADERS: `Authorization: env:${AUTHORIZATION_VARIABLE}`,
    });
    expect(secretsOf(env)).toEqual(['sk-key', 'Bearer tok-0123456789abcdef', 'tok-0123456789abcdef']);
    expect(resolveHeaderSpec(env.MCP_EXTRA_HEADERS!, env)).toEqual({ authorization: 'Bearer tok-0123456789abcdef' });
  });

  it('sends no Authorization header when the server accepts no token', () => {
    const env = buildTunnelEnv({ base: {}, tunnelId: 't', apiKey: 'k', serverUrl: 'u', token: null, healthListenAddr: 'h', healthUrlFile: 'f' });
    expect(env.MCP_EXTRA_HEADERS).toBeUndefined();
    expect(env[AUTHORIZATION_VARIABLE]).toBeUndefined();
  });

  it('writes and reads the "Name: value, ..." lists with env: and file: references', () => {
    expect(
      formatHeaderSpec([
        { name: 'Authorization', value: 'env:A' },
        { name: 'X-Two', value: 'file:/run/two' },
      ]),
    ).toBe('Authorization: env:A, X-Two: file:/run/two');
    expect(() => formatHeaderSpec([{ name: 'Bad Name', value: 'x' }])).toThrow(/invalid header name/);
    expect(() => formatHeaderSpec([{ name: 'X', value: 'a,b' }])).toThrow(/comma/);
    expect(parseHeaderSpec(' A: 1 ,, B: env:C ')).toEqual([
      { name: 'A', value: '1' },
      { name: 'B', value: 'env:C' },
    ]);
    expect(() => parseHeaderSpec('novalue')).toThrow(/not "Name: value"/);
    expect(resolveHeaderSpec('A: env:C, B: file:/x, C: literal', { C: 'from-env' }, () => ' from-file\n')).toEqual({
      a: 'from-env',
      b: 'from-file',
      c: 'literal',
    });
    expect(() => resolveHeaderSpec('A: env:MISSING', {})).toThrow(/MISSING, which is not set/);
  });
});
