/**
 * `chatgpt-mcp tunnel ...` as the built CLI in child processes, with the tunnel-client
 * stand-in and a fake control plane: store the key (owner-only file here, with the warning),
 * start the server and the tunnel, ChatGPT's call through it, status from another process,
 * SIGTERM / SIGINT stop both, a killed client is restarted, a malformed key ends with exit 3, a
 * client that exits at once is given up after a few tries, doctor runs our checks and the
 * client's and passes nothing it did not check (/bin/true, a key that is no key). The key is
 * never in the config, the logs or any process's command line; no child survives.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { keyFilePath } from '../../main/tunnel/secret-store.js';
import { stateFilePath } from '../../main/tunnel/state-file.js';
import { modernRequest } from '../helpers/raw-rpc.js';
import { CLI, childEnv, runCli } from '../helpers/servers.js';
import { makeTempDir, removeDir, writeJson } from '../helpers/temp.js';
import { alive, allCommandLines, FakeControlPlane, GOOD_KEY, installStandIn, TUNNEL_ID, until, type InstalledStandIn } from '../tunnel/helpers/stand-in.js';

let plane: FakeControlPlane;
let home: string;
let appDir: string;
let configFile: string;
let env: NodeJS.ProcessEnv;
let standIn: InstalledStandIn;
const children: ChildProcess[] = [];

beforeAll(async () => {
  plane = await new FakeControlPlane().start();
});
afterAll(() => plane?.close());
beforeEach(() => {
  home = makeTempDir('tunnel-cli-');
  appDir = path.join(home, '.config', 'chatgpt-mcp');
  configFile = writeJson(path.join(appDir, 'config.json'), { server: { port: 0 }, process: { list: true }, tunnel: { tunnelId: TUNNEL_ID } });
  standIn = installStandIn(path.join(home, 'opt'), { controlPlaneUrl: plane.url });
  env = childEnv(home, { CHATGPT_MCP_CONFIG: configFile });
});
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  for (const record of standIn.records()) expect(alive(record.pid), `stand-in ${record.pid} survived`).toBe(false);
  removeDir(home);
});

/** How hints name the CLI in these runs (the test's working folder is the repository). */
const NAME = `node ${path.relative(process.cwd(), CLI)}`;

/** A program that answers --version like the tunnel client, and otherwise does what `body` says. */
function fakeClient(name: string, body: string): string {
  const file = path.join(home, 'opt', name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `#!/bin/sh\nif [ "$1" = "--version" ]; then echo "0.0.15"; exit 0; fi\n${body}\n`, { mode: 0o755 });
  return file;
}

function setKey(key: string, args: string[] = []): Promise<{ code: number | null; stderr: string; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, 'tunnel', 'set-key', ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    let stdout = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.stdout.on('data', (d) => (stdout += d));
    child.on('close', (code) => resolve({ code, stderr, stdout }));
    child.stdin.end(`${key}\n`);
  });
}

interface Started {
  child: ChildProcess;
  stderr(): string;
  exited: Promise<number | null>;
  /** Resolves with the first "tunnel" log line in this state after `since` characters of stderr. */
  state(state: string, since?: number, timeoutMs?: number): Promise<Record<string, string>>;
}

