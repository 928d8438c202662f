/**
 * The tray's server lifecycle with the real server modules: the saved config is loaded from
 * a temp file, a real HTTP server listens on loopback, and a real MCP client checks what is
 * (and is not) being served after each transition.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLocalAdapter } from '../../adapter/local-computer-adapter.js';
import type { ServerStatus } from '../../main/tray/bridge-api.js';
import { explainStartFailure } from '../../main/tray/config-file.js';
import { testConnection } from '../../main/tray/connection-test.js';
import { ServerLifecycle } from '../../main/tray/server-lifecycle.js';
import { loadConfig } from '../../main/config/load.js';
import { silentLogger } from '../../main/log.js';
import { startHttpServer } from '../../main/mcp/http.js';
import { createServerFactory, enabledTools } from '../../main/mcp/server.js';

const TOKEN = 'lifecycle-test-token-0123456789';

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('ServerLifecycle', () => {
  let dir: string;
  let file: string;
  let lifecycle: ServerLifecycle;
  let seen: ServerStatus['state'][];

  // Lifecycle, not auth, is under test: configs without a token serve without one.
  const writeConfig = (value: { server: Record<string, unknown> } & Record<string, unknown>) =>
    fs.writeFileSync(file, JSON.stringify(value.server.token ? value : { ...value, server: { auth: 'none', ...value.server } }));

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lifecycle-'));
    file = path.join(dir, 'config.json');
    const adapter = createLocalAdapter();
    lifecycle = new ServerLifecycle({
      loadConfig: () => loadConfig({ cli: { config: file }, env: {} }).config,
      listen: (config) => startHttpServer({ config, logger: silentLogger, factory: createServerFactory({ config, adapter, logger: silentLogger }) }),
      toolCount: (config) => enabledTools(config).length,
      explain: (error) => explainStartFailure(error, file),
    });
    seen = [];
    lifecycle.onChange((status) => seen.push(status.state));
  });

  afterEach(async () => {
    await lifecycle.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('starts with the saved config, pauses (nothing listens), resumes on the same address', async () => {
    const port = await freePort();
    writeConfig({ server: { port }, process: { list: true } });
    const started = await lifecycle.start();
    expect(started).toEqual({ state: 'running', url: `http://127.0.0.1:${port}/mcp`, toolCount: enabledTools(lifecycle.config!).length, auth: false });
    const first = await testConnection({ url: `http://127.0.0.1:${port}/mcp` });
    expect(first).toMatchObject({ ok: true, toolCount: started.state === 'running' ? started.toolCount : -1 });
    if (first.ok) expect(first.tools).toContain('process_list');

    expect(await lifecycle.pause()).toEqual({ state: 'paused', url: `http://127.0.0.1:${port}/mcp` });
    const paused = await testConnection({ url: `http://127.0.0.1:${port}/mcp`, timeoutMs: 2000 });
    expect(paused).toMatchObject({ ok: false, error: expect.stringContaining('Connection refused') });

    expect((await lifecycle.resume()).state).toBe('running');
    expect((await testConnection({ url: `http://127.0.0.1:${port}/mcp` })).ok).toBe(true);
    expect(seen).toEqual(['starting', 'running', 'paused', 'starting', 'running']);
  });

  it('resume keeps the config in effect; only restart reads the saved file again', async () => {
    const port = await freePort();
    writeConfig({ server: { port } });
    await lifecycle.start();
    await lifecycle.pause();
    writeConfig({ server: { port, token: TOKEN } });
    await lifecycle.resume();
    expect((await testConnection({ url: `http://127.0.0.1:${port}/mcp` })).ok).toBe(true);

    const restarted = await lifecycle.restart();
    expect(restarted).toMatchObject({ state: 'running', auth: true });
    const refused = await testConnection({ url: `http://127.0.0.1:${port}/mcp` });
    expect(refused).toMatchObject({ ok: false, error: expect.stringContaining('401') });
    expect((await testConnection({ url: `http://127.0.0.1:${port}/mcp`, token: TOKEN })).ok).toBe(true);
  });

  it('an invalid saved config does not start, and names the field', async () => {
    writeConfig({ server: { port: 99999 } });
    const status = await lifecycle.start();
    expect(status).toMatchObject({ state: 'error', field: ['server', 'port'] });
    if (status.state === 'error') expect(status.message).toContain(file);
    expect(lifecycle.config).toBeNull();
    expect(await lifecycle.pause()).toEqual(status);
    expect(await lifecycle.resume()).toEqual(status);
  });

  it('a port in use is an error at server.port, and a fixed file recovers with restart', async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as net.AddressInfo).port;
    try {
      writeConfig({ server: { port } });
      expect(await lifecycle.start()).toMatchObject({ state: 'error', field: ['server', 'port'], message: expect.stringContaining('already in use') });
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
    expect((await lifecycle.restart()).state).toBe('running');
  });

  it('serializes overlapping restarts: exactly one listener survives', async () => {
    writeConfig({ server: { port: 0 } });
    const results = await Promise.all([lifecycle.start(), lifecycle.restart(), lifecycle.restart(), lifecycle.restart()]);
    const urls = results.map((r) => (r.state === 'running' ? r.url : null));
    expect(urls.every(Boolean)).toBe(true);
    const last = urls.at(-1)!;
    expect((await testConnection({ url: last })).ok).toBe(true);
    for (const url of urls.slice(0, -1)) {
      if (url !== last) expect((await testConnection({ url: url!, timeoutMs: 2000 })).ok).toBe(false);
    }
    await lifecycle.stop();
    expect((await testConnection({ url: last, timeoutMs: 2000 })).ok).toBe(false);
    expect(lifecycle.status).toEqual({ state: 'stopped' });
  });
});
