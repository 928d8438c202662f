/**
 * Attacks from inside an upstream (the fixture server probing its world, running in the real
 * bubblewrap sandbox the gateway plans): outside its folders it reads and writes nothing, even
 * when it was granted a folder that holds the server's config and token; with the network off it
 * cannot reach a loopback listener; its environment holds only what its entry declares, and a
 * secret it was given by reference comes back redacted. A filesystem server launched on a wider
 * folder is held to the granted one by the path check too, with the built-in tools' words.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { sandboxSupport } from '../../adapter/process/sandbox/support.js';
import { abstractSocketScope } from '../../adapter/process/start-child.js';
import { connectModernHttp, type TestClient } from '../helpers/clients.js';
import { FILESYSTEM, FIXTURE, gatewayHome, nodeUpstream, texts, type GatewayHome } from '../helpers/gateway.js';
import { startCliHttp } from '../helpers/servers.js';

const usable = process.platform === 'linux' && sandboxSupport('linux', process.env).usable;
const required = process.env.REQUIRE_DESKTOP_TESTS === '1' && process.platform === 'linux';
if (!usable && process.platform === 'linux' && !required) console.warn('\n*** SKIPPING the gateway sandbox tests: bwrap cannot run here. ***\n');

const SECRET = 'sk-test-abcdefghijklmnopqrstuvwxyz012345';
let home: GatewayHome;
let client: TestClient;
let stop: () => void;
/** A v1 client too, for resources and prompts. */
let host: Client;
let listener: net.Server;
let port: number;
/** An abstract Unix socket, as the X server has one (@/tmp/.X11-unix/X0): outside every network namespace but the host's. */
let display: net.Server;
const ABSTRACT = `chatgpt-mcp-test-display-${process.pid}`;

beforeAll(async () => {
  if (!usable && !required) return;
  home = gatewayHome();
  fs.writeFileSync(path.join(home.home, 'outside.txt'), 'not for upstreams\n');
  fs.writeFileSync(path.join(home.data, 'inside.txt'), 'for upstreams\n');
  home.storeSecrets({ 'probe/API_KEY': SECRET });
  home.write({
    server: { auth: 'bearer' },
    gateway: {
      servers: [
        nodeUpstream('narrow', FIXTURE, { folders: [home.data], env: { DECLARED: 'yes', API_KEY: { secret: 'probe/API_KEY' }, FIXTURE_ECHO_ENV: 'API_KEY' } }),
        // Granted the whole temp home, which holds the config file and the app folder with the token.
        nodeUpstream('wide', FIXTURE, { folders: [home.home] }),
        nodeUpstream('online', FIXTURE, { folders: [home.data], network: true }),
        { ...nodeUpstream('files', FILESYSTEM), prefix: 'fsx', args: [FILESYSTEM, home.home], folders: [{ path: home.data, readOnly: true }] },
      ],
    },
  });
  listener = net.createServer((socket) => socket.end());
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  port = (listener.address() as net.AddressInfo).port;
  display = net.createServer((socket) => socket.end());
  await new Promise<void>((resolve) => display.listen(`\0${ABSTRACT}`, resolve));
  const server = await startCliHttp(['--config', home.configFile], { ...home.env, GATEWAY_TEST_MARKER: 'server-only' });
  stop = () => server.child.kill('SIGTERM');
  const token = fs.readFileSync(path.join(home.appDir, 'token'), 'utf8').trim();
  client = await connectModernHttp(server.url, token);
  host = new Client({ name: 'gateway-sandbox', version: '1.0.0' });
  await host.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
});

afterAll(async () => {
  await client?.close();
  await host?.close();
  stop?.();
  listener?.close();
  display?.close();
  home?.remove();
});

const call = async (name: string, args: Record<string, unknown> = {}) => {
  const result = await client.callTool({ name, arguments: args });
  return { text: texts(result), isError: result.isError === true };
};

