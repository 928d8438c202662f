/**
 * Display gating through a real client: with desktop.hostDisplayAccess off, the desktop tools
 * are absent, shell children lose the graphical session, and capture programs are refused
 * even when every command is allowed.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ConfigInput } from '../../main/config/schema.js';
import { connectModernHttp, textOf } from '../helpers/clients.js';
import { startTestServer } from '../helpers/servers.js';
import { makeTempDir, removeDir } from '../helpers/temp.js';

const DESKTOP_TOOLS = [
  'screen.capture',
  'input.move',
  'input.click',
  'input.type',
  'input.key',
  'app.launch',
  'app.close',
  'browser.open',
  'computer.batch',
  'ui.invoke',
  'window.list',
  'window.focus',
  'window.move_resize',
  'window.minimize',
  'window.maximize',
  'window.restore',
  'window.close',
  'clipboard.read',
  'clipboard.write',
];
let root: string;
const saved = { DISPLAY: process.env.DISPLAY, XAUTHORITY: process.env.XAUTHORITY };

beforeAll(() => {
  root = makeTempDir();
  // The server inherits a graphical session, as it would on a desktop.
  process.env.DISPLAY = ':77';
  process.env.XAUTHORITY = '/tmp/not-a-real-xauthority';
});
afterAll(() => {
  for (const [key, value] of Object.entries(saved))
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  removeDir(root);
});

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

async function connect(input: ConfigInput) {
  const server = await startTestServer({ filesystem: { roots: [root] }, ...input });
  open.push(server);
  const client = await connectModernHttp(server.url);
  open.push(client);
  return client;
}

const everyFamily = {
  screen: true,
  input: true,
  browser: true,
  appControl: true,
  windows: true,
  windowTitles: true,
  clipboardRead: true,
  apps: { editor: { path: '/bin/true' } },
};

describe('host display access off (the default)', () => {
  it('lists no desktop tool even when every family flag is on', async () => {
    const client = await connect({ desktop: { hostDisplayAccess: false, ...everyFamily } });
    const names = (await client.listTools()).tools.map((t) => t.name);
    for (const name of DESKTOP_TOOLS) expect(names).not.toContain(name);
    const refused = await client.callTool({ name: 'screen.capture', arguments: {} }).then(
      (r) => textOf(r),
      (e: Error) => e.message,
    );
    expect(refused).toMatch(/^CAPABILITY_DISABLED: screen\.capture exists but is not granted .*desktop\.hostDisplayAccess and desktop\.screen/);
    for (const name of DESKTOP_TOOLS) {
      const answer = textOf(await client.callTool({ name, arguments: {} }));
      expect(answer, name).toMatch(new RegExp(`^CAPABILITY_DISABLED: ${name.replace('.', '\\.')} exists but is not granted .*desktop\\.hostDisplayAccess`));
    }
  });

  it('runs shell children without DISPLAY or XAUTHORITY, and refuses them from callers', async () => {
    const client = await connect({ shell: { enabled: true, allowedCommands: ['env'], allowEnv: true } });
    const result = await client.callTool({ name: 'shell.exec', arguments: { command: 'env' } });
    const stdout = (result.structuredContent as { stdout: string }).stdout;
    expect(stdout).toContain('PATH=');
    expect(stdout).not.toMatch(/^DISPLAY=/m);
    expect(stdout).not.toMatch(/^XAUTHORITY=/m);
    const injected = await client.callTool({ name: 'shell.exec', arguments: { command: 'env', env: { DISPLAY: ':77' } } });
    expect(textOf(injected)).toMatch(/^COMMAND_NOT_ALLOWED: DISPLAY .*hostDisplayAccess is false/);
  });

  it.each([
    ['import', ['-window', 'root', 'shot.png']],
    ['xwd', ['-root']],
    ['sh', ['-c', 'import -window root /tmp/x.png']],
    ['ffmpeg', ['-f', 'x11grab', '-i', ':0', 'out.mp4']],
    ['python3', ['-c', 'import pyautogui; pyautogui.screenshot("s.png")']],
    ['xdotool', ['mousemove', '1', '1']],
  ])('refuses %s %j even with allowedCommands ["*"]', async (command, args) => {
    const client = await connect({ shell: { enabled: true, allowedCommands: ['*'] } });
    const result = await client.callTool({ name: 'shell.exec', arguments: { command, args } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^COMMAND_NOT_ALLOWED: .*hostDisplayAccess is false/);
  });
});

describe('host display access on', () => {
  it('lists the granted families and lets shell children keep the session', async () => {
    const client = await connect({ desktop: { hostDisplayAccess: true, screen: true, browser: true }, shell: { enabled: true, allowedCommands: ['env'] } });
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['screen.capture', 'browser.open']));
    expect(names).not.toContain('input.click');
    const result = await client.callTool({ name: 'shell.exec', arguments: { command: 'env' } });
    expect((result.structuredContent as { stdout: string }).stdout).toMatch(/^DISPLAY=:77$/m);
  });
});
