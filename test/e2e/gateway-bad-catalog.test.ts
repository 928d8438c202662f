/**
 * An upstream that lists a resource template, resource or prompt the SDK cannot register (a
 * template with an unclosed `{`): only that item is left out. Before, it failed every session's
 * `initialize` (and stayed in the pins file's catalog across restarts), and a stdio server that
 * met it in its list refresh exited.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectStdioHost, gatewayHome, serveRaw, type GatewayHome } from '../helpers/gateway.js';
import { runCli } from '../helpers/servers.js';

const BAD = { uriTemplate: 'x://{a', name: 'bad' };
const GOOD = { uriTemplate: 'x://good/{a}', name: 'good' };
let home: GatewayHome;

const setUp = (lists: object) => serveRaw(home, lists);

beforeEach(() => {
  home = gatewayHome();
});
afterEach(() => home?.remove());

describe('an upstream listing what cannot be served', () => {
  it('leaves out only the bad items: sessions start, the rest is listed, and the pins file never keeps them', async () => {
    setUp({
      resourceTemplates: [BAD, GOOD],
      resources: [{ uri: 'x://ok', name: 'ok' }],
      prompts: [{ name: 'q' }],
    });
    const host = await connectStdioHost(home);
    try {
      expect((await host.callTool({ name: 'system_info', arguments: {} })).isError).toBeFalsy();
      expect((await host.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate)).toEqual(['x://good/{a}']);
      expect((await host.listResources()).resources.map((r) => r.uri)).toEqual(['x://ok']);
      expect((await host.listPrompts()).prompts.map((p) => p.name)).toEqual(['raw_q']);
    } finally {
      await host.close();
    }
    const pins = JSON.parse(fs.readFileSync(path.join(home.appDir, 'gateway-pins.json'), 'utf8'));
    expect(pins.servers.raw.catalog.resourceTemplates).toEqual([GOOD]);
  }, 60_000);

  it("a prompt or resource the SDK client's own parser refuses leaves out only that item, not the upstream's tools", async () => {
    setUp({
      prompts: [{ name: 'q' }, { name: 'nameless-argument', arguments: [{ description: 'no name' }] }],
      resources: [{ uri: 'x://ok', name: 'ok' }, { name: 'no-uri' }],
    });
    const host = await connectStdioHost(home);
    try {
      expect((await host.callTool({ name: 'raw_echo_env', arguments: {} })).isError).toBeFalsy();
      expect((await host.listPrompts()).prompts.map((p) => p.name)).toEqual(['raw_q']);
      expect((await host.listResources()).resources.map((r) => r.uri)).toEqual(['x://ok']);
    } finally {
      await host.close();
    }
  }, 60_000);

  it('a pins file already holding a bad template (an older version wrote it) does not fail sessions', async () => {
    setUp({ resourceTemplates: [GOOD] });
    (await connectStdioHost(home)).close();
    const file = path.join(home.appDir, 'gateway-pins.json');
    await expect.poll(() => fs.existsSync(file) && JSON.parse(fs.readFileSync(file, 'utf8')).servers.raw?.catalog !== undefined).toBe(true);
    const pins = JSON.parse(fs.readFileSync(file, 'utf8'));
    pins.servers.raw.catalog.resourceTemplates.push(BAD);
    fs.writeFileSync(file, JSON.stringify(pins), { mode: 0o600 });
    const host = await connectStdioHost(home);
    try {
      expect((await host.callTool({ name: 'system_info', arguments: {} })).isError).toBeFalsy();
      expect((await host.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate)).toEqual(['x://good/{a}']);
    } finally {
      await host.close();
    }
  }, 60_000);

  it('a stdio server whose upstream starts listing a bad template mid-session lives on', async () => {
    setUp({ resourceTemplates: [GOOD] });
    const host = await connectStdioHost(home);
    let closed = false;
    host.onclose = () => void (closed = true);
    try {
      expect((await host.listResourceTemplates()).resourceTemplates).toHaveLength(1);
      setUp({ resourceTemplates: [GOOD, BAD, { uriTemplate: 'x://new/{b}', name: 'new' }] });
      // The lazy upstream stopped after its first listing: this call starts it, and it lists the new ones.
      expect((await host.callTool({ name: 'raw_echo_env', arguments: {} })).isError).toBeFalsy();
      // The new template is held until the owner accepts it; the bad one is never listed.
      const list = () => runCli(['gateway', 'list', '--config', home.configFile], home.env, 30_000);
      await expect.poll(async () => (await list()).stderr, { timeout: 10_000, interval: 500 }).toContain('held: resource template "x://new/{b}" (new)');
      expect((await host.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate)).toEqual(['x://good/{a}']);
      expect((await runCli(['gateway', 'accept', 'raw', '--config', home.configFile], home.env, 30_000)).stderr).toContain(
        'accepted resource template "x://new/{b}"',
      );
      await expect
        .poll(async () => (await host.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate).sort(), { timeout: 10_000, interval: 500 })
        .toEqual(['x://good/{a}', 'x://new/{b}']);
      expect((await host.callTool({ name: 'system_info', arguments: {} })).isError).toBeFalsy();
      expect(closed).toBe(false);
    } finally {
      await host.close();
    }
  }, 60_000);
  it('a resource nested 3,000 deep is left out, and a pins file that kept one (an earlier version) is read without it', async () => {
    // A few KB on the wire; every walk of the listing overflowed the stack after it, for every host, after every restart (red team).
    let deep: unknown = 'x';
    for (let i = 0; i < 3000; i++) deep = [deep];
    const many = Array.from({ length: 600 }, (_, i) => ({ uri: `x://r${i}`, name: `r${i}` }));
    setUp({ resources: [{ uri: 'x://deep', name: 'deep', _meta: { x: deep } }, ...many] });
    const host = await connectStdioHost(home);
    try {
      expect((await host.callTool({ name: 'system_info', arguments: {} })).isError).toBeFalsy();
      const uris = (await host.listResources()).resources.map((r) => r.uri);
      // At most 512 resources are taken from one server.
      expect(uris).toHaveLength(512);
      expect(uris).not.toContain('x://deep');
    } finally {
      await host.close();
    }
    const file = path.join(home.appDir, 'gateway-pins.json');
    const pins = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(pins.servers.raw.catalog.resources).toHaveLength(512);
    pins.servers.raw.catalog.resources.unshift({ uri: 'x://deep', name: 'deep', _meta: { x: deep } });
    fs.writeFileSync(file, JSON.stringify(pins), { mode: 0o600 });
    // The upstream now sleeps (lazy): what is listed comes from the pins file.
    const again = await connectStdioHost(home);
    try {
      expect((await again.listTools()).tools.map((t) => t.name)).toContain('system_info');
      expect((await again.listResources()).resources.map((r) => r.uri)).not.toContain('x://deep');
    } finally {
      await again.close();
    }
  }, 60_000);
});
