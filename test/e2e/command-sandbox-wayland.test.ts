/**
 * With display access off, no program in the command sandbox reaches the Wayland compositor or
 * the session bus that xdg-desktop-portal answers on: a real sway (headless, as its test user)
 * and a real dbus-daemon, probed by a Python socket client that knows their paths (a model
 * could learn them) and by grim started from a script file, out of the display gate's sight.
 * With display access on the very same commands reach both, so it is the sandbox that stops
 * them.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createLocalAdapter } from '../../adapter/local-computer-adapter.js';
import { sandboxSupport } from '../../adapter/process/sandbox/support.js';
import type { ConfigInput } from '../../main/config/schema.js';
import { missingSwayPrereq, startSway, type Sway } from '../adapter/desktop/fixtures/sway.js';
import { skipDesktop } from '../adapter/desktop/fixtures/xvfb.js';
import { connectModernHttp, textOf } from '../helpers/clients.js';
import { startTestServer } from '../helpers/servers.js';
import { makeTempDir, removeDir } from '../helpers/temp.js';

const PATH = '/usr/local/bin:/usr/bin:/bin';
const missing =
  missingSwayPrereq() ??
  (process.platform === 'linux' && !sandboxSupport('linux', { PATH }).usable ? 'bwrap is missing or cannot create namespaces' : undefined) ??
  (spawnSync('sh', ['-c', 'command -v dbus-daemon'], { stdio: 'ignore' }).status === 0 ? undefined : 'dbus-daemon is not installed');

/** wl_display.get_registry then sync: a compositor answers with globals and the callback's done. D-Bus: AUTH answers OK or REJECTED. */
const PROBE = `import socket, sys
out = []
def probe(name, path, hello, answered):
    s = socket.socket(socket.AF_UNIX)
    s.settimeout(3)
    try:
        s.connect(path)
        s.sendall(hello)
        out.append(name + (" answered" if answered(s.recv(4096)) else " silent"))
    except OSError as e:
        out.append(name + " " + type(e).__name__)
wl = (1).to_bytes(4, "little") + ((12 << 16) | 1).to_bytes(4, "little") + (2).to_bytes(4, "little")
wl += (1).to_bytes(4, "little") + ((12 << 16) | 0).to_bytes(4, "little") + (3).to_bytes(4, "little")
probe("wayland", sys.argv[1], wl, lambda r: len(r) >= 8 and int.from_bytes(r[0:4], "little") == 2)
probe("bus", sys.argv[2], b"\\0AUTH EXTERNAL 30\\r\\n", lambda r: r.startswith(b"OK") or r.startswith(b"REJECTED"))
print(" ".join(out))`;

describe.skipIf(skipDesktop(missing, 'the sandbox Wayland tests'))('the Wayland session inside the sandbox', () => {
  let sway: Sway;
  let root: string;
  let busDir: string;
  let busPid: number;
  let socket: string;
  let bus: string;

  beforeAll(async () => {
    if (missing) throw new Error(missing);
    sway = await startSway(320, 200);
    socket = path.join(sway.env.XDG_RUNTIME_DIR!, sway.env.WAYLAND_DISPLAY!);
    // The test's server runs as root and sway as its test user; inside the sandbox's user
    // namespace root has no right to pass another user's modes, where a real session's server is
    // the socket's owner. Opening them up keeps what decides the outcome the sandbox's mounts.
    fs.chmodSync(sway.env.XDG_RUNTIME_DIR!, 0o755);
    fs.chmodSync(socket, 0o777);
    busDir = makeTempDir('chatgpt-mcp-portal-bus-');
    bus = path.join(busDir, 'bus');
    const started = spawnSync('dbus-daemon', ['--session', '--fork', '--nopidfile', '--print-pid=1', `--address=unix:path=${bus}`], {
      encoding: 'utf8',
      timeout: 10_000,
    });
    busPid = Number(started.stdout.trim());
    if (!busPid) throw new Error(`dbus-daemon did not start: ${started.stderr}`);
    root = makeTempDir('chatgpt-mcp-sandbox-wayland-');
    fs.writeFileSync(path.join(root, 'grim.sh'), `WAYLAND_DISPLAY=${socket} grim -t ppm - | wc -c\n`);
  }, 60_000);

  afterAll(async () => {
    if (busPid) process.kill(busPid, 'SIGTERM');
    await sway?.stop();
    if (busDir) removeDir(busDir);
    if (root) removeDir(root);
  });

  const open: Array<{ close(): Promise<void> }> = [];
  afterEach(async () => {
    for (const item of open.splice(0).reverse()) await item.close();
  });

  async function exec(input: ConfigInput, command: string, args: string[]) {
    // The server runs inside this Wayland session: its environment names the compositor and the bus.
    const env = {
      PATH,
      HOME: root,
      XDG_RUNTIME_DIR: sway.env.XDG_RUNTIME_DIR!,
      WAYLAND_DISPLAY: sway.env.WAYLAND_DISPLAY!,
      DBUS_SESSION_BUS_ADDRESS: `unix:path=${bus}`,
    };
    const server = await startTestServer(
      { filesystem: { write: true, roots: [root] }, ...input, shell: { enabled: true, allowedCommands: ['*'] } },
      { adapter: createLocalAdapter({ env }) },
    );
    open.push(server);
    const client = await connectModernHttp(server.url);
    open.push(client);
    const result = await client.callTool({ name: 'shell.exec', arguments: { command, args } });
    expect(result.isError, textOf(result)).toBeFalsy();
    return result.structuredContent as { exitCode: number; stdout: string; stderr: string };
  }

  it('display access off: neither the Wayland socket nor the session bus is there, and grim cannot capture', async () => {
    expect((await exec({}, 'python3', ['-c', PROBE, socket, bus])).stdout).toBe('wayland FileNotFoundError bus FileNotFoundError\n');
    const grim = await exec({}, 'sh', [path.join(root, 'grim.sh')]);
    expect(grim.stdout.trim()).toBe('0');
    expect(grim.stderr).toMatch(/failed to create display|compositor/i);
    // nor does a command's environment name them
    const env = (await exec({}, 'env', [])).stdout;
    for (const name of ['WAYLAND_DISPLAY', 'XDG_RUNTIME_DIR', 'DBUS_SESSION_BUS_ADDRESS']) expect(env).not.toMatch(new RegExp(`^${name}=`, 'm'));
  });

  it('display access on: the same commands reach the compositor and the bus', async () => {
    const on = { desktop: { hostDisplayAccess: true } };
    expect((await exec(on, 'python3', ['-c', PROBE, socket, bus])).stdout).toBe('wayland answered bus answered\n');
    const grim = await exec(on, 'sh', [path.join(root, 'grim.sh')]);
    expect(Number(grim.stdout.trim())).toBeGreaterThan(320 * 200 * 3);
    expect((await exec(on, 'env', [])).stdout).toMatch(/^WAYLAND_DISPLAY=wayland-\d+$/m);
  });
});
