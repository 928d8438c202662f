/**
 * The supervisor with real processes and real HTTP: our MCP server on loopback, the tunnel
 * client stand-in as a child, and a fake control plane playing OpenAI and ChatGPT. Start,
 * ready, a forwarded tools/call, crash and restart, a malformed and a refused key, a wrong
 * token (red), stop; no child survives any of it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AUTHORIZATION_VARIABLE } from '../../main/tunnel/child-env.js';
import { TunnelSupervisor, type TunnelTarget } from '../../main/tunnel/supervisor.js';
import type { TunnelState, TunnelStatus } from '../../main/tunnel/status.js';
import { modernRequest } from '../helpers/raw-rpc.js';
import { startTestServer, type TestHttpServer } from '../helpers/servers.js';
import { makeTempDir, removeDir } from '../helpers/temp.js';
import { alive, allCommandLines, FakeControlPlane, GOOD_KEY, installStandIn, TUNNEL_ID, until, type InstalledStandIn } from './helpers/stand-in.js';

const TOKEN = 'supervisor-test-token-0123456789abcdef';
const FAST = { initialBackoffMs: 150, maxBackoffMs: 1000, checkMs: 100, readyCheckMs: 500, startGraceMs: 3000, killAfterMs: 2000 };
/** The variables a child may get: the inherited OS set plus the tunnel's own. */
const ALLOWED_ENV = new Set([
  ...['PATH', 'HOME', 'USER', 'LOGNAME', 'LANG', 'LC_ALL', 'LC_CTYPE', 'TZ', 'TMPDIR', 'TEMP', 'TMP'],
  ...['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'NO_PROXY', 'no_proxy', 'SSL_CERT_FILE', 'SSL_CERT_DIR'],
  ...['CONTROL_PLANE_TUNNEL_ID', 'CONTROL_PLANE_API_KEY', 'MCP_SERVER_URL', 'HEALTH_LISTEN_ADDR', 'HEALTH_URL_FILE', 'LOG_FORMAT', 'LOG_LEVEL'],
  ...['MCP_EXTRA_HEADERS', 'MCP_DISCOVERY_EXTRA_HEADERS', AUTHORIZATION_VARIABLE],
]);

let server: TestHttpServer;
let plane: FakeControlPlane;
let dir: string;
let standIn: InstalledStandIn;
const supervisors: TunnelSupervisor[] = [];

beforeAll(async () => {
  server = await startTestServer({ server: { token: TOKEN }, process: { list: true } });
  plane = await new FakeControlPlane().start();
});
afterAll(async () => {
  await server?.close();
  await plane?.close();
});
afterEach(async () => {
  for (const supervisor of supervisors.splice(0)) await supervisor.stop();
  for (const record of standIn?.records() ?? []) expect(alive(record.pid), `stand-in ${record.pid} survived`).toBe(false);
  if (dir) removeDir(dir);
});

function supervise(fixture: { controlPlaneUrl?: string } = { controlPlaneUrl: plane.url }): TunnelSupervisor {
  dir = makeTempDir('tunnel-supervisor-');
  standIn = installStandIn(path.join(dir, 'bin'), fixture);
  const supervisor = new TunnelSupervisor({ clientPath: standIn.path, runDir: path.join(dir, 'run'), baseEnv: process.env, timing: FAST });
  supervisors.push(supervisor);
  return supervisor;
}

const target = (overrides: Partial<TunnelTarget> = {}): TunnelTarget => ({
  tunnelId: TUNNEL_ID,
  apiKey: GOOD_KEY,
  serverUrl: server.url,
  token: TOKEN,
  ...overrides,
});

function reach(supervisor: TunnelSupervisor, state: TunnelState, match?: RegExp, timeoutMs = 15_000): Promise<TunnelStatus> {
  return until(
    () => supervisor.status.state === state && (!match || match.test(supervisor.status.reason ?? '')),
    `state ${state}${match ? ` ${match}` : ''} (now ${supervisor.status.state}: ${supervisor.status.reason})`,
    timeoutMs,
  ).then(() => supervisor.status);
}

describe('tunnel supervisor', () => {
  it('starts the client, is ready only after our server answers through the same headers, and forwards ChatGPT’s calls', async () => {
    const supervisor = supervise();
    const seen: TunnelState[] = [];
    supervisor.onChange((s) => seen.push(s.state));
    await supervisor.start(target());
    const ready = await reach(supervisor, 'ready');
    expect(seen[0]).toBe('starting');
    expect(ready.readiness).toBe('ready');
    expect(ready.toolCount).toBeGreaterThanOrEqual(2);
    expect(ready.healthUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(ready.healthUrl).not.toBe('http://127.0.0.1:8080');

    // How it was started: argv is just "run"; the key is in the environment, the token only by reference.
    const [start] = standIn.records();
    expect(start!.argv).toEqual(['run']);
    expect(start!.ppid).toBe(process.pid);
    expect(start!.env.CONTROL_PLANE_API_KEY).toBe(GOOD_KEY);
    expect(start!.env.CONTROL_PLANE_TUNNEL_ID).toBe(TUNNEL_ID);
    expect(start!.env.MCP_SERVER_URL).toBe(server.url);
    expect(start!.env.HEALTH_LISTEN_ADDR).toBe('127.0.0.1:0');
    expect(start!.env.MCP_EXTRA_HEADERS).toBe(`Authorization: env:${AUTHORIZATION_VARIABLE}`);
    expect(start!.env.MCP_DISCOVERY_EXTRA_HEADERS).toBe(`Authorization: env:${AUTHORIZATION_VARIABLE}`);
    expect(start!.env[AUTHORIZATION_VARIABLE]).toBe(`Bearer ${TOKEN}`);
    const holdingToken = Object.entries(start!.env).filter(([, value]) => value.includes(TOKEN));
    expect(holdingToken.map(([name]) => name)).toEqual([AUTHORIZATION_VARIABLE]);
    expect(Object.keys(start!.env).filter((name) => !ALLOWED_ENV.has(name))).toEqual([]);
    expect(JSON.stringify(start!.argv)).not.toContain(GOOD_KEY);
    const commandLines = allCommandLines();
    expect(commandLines).toContain(String(supervisor.pid));
    expect(commandLines).not.toContain(GOOD_KEY);
    expect(commandLines).not.toContain(TOKEN);

    // ChatGPT's side: discover first (answered as JSON), then a tool call, both through the tunnel.
    const discover = await plane.call(JSON.parse(modernRequest(1, 'server/discover')), {
      'Mcp-Method': ['server/discover'],
      'MCP-Protocol-Version': ['2026-07-28'],
    });
    expect(discover.resp_code).toBe(200);
    expect(discover.resp_headers['Content-Type'][0]).toMatch(/application\/json/);
    expect(discover.resp_json.result).toBeTruthy();
    expect(discover.shardToken).toBe('shard-req_1');
    const call = await plane.call(JSON.parse(modernRequest(2, 'tools/call', { name: 'system.info', arguments: {} })), {
      'Mcp-Method': ['tools/call'],
      'Mcp-Name': ['system.info'],
      'MCP-Protocol-Version': ['2026-07-28'],
    });
    expect(call.resp_code).toBe(200);
    expect(call.resp_json.result.isError).toBeFalsy();
    expect(call.resp_json.result.structuredContent.hostname).toBeTruthy();

    // The client's own UI is on its loopback health listener.
    expect((await fetch(`${ready.healthUrl}/ui`)).status).toBe(200);
    expect(JSON.stringify(supervisor.status.log)).not.toContain(GOOD_KEY);

    const pid = supervisor.pid!;
    const stopped = await supervisor.stop();
    expect(stopped.state).toBe('stopped');
    expect(alive(pid)).toBe(false);
  });

  it('restarts a crashed client with backoff and becomes ready again', async () => {
    const supervisor = supervise();
    await supervisor.start(target());
    await reach(supervisor, 'ready');
    const first = supervisor.pid!;
    process.kill(first, 'SIGKILL');
    const degraded = await reach(supervisor, 'degraded', /ended by SIGKILL.*Restarting in/);
    expect(degraded.pid).toBeNull();
    const again = await reach(supervisor, 'ready');
    expect(again.restarts).toBe(1);
    expect(supervisor.pid).not.toBe(first);
    expect(alive(first)).toBe(false);
    expect(standIn.records()).toHaveLength(2);
  });

  it('a client that exits right after starting is tried a few times, then given up with its last words', async () => {
    dir = makeTempDir('tunnel-supervisor-');
    const client = path.join(dir, 'quits');
    fs.writeFileSync(client, '#!/bin/sh\necho started >> "$0.runs"\necho "panic: no such profile" >&2\nexit 2\n', { mode: 0o755 });
    const supervisor = new TunnelSupervisor({ clientPath: client, runDir: path.join(dir, 'run'), baseEnv: process.env, timing: { ...FAST, maxQuickExits: 3 } });
    supervisors.push(supervisor);
    await supervisor.start(target());
    const failed = await reach(supervisor, 'error', /exited right after starting/);
    expect(failed.reason).toBe(
      'The tunnel client exited right after starting 3 times in a row; it last said: "panic: no such profile". The steps of the ChatGPT section show what is missing.',
    );
    expect(failed.pid).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(fs.readFileSync(`${client}.runs`, 'utf8').trim().split('\n')).toHaveLength(3);
  });

  it('a malformed key ends the client with its message; red, and not restarted', async () => {
    const supervisor = supervise();
    await supervisor.start(target({ apiKey: 'sk-has.a.dot' }));
    const failed = await reach(supervisor, 'error', /malformed/);
    expect(failed.log.some((line) => line.stream === 'stderr' && line.text === 'control plane API key is malformed')).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(standIn.records()).toHaveLength(1);
    expect(supervisor.status.state).toBe('error');
  });

  it('a key the control plane refuses is red although the client keeps running and says ready; fixed, it turns green', async () => {
    const supervisor = supervise();
    const revoked = 'sk-tunnel-runtime-revoked-0123456789';
    await supervisor.start(target({ apiKey: revoked }));
    const refused = await reach(supervisor, 'error', /refused the runtime key \(HTTP 401\): invalid_api_key/);
    expect(refused.pid).not.toBeNull();
    expect(alive(refused.pid!)).toBe(true);
    expect(JSON.stringify(refused)).not.toContain(revoked);
    // The key becomes valid (permissions granted): the client's poller recovers, and so does the state.
    plane.keys.add(revoked);
    try {
      await reach(supervisor, 'ready');
    } finally {
      plane.keys.delete(revoked);
    }
  });

  it('a wrong token is red with the reason, even though the client counts the 401 as ready', async () => {
    const supervisor = supervise();
    await supervisor.start(target({ token: 'not-the-server-token-0123456789' }));
    const wrong = await reach(supervisor, 'error', /refused the token the tunnel sends \(HTTP 401\)/);
    expect(wrong.readiness).toMatch(/^ready \(mcp initialize requires auth/);
    await supervisor.stop();

    await supervisor.start(target({ token: null }));
    await reach(supervisor, 'error', /needs a token, and the tunnel sends none/);
    expect(standIn.records().at(-1)!.env.MCP_EXTRA_HEADERS).toBeUndefined();
  });

  it('stop during a restart delay cancels the restart, and nothing is left running', async () => {
    const supervisor = supervise();
    await supervisor.start(target());
    await reach(supervisor, 'ready');
    process.kill(supervisor.pid!, 'SIGKILL');
    await reach(supervisor, 'degraded', /Restarting in/);
    await supervisor.stop();
    await new Promise((resolve) => setTimeout(resolve, FAST.maxBackoffMs + 300));
    expect(standIn.records()).toHaveLength(1);
    expect(supervisor.status.state).toBe('stopped');
    expect(fs.readdirSync(path.join(dir, 'run')).filter((name) => name.startsWith('tunnel-health'))).toEqual([]);
  });

  it('a client that cannot be started is an error that names it', async () => {
    const supervisor = supervise();
    fs.chmodSync(standIn.path, 0o644);
    await supervisor.start(target());
    await reach(supervisor, 'error', /not executable/);
  });
});
