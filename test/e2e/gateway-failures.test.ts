/**
 * Upstreams that fail (the fixture server's crash, hang and flood tools) while the front keeps
 * answering: a crash mid-call is an error naming the upstream and its last stderr line with the
 * credential in it redacted, and it restarts after its backoff; a hang ends at the call timeout;
 * a flood of stdout stops the upstream; the built-in tools answer throughout. Nothing is left
 * running after an idle stop, nor after SIGTERM to the server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectModernHttp, type TestClient } from '../helpers/clients.js';
import { FIXTURE, gatewayHome, nodeUpstream, texts, type GatewayHome } from '../helpers/gateway.js';
import { processesWith } from '../helpers/proc.js';
import { startCliHttp } from '../helpers/servers.js';

const linux = process.platform === 'linux';
let home: GatewayHome;
let client: TestClient;
let server: Awaited<ReturnType<typeof startCliHttp>>;

/** Each upstream's command line carries the temp home, so this file counts only its own processes. */
const ours = () => processesWith(home.home).filter((p) => p.commandLine.includes('gateway-upstream.mjs'));

beforeAll(async () => {
  home = gatewayHome();
  const marked = (name: string, extra = {}) => nodeUpstream(name, FIXTURE, { args: [FIXTURE, '--marker', home.home], folders: [home.data], ...extra });
  home.write({
    gateway: {
      servers: [marked('bad', { callTimeoutMs: 1500 }), marked('flooder'), marked('sleepy', { idleStopMs: 1000 }), marked('steady', { start: 'at-start' })],
    },
  });
  server = await startCliHttp(['--config', home.configFile], home.env);
  client = await connectModernHttp(server.url);
});

afterAll(async () => {
  await client?.close();
  server?.child.kill('SIGKILL');
  home?.remove();
});

const call = async (name: string, args: Record<string, unknown> = {}) => {
  const result = await client.callTool({ name, arguments: args });
  return { text: texts(result), isError: result.isError === true };
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(!linux)('upstreams that fail', () => {
  it('a crash mid-call names the upstream and its last stderr line, redacted; it restarts after its backoff', async () => {
    const crash = await call('bad_crash');
    expect(crash.isError).toBe(true);
    expect(crash.text).toMatch(/^OS_ERROR: bad exited during the call; its last stderr line: fatal: giving up, token=<redacted>$/);
    expect(crash.text).not.toContain('ghp_');
    const during = await call('bad_noop');
    expect(during.isError).toBe(true);
    expect(during.text).toMatch(/^PRECONDITION_FAILED: bad exited; its last stderr line: .*; it restarts in \d+ s$/);
    await sleep(1200);
    expect(await call('bad_noop')).toEqual({ text: 'ok', isError: false });
  });

  it('a call that never answers ends at callTimeoutMs, and every other tool answers meanwhile', async () => {
    const hang = call('bad_hang');
    const info = await call('system_info');
    expect(info.isError).toBe(false);
    expect(await call('steady_noop')).toEqual({ text: 'ok', isError: false });
    expect(await hang).toEqual({ isError: true, text: 'TIMEOUT: bad did not answer within 1500 ms (callTimeoutMs); the call was cancelled' });
    expect(await call('bad_noop')).toEqual({ text: 'ok', isError: false });
  });

  it('an upstream flooding stdout is stopped, and the front keeps answering', async () => {
    const flood = await call('flooder_flood');
    expect(flood.isError).toBe(true);
    // The call it cut short says why, as the next one does.
    expect(flood.text).toMatch(/^OS_ERROR: flooder was stopped during the call: it wrote more than 200 lines to stdout that are not MCP messages/);
    expect((await call('system_info')).isError).toBe(false);
    const after = await call('flooder_noop');
    expect(after.text).toMatch(/flooder was stopped: it wrote more than 200 lines to stdout that are not MCP messages/);
  });

  it('an idle upstream is stopped, and started again by the next call', async () => {
    expect(await call('sleepy_noop')).toEqual({ text: 'ok', isError: false });
    const running = () => ours().length;
    const before = running();
    await sleep(2000);
    expect(running()).toBeLessThan(before);
    expect(await call('sleepy_noop')).toEqual({ text: 'ok', isError: false });
  });

  it('SIGTERM to the server leaves no upstream process behind', async () => {
    expect(ours().length).toBeGreaterThan(0);
    const exited = new Promise((resolve) => server.child.once('exit', resolve));
    server.child.kill('SIGTERM');
    await exited;
    const deadline = Date.now() + 5000;
    while (ours().length > 0 && Date.now() < deadline) await sleep(50);
    expect(ours()).toEqual([]);
  });
});
