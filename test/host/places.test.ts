/** Which files the CLI protects from the tools, whatever config it runs with. */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { protectedPaths } from '../../main/host/places.js';

describe('protectedPaths', () => {
  const env = { HOME: '/home/alex', XDG_CONFIG_HOME: '/home/alex/.config' };

  it('holds the config in use and every folder of this app', () => {
    const paths = protectedPaths('/srv/mcp/config.json', env);
    expect(paths[0]).toBe('/srv/mcp/config.json');
    expect(paths).toContain(path.join('/home/alex/.config', 'chatgpt-mcp'));
  });

  it('also holds the file CHATGPT_MCP_CONFIG names when --config chose another', () => {
    const paths = protectedPaths('/srv/mcp/config.json', { ...env, CHATGPT_MCP_CONFIG: 'relative/tray.json' });
    expect(paths).toContain('/srv/mcp/config.json');
    expect(paths).toContain(path.resolve('relative/tray.json'));
    expect(protectedPaths('/srv/a.json', { ...env, CHATGPT_MCP_CONFIG: '/srv/a.json' }).filter((p) => p === '/srv/a.json')).toHaveLength(1);
  });
});
