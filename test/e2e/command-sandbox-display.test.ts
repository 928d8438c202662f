/**
 * With display access off, the sandbox hides the display itself: programs the display gate never
 * sees (they are started from a script file, whose contents the gate cannot read, or are plain
 * socket code) still cannot reach a real Xvfb display, even with allowedCommands ["*"]. With
 * display access on the very same commands work, so what stops them is the sandbox, not the
 * denylist or a broken command. And with the network shared, the X server's abstract socket is
 * out of reach too where the kernel has Landlock's scope (Linux 6.12), and reachable where it has
 * not, exactly as system.info says.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createLocalAdapter } from '../../adapter/local-computer-adapter.js';
import { abstractSocketScope } from '../../adapter/process/start-child.js';
import { sandboxSupport } from '../../adapter/process/sandbox/support.js';
import type { ConfigInput } from '../../main/config/schema.js';
import { missingDesktopPrereq, onPath, skipDesktop, startXvfb, type Xvfb } from '../adapter/desktop/fixtures/xvfb.js';
import { connectModernHttp, textOf } from '../helpers/clients.js';
import { startTestServer } from '../helpers/servers.js';
import { makeTempDir, removeDir } from '../helpers/temp.js';

const PATH = '/usr/local/bin:/usr/bin:/bin';
const TOOLS = ['xwd', 'import', 'xdotool', 'python3'];
const missing =
  missingDesktopPrereq() ??
  (process.platform === 'linux' && !sandboxSupport('linux', { PATH }).usable ? 'bwrap is missing or cannot create namespaces' : undefined) ??
  TOOLS.filter((tool) => !onPath(tool)).map((tool) => `${tool} is not installed (apt-get install x11-apps imagemagick xdotool python3)`)[0];

/** Connects to the X socket by path and by its abstract name and sends the X11 setup request. */
const PYTHON = `import socket, sys
out = []
for name, address in (("path", "/tmp/.X11-unix/X" + sys.argv[1]), ("abstract", "\\0/tmp/.X11-unix/X" + sys.argv[1])):
    s = socket.socket(socket.AF_UNIX)
    try:
        s.connect(address)
        s.sendall(b"l\\0\\x0b\\0\\0\\0\\0\\0\\0\\0\\0\\0")
        out.append(name + (" accepted" if s.recv(1) == b"\\x01" else " refused"))
    except OSError as e:
        out.append(name + " " + type(e).__name__)
print(" ".join(out))`;

describe.skipIf(skipDesktop(missing, 'the sandbox display tests'))('the display inside the sandbox', () => {
  let xvfb: Xvfb;
  let root: string;
  let number: string;
  beforeAll(async () => {
    if (missing) throw new Error(missing);
    xvfb = await startXvfb(320, 200);
    number = xvfb.display.slice(1);
    root = makeTempDir('chatgpt-mcp-sandbox-display-');
    // Each program from a script file: the display gate refuses these names and any -display
    // argument it sees, but a script's contents are out of its reach.
    const scripts: Record<string, string> = {
      xwd: `xwd -root -silent -display :${number} > /tmp/shot && wc -c < /tmp/shot`,
      import: `import -display :${number} -window root png:/tmp/shot.png && wc -c < /tmp/shot.png`,
      xdotool: `DISPLAY=:${number} xdotool getmouselocation`,
    };
    for (const [name, body] of Object.entries(scripts)) fs.writeFileSync(path.join(root, `${name}.sh`), `${body}\n`);
  });
  afterAll(async () => {
    await xvfb?.stop();
    if (root) removeDir(root);
  });

  const open: Array<{ close(): Promise<void> }> = [];
  afterEach(async () => {
    for (const item of open.splice(0).reverse()) await item.close();
  });

  async function serve(input: ConfigInput) {
    const server = await startTestServer(
      { filesystem: { write: true, roots: [root] }, ...input, shell: { enabled: true, allowedCommands: ['*'], ...input.shell } },
      // The server runs inside this desktop session: its environment names the display.
      { adapter: createLocalAdapter({ env: { PATH, HOME: root, DISPLAY: xvfb.display } }) },
    );
    open.push(server);
    const client = await connectModernHttp(server.url);
    open.push(client);
    const exec = async (command: string, args: string[]) => {
      const result = await client.callTool({ name: 'shell.exec', arguments: { command, args } });
      // Never the gate: every command runs, and fails or works on its own.
      expect(result.isError, textOf(result)).toBeFalsy();
      return result.structuredContent as { exitCode: number; stdout: string; stderr: string };
    };
    const info = async () =>
      ((await client.callTool({ name: 'system.info', arguments: {} })).structuredContent as { capabilities: { shell: { sandbox: { display: string } } } })
        .capabilities.shell.sandbox;
    return { exec, info };
  }

  type Exec = (command: string, args: string[]) => Promise<{ exitCode: number; stdout: string; stderr: string }>;
  const grab = async (exec: Exec) => {
    const script = (name: string) => exec('sh', [path.join(root, `${name}.sh`)]);
    const [xwd, im, xdotool, python] = await Promise.all([script('xwd'), script('import'), script('xdotool'), exec('python3', ['-c', PYTHON, number])]);
    return { xwd, im, xdotool, python };
  };

  it('display access off: xwd, import, xdotool and a Python socket cannot reach the Xvfb display', async () => {
    const { exec, info } = await serve({});
    const { xwd, im, xdotool, python } = await grab(exec);
    for (const result of [xwd, im, xdotool]) {
      expect(result.exitCode).not.toBe(0);
      expect(result.stderr).toMatch(/unable to open display|Can't open display|Failed creating new xdo instance|unable to open X server/i);
    }
    expect(python.stdout).toBe('path FileNotFoundError abstract ConnectionRefusedError\n');
    expect((await info()).display).toBe('hidden');
  });

  it('display access on: the same commands work', async () => {
    const { exec, info } = await serve({ desktop: { hostDisplayAccess: true } });
    const { xwd, im, xdotool, python } = await grab(exec);
    expect(xwd.exitCode).toBe(0);
    expect(Number(xwd.stdout.trim())).toBeGreaterThan(320 * 200);
    expect(im.exitCode).toBe(0);
    expect(Number(im.stdout.trim())).toBeGreaterThan(100);
    expect(xdotool).toMatchObject({ exitCode: 0, stdout: expect.stringMatching(/^x:\d+ y:\d+ screen:0/) });
    // The socket file is mounted in; the abstract socket is in the network the command does not share.
    expect(python.stdout).toBe('path accepted abstract ConnectionRefusedError\n');
    expect((await info()).display).toBe('visible');
  });

  it.skipIf(!abstractSocketScope())(
    'display access off but the network shared: Landlock keeps the abstract socket out too, and system.info says hidden',
    async () => {
      const { exec, info } = await serve({ shell: { network: 'on' } });
      const { xwd, python } = await grab(exec);
      expect(python.stdout).toBe('path FileNotFoundError abstract PermissionError\n');
      expect(xwd.exitCode).not.toBe(0);
      expect((await info()).display).toBe('hidden');
    },
  );

  it.skipIf(abstractSocketScope())(
    'display access off but the network shared, on a kernel without the scope: the abstract socket answers, and system.info says so',
    async () => {
      const { exec, info } = await serve({ shell: { network: 'on' } });
      const { xwd, python } = await grab(exec);
      expect(python.stdout).toBe('path FileNotFoundError abstract accepted\n');
      // Xlib tries the abstract socket first on Linux: this is the limit the notes state.
      expect(xwd.exitCode).toBe(0);
      expect((await info()).display).toBe('abstract-sockets-reachable');
    },
  );
});