function startTunnel(extraEnv: NodeJS.ProcessEnv = {}, args: string[] = []): Started {
  const child = spawn(process.execPath, [CLI, 'tunnel', 'start', '--client', standIn.path, ...args], {
    env: { ...env, ...extraEnv },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const lines = (since: number) =>
    stderr
      .slice(since)
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, string>);
  return {
    child,
    exited,
    stderr: () => stderr,
    async state(state, since = 0, timeoutMs = 15_000) {
      await until(() => lines(since).some((l) => l.msg === 'tunnel' && l.state === state), `tunnel ${state}; stderr:\n${stderr}`, timeoutMs);
      return lines(since).find((l) => l.msg === 'tunnel' && l.state === state)!;
    },
  };
}

/** gnome-keyring and dbus-run-session (Debian: gnome-keyring, dbus-daemon); CI requires them. */
function secretServiceAvailable(): boolean {
  const found = ['/usr/bin/gnome-keyring-daemon', '/usr/bin/dbus-run-session'].every((file) => fs.existsSync(file));
  if (!found && process.env.REQUIRE_DESKTOP_TESTS === '1') throw new Error('REQUIRE_DESKTOP_TESTS=1 but gnome-keyring or dbus-run-session is missing');
  if (!found) process.stderr.write('\n*** SKIPPING the Secret Service keyring test: gnome-keyring-daemon or dbus-run-session not installed ***\n\n');
  return found;
}

/** Everything that must never hold the key: the config file, the CLI's logs, every command line. */
function expectKeyNowhere(key: string, logs: string): void {
  expect(fs.readFileSync(configFile, 'utf8')).not.toContain(key);
  expect(logs).not.toContain(key);
  expect(allCommandLines()).not.toContain(key);
  expect(fs.existsSync(stateFilePath(appDir)) ? fs.readFileSync(stateFilePath(appDir), 'utf8') : '').not.toContain(key);
}

describe('chatgpt-mcp tunnel', () => {
  it('stores the key from stdin in the owner-only file here, with the warning, and status reports it', async () => {
    const stored = await setKey(GOOD_KEY);
    expect(stored.code).toBe(0);
    expect(stored.stderr).toContain(`the runtime key is stored in an owner-only file (${keyFilePath(appDir)})`);
    expect(stored.stderr).toMatch(/warning: The runtime key is kept in .*tunnel-key, readable only by your user account/);
    expect(stored.stderr + stored.stdout).not.toContain(GOOD_KEY);
    expect(fs.statSync(keyFilePath(appDir)).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(configFile, 'utf8')).not.toContain(GOOD_KEY);

    const status = await runCli(['tunnel', 'status', '--client', standIn.path], env);
    expect(status.code).toBe(0);
    expect(status.stdout).toContain(`tunnel id:     ${TUNNEL_ID} (from tunnel.tunnelId in the config)`);
    expect(status.stdout).toContain(`runtime key:   stored in an owner-only file (${keyFilePath(appDir)})`);
    expect(status.stdout).toContain(`tunnel client: ${standIn.path} (0.9.4-standin+5ce4fed0c1cb (git sha: 5ce4fed0c1cb); configured)`);
    expect(status.stdout).toContain('connection:    not running here');
    expect(status.stdout).not.toContain(GOOD_KEY);

    const forgot = await runCli(['tunnel', 'forget-key'], env);
    expect(forgot.stderr).toContain('the runtime key is removed');
    expect(fs.existsSync(keyFilePath(appDir))).toBe(false);
  });

  it.skipIf(!secretServiceAvailable())(
    'with a Secret Service on the session bus, the key goes to the keyring and no file is written',
    async () => {
      // gnome-keyring on a private session bus, its login keyring unlocked with a throwaway password.
      const script = `echo -n throwaway | gnome-keyring-daemon --unlock --components=secrets >/dev/null 2>&1
printf '%s\\n' "$KEY" | "$NODE" "$CLI" tunnel set-key && "$NODE" "$CLI" tunnel status --client "$CLIENT" && "$NODE" "$CLI" tunnel forget-key`;
      const run = await new Promise<{ code: number | null; out: string }>((resolve) => {
        const child = spawn('dbus-run-session', ['--', 'sh', '-c', script], {
          env: { ...env, KEY: GOOD_KEY, NODE: process.execPath, CLI, CLIENT: standIn.path, XDG_DATA_HOME: path.join(home, '.local', 'share') },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let out = '';
        child.stdout.on('data', (d) => (out += d));
        child.stderr.on('data', (d) => (out += d));
        child.on('close', (code) => resolve({ code, out }));
      });
      expect(run.code, run.out).toBe(0);
      expect(run.out).toContain('the runtime key is stored in the Secret Service keyring');
      expect(run.out).toContain('runtime key:   stored in the Secret Service keyring');
      expect(run.out).not.toContain('warning:');
      expect(run.out).toContain('the runtime key is removed');
      expect(fs.existsSync(keyFilePath(appDir))).toBe(false);
      expect(run.out).not.toContain(GOOD_KEY);
    },
    30_000,
  );

  it('start serves and connects until SIGTERM, forwards ChatGPT’s call, reports status elsewhere, and leaves nothing behind', async () => {
    await setKey(GOOD_KEY);
    const started = startTunnel();
    const ready = await started.state('ready');
    expect(ready.ui).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/ui$/);
    const [record] = standIn.records();
    expect(record!.argv).toEqual(['run']);
    expect(record!.ppid).toBe(started.child.pid);
    expect(record!.env.CONTROL_PLANE_API_KEY).toBe(GOOD_KEY);
    const token = fs.readFileSync(path.join(appDir, 'token'), 'utf8').trim();
    expect(record!.env.MCP_EXTRA_HEADERS).toBe('Authorization: env:CHATGPT_MCP_TUNNEL_AUTHORIZATION');
    expect(record!.env.CHATGPT_MCP_TUNNEL_AUTHORIZATION).toBe(`Bearer ${token}`);

    const call = await plane.call(JSON.parse(modernRequest(7, 'tools/call', { name: 'process_list', arguments: { limit: 500 } })), {
      'Mcp-Method': ['tools/call'],
      'Mcp-Name': ['process_list'],
      'MCP-Protocol-Version': ['2026-07-28'],
    });
    expect(call.resp_json.result.isError).toBeFalsy();
    // The model's own view of the processes does not reveal the key either.
    expect(JSON.stringify(call.resp_json)).not.toContain(GOOD_KEY);

    const status = await runCli(['tunnel', 'status', '--client', standIn.path], env);
    expect(status.stdout).toContain(`connection:    Ready (tunnel start, pid ${started.child.pid})`);
    expect(status.stdout).toMatch(/client UI: {5}http:\/\/127\.0\.0\.1:\d+\/ui \(readyz now: ready\)/);
    expect(status.stdout).toMatch(/tools: {9}\d+ listed through the tunnel's headers/);
    expectKeyNowhere(GOOD_KEY, started.stderr() + status.stdout + status.stderr);

    started.child.kill('SIGTERM');
    expect(await started.exited).toBe(0);
    expect(alive(record!.pid)).toBe(false);
    expect(fs.existsSync(stateFilePath(appDir))).toBe(false);
    expectKeyNowhere(GOOD_KEY, started.stderr());
  }, 40_000);

  it('Ctrl+C (SIGINT) stops both; a killed client is restarted first', async () => {
    await setKey(GOOD_KEY);
    const started = startTunnel();
    await started.state('ready');
    const first = standIn.records()[0]!.pid;
    const mark = started.stderr().length;
    process.kill(first, 'SIGKILL');
    await started.state('degraded', mark);
    await started.state('ready', mark);
    const records = standIn.records();
    expect(records).toHaveLength(2);
    expect(alive(first)).toBe(false);
    expect(alive(records[1]!.pid)).toBe(true);
    started.child.kill('SIGINT');
    expect(await started.exited).toBe(0);
    for (const record of records) expect(alive(record.pid)).toBe(false);
  }, 40_000);

  it('a SIGKILLed tunnel start takes its tunnel client with it (Linux), and the next start has nothing left to end', async () => {
    await setKey(GOOD_KEY);
    const first = startTunnel();
    await first.state('ready');
    const orphan = standIn.records()[0]!.pid;
    first.child.kill('SIGKILL');
    await first.exited;
    // The kernel ends it: the client was started asking for SIGKILL when its parent dies.
    await expect.poll(() => alive(orphan), { timeout: 5000 }).toBe(false);
    const second = startTunnel();
    await second.state('ready');
    expect(second.stderr()).not.toContain('ended a tunnel client left running');
    expect(fs.readdirSync(appDir).filter((name) => name.includes(String(first.child.pid)))).toEqual([]);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  }, 40_000);

  it('a key the client calls malformed ends tunnel start with exit 3 and the reason', async () => {
    const started = startTunnel({ CONTROL_PLANE_API_KEY: 'sk-has.a.dot' });
    expect(await started.exited).toBe(3);
    expect(started.stderr()).toContain(
      `the tunnel cannot run: The tunnel client rejected the runtime key as malformed: store the runtime key with "${NAME} tunnel set-key", exactly as the OpenAI Platform shows it.`,
    );
    expect(standIn.records()).toHaveLength(1);
    expectKeyNowhere('sk-has.a.dot', started.stderr());
  }, 30_000);

  it('refuses to start without a tunnel id or a key, naming where to get them', async () => {
    writeJson(configFile, { server: { port: 0 } });
    const noId = await runCli(['tunnel', 'start', '--client', standIn.path], env);
    expect(noId.code).toBe(2);
    expect(noId.stderr).toContain('No tunnel id: create a tunnel at https://platform.openai.com/settings/organization/tunnels');
    const badId = await runCli(['tunnel', 'start', '--client', standIn.path, '--tunnel-id', 'tunnel_XYZ'], env);
    expect(badId.stderr).toContain('The tunnel id from --tunnel-id is not one');
    const noKey = await runCli(['tunnel', 'start', '--client', standIn.path, '--tunnel-id', TUNNEL_ID], env);
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain(
      `No runtime key stored: create one with Tunnels Read + Use at https://platform.openai.com/settings/organization/api-keys, then store the runtime key with "${NAME} tunnel set-key".`,
    );
    expect(standIn.records()).toHaveLength(0);
  });

  it('headless, a missing client is explained in headless words: tunnel download, --client FILE, tunnel.clientPath', async () => {
    await setKey(GOOD_KEY);
    const run = await runCli(['tunnel', 'start'], { ...env, PATH: '/nonexistent' });
    expect(run.code).toBe(3);
    expect(run.stderr).toContain(
      `No tunnel client found: "${NAME} tunnel download" installs it, or pass --client FILE (or set tunnel.clientPath in the config) for a tunnel-client you already have.`,
    );
    expect(run.stderr).not.toMatch(/choose the tunnel-client program|settings window/);
  });

  it('set-key refuses what is no key, and what does not look like an OpenAI key unless told (--force)', async () => {
    const words = await setKey('not a key');
    expect(words.code).toBe(64);
    expect(words.stderr).toContain('That is not a runtime key: a key is one word of letters, digits, "-" and "_".');
    const typed = await setKey('sk-secret-typed');
    expect(typed.code).toBe(64);
    expect(typed.stderr).toContain('that does not look like an OpenAI API key: it is 15 characters long, and OpenAI API keys are longer. Nothing was stored.');
    expect(typed.stderr).toContain(`"${NAME} tunnel set-key --force"`);
    expect(fs.existsSync(keyFilePath(appDir))).toBe(false);
    const forced = await setKey('sk-secret-typed', ['--force']);
    expect(forced.code).toBe(0);
    expect(forced.stderr).toContain('warning: storing it anyway (--force), though it is 15 characters long');
    expect(fs.readFileSync(keyFilePath(appDir), 'utf8').trim()).toBe('sk-secret-typed');
  });

  it('start gives up on a client that exits at once, after a few tries, with its last words and a pointer to doctor', async () => {
    await setKey(GOOD_KEY);
    const client = fakeClient('quits', 'echo "fatal: cannot open the profile store" >&2\nexit 1');
    const started = Date.now();
    const run = await runCli(['tunnel', 'start', '--client', client], env, 60_000);
    expect(run.code).toBe(3);
    expect(run.stderr).toContain(
      `the tunnel cannot run: The tunnel client exited right after starting 3 times in a row; it last said: "fatal: cannot open the profile store". "${NAME} tunnel doctor" checks every part.`,
    );
    expect(run.stderr.match(/"msg":"tunnel client started"/g)).toHaveLength(3);
    expect(Date.now() - started).toBeLessThan(30_000);
  }, 60_000);

  it('start refuses a program that is not the tunnel client before running it as one', async () => {
    await setKey(GOOD_KEY);
    const run = await runCli(['tunnel', 'start', '--client', '/bin/true'], env);
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/\/bin\/true is not OpenAI's tunnel-client: asked for its version, it answered "true \(GNU coreutils\)/);
    expect(run.stderr).not.toContain('"msg":"tunnel client started"');
  });

  it('refuses a tunnel client inside a writable root', async () => {
    writeJson(configFile, { server: { port: 0 }, filesystem: { write: true, roots: [path.join(home, 'opt')] }, tunnel: { tunnelId: TUNNEL_ID } });
    await setKey(GOOD_KEY);
    const run = await runCli(['tunnel', 'start', '--client', standIn.path], env);
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('is inside a folder the model may write to');
    expect(standIn.records()).toHaveLength(0);
  });

  it('doctor runs our checks and the client’s own doctor against a server of this config, and passes only what it checked', async () => {
    await setKey(GOOD_KEY);
    const good = await runCli(['tunnel', 'doctor', '--client', standIn.path], env, 30_000);
    expect(good.stdout).toContain(`PASS tunnel id ${TUNNEL_ID} (from tunnel.tunnelId in the config)`);
    expect(good.stdout).toMatch(/PASS runtime key found in an owner-only file \(.*\), shaped like an OpenAI API key/);
    expect(good.stdout).toContain('WARN The runtime key is kept in');
    expect(good.stdout).toContain(`PASS tunnel client ${standIn.path} answers --version as OpenAI's tunnel-client does: 0.9.4-standin+5ce4fed0c1cb`);
    expect(good.stdout).toContain(`UNKNOWN whether ${standIn.path} is OpenAI's own build: only "${NAME} tunnel download" verifies the file`);
    expect(good.stdout).toMatch(/PASS the server answers discover and tools\/list through the tunnel's headers \(\d+ tools\)/);
    expect(good.stdout).toMatch(/tunnel-client doctor: CHECK mcp_server_reachable +PASS HTTP 405 from http:\/\/127\.0\.0\.1:\d+\/mcp/);
    // The real client fails its OAuth metadata check against a server that takes a bearer token: said, not hidden.
    expect(good.stdout).toMatch(/tunnel-client doctor: CHECK oauth_metadata +FAIL HTTP 404/);
    expect(good.stdout).toContain('WARN tunnel-client doctor failed only oauth_metadata: this server takes a bearer token, not OAuth');
    expect(good.stdout).toContain(`UNKNOWN whether OpenAI accepts this key for this tunnel: only a running tunnel shows that ("${NAME} tunnel start")`);
    expect(good.stdout).not.toMatch(/^FAIL/m);
    expect(good.code).toBe(0);
    expect(standIn.records().map((r) => r.argv)).toEqual([['doctor']]);
    expect(good.stdout + good.stderr).not.toContain(GOOD_KEY);

    await runCli(['tunnel', 'forget-key'], env);
    const bad = await runCli(['tunnel', 'doctor', '--client', standIn.path], env, 30_000);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain('FAIL No runtime key stored');
    expect(bad.stdout).toMatch(/tunnel-client doctor: CHECK control_plane_api_key +FAIL control plane API key is required/);
    expect(bad.stdout).toContain('FAIL tunnel-client doctor: RESULT fail (control_plane_api_key)');
  }, 60_000);

  it('doctor fails /bin/true as the client, and a key that is no key; a client doctor that reports nothing is UNKNOWN, never PASS', async () => {
    const fake = await runCli(['tunnel', 'doctor', '--client', '/bin/true'], { ...env, CONTROL_PLANE_API_KEY: 'not-a-key' }, 30_000);
    expect(fake.code).toBe(1);
    expect(fake.stdout).toMatch(/^FAIL \/bin\/true is not OpenAI's tunnel-client: asked for its version, it answered "true \(GNU coreutils\)/m);
    expect(fake.stdout).not.toMatch(/^PASS tunnel client/m);
    expect(fake.stdout).toContain('UNKNOWN runtime key found in CONTROL_PLANE_API_KEY, but it may not be an OpenAI API key: it does not begin with "sk-"');
    const malformed = await runCli(['tunnel', 'doctor', '--client', standIn.path], { ...env, CONTROL_PLANE_API_KEY: 'sk-has.a.dot' }, 30_000);
    expect(malformed.stdout).toContain('FAIL runtime key found in CONTROL_PLANE_API_KEY, but it is not a runtime key');
    expect(malformed.code).toBe(1);

    await setKey(GOOD_KEY);
    const silent = fakeClient('silent', 'exit 0');
    const quiet = await runCli(['tunnel', 'doctor', '--client', silent], env, 30_000);
    expect(quiet.stdout).toContain(`PASS tunnel client ${silent} answers --version as OpenAI's tunnel-client does: 0.0.15`);
    expect(quiet.stdout).toContain(
      "UNKNOWN tunnel-client doctor exited with 0 but reported no RESULT: it checked nothing we can tell (is it OpenAI's tunnel-client?)",
    );
    expect(quiet.stdout).not.toContain('PASS tunnel-client doctor');
  }, 90_000);
});
