/**
 * The portal backend on a real GNOME compositor: mutter headless with a virtual monitor, the
 * real xdg-desktop-portal and its GNOME backend on a private session bus, as an unprivileged
 * user, a foot window that records its input, and the built CLI over stdio. The owner's answer
 * to the portal's consent dialog is given through AT-SPI (fixtures/answer-portal-dialog.mjs),
 * as a person's click would be. Captures need gnome-shell: wayland-gnome-shell-capture.test.ts.
 * What this machine cannot show is in docs/DESKTOP.md: the restore token (Debian's
 * xdg-desktop-portal-gnome 43 hands out none for remote desktop sessions; the stand-in test
 * covers that path).
 */
import { spawn, spawnSync, type StdioOptions } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ChildProcess } from 'node:child_process';
import type { Client } from '@modelcontextprotocol/client';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { connectAsSessionUser, sessionConfig } from '../adapter/desktop/fixtures/session-user.js';
import { missingGnomePrereq, startGnome, type Gnome } from '../adapter/desktop/fixtures/gnome.js';
import { skipDesktop, stopProcess } from '../adapter/desktop/fixtures/xvfb.js';

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');
const missing = missingGnomePrereq();

describe.skipIf(skipDesktop(missing, 'GNOME portal tests'))('input through the RemoteDesktop portal on mutter headless (GNOME)', () => {
  let gnome: Gnome;
  let foot: ChildProcess;
  let log: string;
  let config: string;
  const clients: Client[] = [];

  const connect = async () => {
    const client = await connectAsSessionUser(gnome, config, 'gnome-test');
    clients.push(client);
    return client;
  };
  const call = async (client: Client, name: string, args: Record<string, unknown> = {}) => {
    const result = await client.callTool({ name, arguments: args });
    const text = ((result.content ?? []) as Array<{ type: string; text?: string }>).find((c) => c.type === 'text')?.text ?? '';
    return { isError: result.isError === true, text, structured: result.structuredContent as Record<string, unknown> };
  };
  /** Answers the dialog the next call raises, as the owner would. */
  const answer = (deny = false) =>
    new Promise<string>((resolve) => {
      const how = gnome.as(process.execPath, [path.join(FIXTURES, 'answer-portal-dialog.mjs'), ...(deny ? ['--deny'] : [])]);
      const child = spawn(how.command, how.args, { env: gnome.env, stdio: ['ignore', 'pipe', 'ignore'] });
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      child.on('exit', () => resolve(out.trim()));
    });
  const logged = () => fs.readFileSync(log, 'utf8');

  beforeAll(async () => {
    if (missing) throw new Error(`REQUIRE_DESKTOP_TESTS=1 but ${missing}`);
    gnome = await startGnome(1024, 768);
    log = path.join(gnome.home, 'input.log');
    foot = gnome.run('foot', ['python3', path.join(FIXTURES, 'input-log.py'), log]);
    for (let i = 0; i < 100 && !(fs.existsSync(log) && logged().includes('READY')); i++) await new Promise((resolve) => setTimeout(resolve, 100));
    if (!fs.existsSync(log)) throw new Error('the foot window did not start its input recorder');
    config = sessionConfig(gnome, { hostDisplayAccess: true, screen: true, input: true, clipboardRead: true });
  }, 150_000);

  afterAll(async () => {
    for (const client of clients) await client.close();
    if (foot) await stopProcess(foot);
    await gnome?.stop();
  });

  test('system.info names the portal backend, and nothing is granted before the first call', async () => {
    const client = await connect();
    const info = await call(client, 'system_info');
    expect(info.structured.desktop).toMatchObject({
      backend: 'wayland-portal',
      granted: expect.stringMatching(/^not yet: the first screen or input call shows/),
    });
  });

  test("the owner's no in the dialog refuses the call; a yes lets clicks and keys land in the window", async () => {
    const client = clients[0] ?? (await connect());
    const [refused, denied] = await Promise.all([call(client, 'input_click', { x: 512, y: 384 }), answer(true)]);
    expect(denied).toBe('cancelled');
    expect(refused).toMatchObject({ isError: true, text: expect.stringMatching(/^CAPABILITY_DISABLED: the owner declined the portal's Start request/) });

    // the call that raised the dialog may act while the dialog still has the focus: act again once it has gone
    const [first, shared] = await Promise.all([call(client, 'input_move', { x: 512, y: 384 }), answer()]);
    expect(shared).toBe('shared');
    expect(first.isError, first.text).toBe(false);
    expect((await call(client, 'screen_displays')).structured).toMatchObject({ desktop: { width: 1024, height: 768 }, backend: { name: 'wayland-portal' } });
    // mutter opens foot in the middle of the screen
    expect((await call(client, 'input_click', { x: 512, y: 384 })).isError).toBe(false);
    await expect.poll(() => /\x1b\[<0;\d+;\d+M\x1b\[<0;\d+;\d+m/.test(logged()), { timeout: 10_000 }).toBe(true);
    const before = logged().length;
    expect((await call(client, 'input_type', { text: 'Hello, World! 123' })).isError).toBe(false);
    expect((await call(client, 'input_key', { keys: 'enter' })).isError).toBe(false);
    await expect.poll(() => logged().slice(before), { timeout: 5000 }).toBe('Hello, World! 123\r');
  });

  // after the input test: a headless mutter's seat has a keyboard only once the remote desktop session made one
  test("the clipboard through wl-clipboard: the desktop's own clipboard, text and images, both ways", async () => {
    const client = clients[0]!;
    // wl-copy stays behind to serve what it copied: no pipe of its may be waited on
    const user = (command: string, args: string[], input?: Buffer) => {
      const how = gnome.as(command, args);
      const stdio: StdioOptions = [input ? 'pipe' : 'ignore', command === 'wl-paste' ? 'pipe' : 'ignore', 'ignore'];
      return spawnSync(how.command, how.args, { env: gnome.env, input, timeout: 10_000, stdio });
    };
    const info = await call(client, 'system_info');
    expect((info.structured.desktop as { limits: string[] }).limits.join(' ')).toMatch(/briefly maps a small surface of wl-clipboard/);

    const text = 'héllo wörld ✓ from the server';
    expect((await call(client, 'clipboard_write', { text })).isError).toBe(false);
    expect(user('wl-paste', ['--no-newline']).stdout.toString('utf8')).toBe(text);
    // what an app pastes is what the server wrote (foot pastes with ctrl+shift+v)
    const before = logged().length;
    expect((await call(client, 'input_key', { keys: 'ctrl+shift+v' })).isError).toBe(false);
    await expect.poll(() => logged().slice(before), { timeout: 5000 }).toBe(text);

    expect(user('wl-copy', [], Buffer.from('copied in the session: 日本')).status).toBe(0);
    await expect.poll(async () => (await call(client, 'clipboard_read')).structured.text, { timeout: 5000 }).toBe('copied in the session: 日本');
    const png = await sharp({ create: { width: 6, height: 4, channels: 3, background: { r: 1, g: 2, b: 3 } } })
      .png()
      .toBuffer();
    expect((await call(client, 'clipboard_write', { imagePng: png.toString('base64') })).isError).toBe(false);
    expect(Buffer.compare(user('wl-paste', ['--type', 'image/png']).stdout, png)).toBe(0);
    await expect.poll(async () => (await call(client, 'clipboard_read', { prefer: 'image' })).structured.kind, { timeout: 5000 }).toBe('image');
  });
});