describe.skipIf(!usable && !required)('an upstream in its sandbox', () => {
  it('reads and writes its folder, and nothing outside it', async () => {
    expect(await call('narrow_read', { what: path.join(home.data, 'inside.txt') })).toEqual({ text: 'for upstreams\n', isError: false });
    expect((await call('narrow_write', { what: path.join(home.data, 'new.txt'), content: 'x' })).isError).toBe(false);
    expect(fs.readFileSync(path.join(home.data, 'new.txt'), 'utf8')).toBe('x');

    const outside = await call('narrow_read', { what: path.join(home.home, 'outside.txt') });
    expect(outside).toMatchObject({ isError: true, text: expect.stringMatching(/^cannot read: (ENOENT|EACCES)/) });
    // Outside its folders a write fails or lands in its private temp folder: never in the real one.
    await call('narrow_write', { what: path.join(home.home, 'planted.txt'), content: 'x' });
    expect(fs.existsSync(path.join(home.home, 'planted.txt'))).toBe(false);
    // Nor the owner's real home.
    const real = process.env.HOME ? await call('narrow_read', { what: path.join(process.env.HOME, '.bashrc') }) : { isError: true, text: '' };
    expect(real.text).not.toMatch(/PS1|alias|export/);
  });

  it("cannot read the server's token or config, even in a folder it was granted", async () => {
    const token = fs.readFileSync(path.join(home.appDir, 'token'), 'utf8').trim();
    const tokenRead = await call('wide_read', { what: path.join(home.appDir, 'token') });
    expect(tokenRead.text).not.toContain(token);
    expect(tokenRead.text.replace(/^cannot read: \w+$/, '')).toBe('');
    const configRead = await call('wide_read', { what: home.configFile });
    expect(configRead.text).not.toContain('gateway');
    // Its own folder works.
    expect((await call('wide_read', { what: path.join(home.home, 'outside.txt') })).text).toBe('not for upstreams\n');
  });

  it('with the network off it cannot reach a loopback listener; with it on it can', async () => {
    expect((await call('narrow_connect', { port })).text).toMatch(/^failed: /);
    expect((await call('online_connect', { port })).text).toBe('connected');
  });

  it.skipIf(!abstractSocketScope())(
    'with the network on and the display off it cannot reach an abstract socket made outside (the X server has one)',
    async () => {
      expect((await call('narrow_connect', { abstract: ABSTRACT })).text).toMatch(/^failed: /);
      expect((await call('online_connect', { abstract: ABSTRACT })).text).toBe('failed: EPERM');
    },
  );

  it('its environment is what its entry declares, and a secret given by reference comes back redacted', async () => {
    const { text } = await call('narrow_env');
    const env = JSON.parse(text) as Record<string, string>;
    expect(env.DECLARED).toBe('yes');
    expect(env.API_KEY).toBe('<redacted>');
    expect(text).not.toContain(SECRET);
    expect(env.GATEWAY_TEST_MARKER).toBeUndefined();
    expect(Object.keys(env).sort()).toEqual(expect.arrayContaining(['API_KEY', 'DECLARED', 'HOME', 'PATH']));
    expect(Object.keys(env).filter((k) => !['API_KEY', 'DECLARED', 'FIXTURE_ECHO_ENV', 'HOME', 'PATH', 'TMPDIR', 'LANG', 'PWD'].includes(k))).toEqual([]);
  });

  it('a secret echoed in a resource, a prompt or their descriptions comes back redacted too', async () => {
    const read = await host.readResource({ uri: 'fixture://echo' });
    expect(read.contents).toEqual([{ uri: 'fixture://echo', text: 'API_KEY=<redacted>' }]);
    const prompt = await host.getPrompt({ name: 'narrow_echo', arguments: {} });
    expect(prompt.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'API_KEY=<redacted>' } }]);
    const listed = JSON.stringify([await host.listResources(), await host.listPrompts()]);
    expect(listed).toContain('Shows API_KEY=<redacted>.');
    expect(listed).toContain('Says API_KEY=<redacted>.');
    expect(listed).not.toContain(SECRET);
    const tool = (await host.listTools()).tools.find((t) => t.name === 'narrow_echo_config');
    expect(tool?.description).toBe('Configured with API_KEY=<redacted>.');
    // The pins file (what the owner accepted, and the lazy catalog) keeps what was shown, not the secret.
    const pins = fs.readFileSync(path.join(home.appDir, 'gateway-pins.json'), 'utf8');
    expect(pins).toContain('Configured with API_KEY=<redacted>.');
    expect(pins).toContain('Says API_KEY=<redacted>.');
    expect(pins).not.toContain(SECRET);
  });

  it('path arguments outside its folders are refused before the call, in the built-in words', async () => {
    const refused = await call('fsx_read_text_file', { path: path.join(home.home, 'outside.txt') });
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(/^PATH_NOT_ALLOWED: .*outside.txt.*outside the allowed roots \(.*data.*\)/);
    // A read-only folder: reading works, writing is refused.
    expect((await call('fsx_read_text_file', { path: path.join(home.data, 'inside.txt') })).text).toContain('for upstreams');
    const write = await call('fsx_write_file', { path: path.join(home.data, 'w.txt'), content: 'x' });
    expect(write).toMatchObject({ isError: true, text: expect.stringMatching(/^PATH_NOT_ALLOWED: /) });
    const dotdot = await call('fsx_read_text_file', { path: path.join(home.data, '..', 'outside.txt') });
    expect(dotdot.text).toMatch(/^PATH_NOT_ALLOWED: /);
  });
});
