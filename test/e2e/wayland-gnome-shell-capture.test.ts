/**
 * Captures through the Screenshot portal on a real GNOME Shell: gnome-shell headless with a
 * virtual monitor, the real xdg-desktop-portal and its GNOME backend on a private session bus, as
 * an unprivileged user, a foot window painted one colour, and the built CLI over stdio. The
 * portal asks the owner "Allow Applications to Take Screenshots?" once and keeps the answer in
 * its permission store; the test writes that answer there (fixtures/remember-screenshots.mjs), as
 * the desktop does after the owner clicked. The remote desktop dialog, which the backend's first
 * call raises for the screen's layout, is answered through AT-SPI as in wayland-gnome-portal.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ChildProcess } from 'node:child_process';
import sharp from 'sharp';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { connectAsSessionUser, sessionConfig } from '../adapter/desktop/fixtures/session-user.js';
import { missingGnomePrereq, startGnome, type Gnome } from '../adapter/desktop/fixtures/gnome.js';
import { skipDesktop, stopProcess } from '../adapter/desktop/fixtures/xvfb.js';

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');
const missing = missingGnomePrereq({ shell: true });
const TEAL = [12, 200, 180];

describe.skipIf(skipDesktop(missing, 'GNOME Shell capture tests'))('screen.capture through the Screenshot portal on GNOME Shell headless', () => {
  let gnome: Gnome;
  let foot: ChildProcess;
  let client: Client;

  /** Runs a fixture script as the session's user; resolves with what it printed. */
  const fixture = (name: string, ...args: string[]) =>
    new Promise<string>((resolve) => {
      const how = gnome.as(process.execPath, [path.join(FIXTURES, name), ...args]);
      const child = spawn(how.command, how.args, { env: gnome.env, stdio: ['ignore', 'pipe', 'ignore'] });
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      const stuck = setTimeout(() => child.kill('SIGKILL'), 60_000); // an AT-SPI call to a busy shell may never answer
      child.on('exit', () => {
        clearTimeout(stuck);
        resolve(out.trim() || 'killed after 60 s');
      });
    });
  const capture = async () => {
    const result = await client.callTool({ name: 'screen_capture', arguments: {} }, { timeout: 60_000 });
    const content = (result.content ?? []) as Array<{ type: string; text?: string; data?: string }>;
    return { isError: result.isError === true, text: content.find((c) => c.type === 'text')?.text ?? '', image: content.find((c) => c.type === 'image')?.data };
  };

  beforeAll(async () => {
    if (missing) throw new Error(`REQUIRE_DESKTOP_TESTS=1 but ${missing}`);
    gnome = await startGnome(1024, 768, { shell: true });
    // the terminal's whole area in one colour: erasing the screen paints it with the background set
    foot = gnome.run('foot', ['sh', '-c', `printf '\\033[48;2;${TEAL.join(';')}m\\033[2J'; exec sleep 600`]);
    client = await connectAsSessionUser(gnome, sessionConfig(gnome, { hostDisplayAccess: true, screen: true, input: true }), 'gnome-shell-test');
  }, 150_000);

  afterAll(async () => {
    await client?.close();
    if (foot) await stopProcess(foot);
    await gnome?.stop();
  });

  test("with screenshots allowed, a capture shows the window's pixels", { timeout: 90_000 }, async () => {
    expect(await fixture('remember-screenshots.mjs', 'yes')).toBe('yes');
    // the first call starts the remote desktop session for the screen's layout: its dialog is answered
    const [shot, shared] = await Promise.all([capture(), fixture('answer-portal-dialog.mjs')]);
    expect(shared).toBe('shared');
    expect(shot.isError, shot.text).toBe(false);
    const { data, info } = await sharp(Buffer.from(shot.image!, 'base64')).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([1024, 768]);
    let teal = 0;
    for (let i = 0; i < data.length; i += info.channels) {
      if (TEAL.every((value, c) => Math.abs(data[i + c]! - value) <= 6)) teal++;
    }
    // foot's window, shrunk in the overview gnome-shell starts in, is about a third of the screen
    expect(teal / (info.width * info.height)).toBeGreaterThan(0.15);
  });

  test('with screenshots denied (the remembered answer), a capture is refused saying where that answer is kept', async () => {
    expect(await fixture('remember-screenshots.mjs', 'no')).toBe('no');
    const refused = await capture();
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(/^OS_ERROR: the Screenshot portal refused the capture \(response 2\)\. On GNOME .*"Allow Applications to Take Screenshots\?"/);
    expect(refused.image).toBeUndefined();
  });
});
