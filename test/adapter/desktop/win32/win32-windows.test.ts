/**
 * The Windows window tools (win32-windows.ts). Here: the Node side against a stand-in that
 * speaks user32-script.ts's lines over a table of windows. On Windows (the workflow's runner):
 * the real script against a real window (a Windows Forms form PowerShell shows).
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PowerShellSession } from '../../../../adapter/os/powershell-session.js';
import { Win32Windows } from '../../../../adapter/desktop/win32/win32-windows.js';
import { alive } from '../../../helpers/proc.js';
import { makeTempDir, removeDir } from '../../../helpers/temp.js';
import { near, showForm } from '../../../helpers/windows-form.js';

/** Two windows; each request is logged; a window shows a state change 100 ms after it is asked. */
const STAND_IN = String.raw`
const fs = require('node:fs');
const log = process.argv[1];
const windows = [
  { id: 65794, pid: 4242, app: 'notepad', title: 'Notes \u2013 caf\u00e9', b: [10, 20, 800, 600], fg: true, min: false, max: false },
  { id: 131330, pid: 4343, app: 'explorer', title: 'Downloads', b: [100, 120, 640, 480], fg: false, min: false, max: false },
];
const later = (fn) => setTimeout(fn, 100);
require('node:readline').createInterface({ input: process.stdin }).on('line', (line) => {
  fs.appendFileSync(log, line + '\n');
  const [op, id, ...rest] = line.split(' ');
  if (op === 'list') return process.stdout.write(JSON.stringify({ windows }) + '\r\n');
  const w = windows.find((x) => String(x.id) === id);
  if (!w) return process.stdout.write('{"error":"NOT_FOUND"}\r\n');
  if (op === 'minimize') later(() => { w.min = true; w.b = null; });
  if (op === 'place') later(() => { rest.forEach((v, i) => { if (v !== '-') w.b[i] = Number(v); }); });
  if (op === 'close' && id === '131330') later(() => windows.splice(windows.indexOf(w), 1));
  if (op === 'maximize') { process.stdout.write('{"error":"failed","message":"Access is denied"}\r\n'); return; }
  process.stdout.write('{"ok":true}\r\n');
});`;

describe.skipIf(process.platform === 'win32')('Windows window tools, against a stand-in for their PowerShell', () => {
  let dir: string;
  let log: string;
  let windows: Win32Windows;
  beforeAll(() => {
    dir = makeTempDir('win32-windows-');
    log = path.join(dir, 'requests');
    windows = new Win32Windows(new PowerShellSession('the window tools', { command: process.execPath, args: ['-e', STAND_IN, log] }, 5000));
  });
  afterAll(() => {
    windows.close();
    removeDir(dir);
  });
  const sent = () => fs.readFileSync(log, 'utf8').trim().split('\n');

  it('lists windows with their handle as id, non-ASCII titles intact, and no bounds while minimized', async () => {
    expect(await windows.list('window.list')).toEqual([
      {
        id: '65794',
        app: 'notepad',
        title: 'Notes – café',
        pid: 4242,
        bounds: { x: 10, y: 20, width: 800, height: 600 },
        focused: true,
        minimized: false,
        maximized: false,
      },
      {
        id: '131330',
        app: 'explorer',
        title: 'Downloads',
        pid: 4343,
        bounds: { x: 100, y: 120, width: 640, height: 480 },
        focused: false,
        minimized: false,
        maximized: false,
      },
    ]);
  });

  it('acts only on a listed window, and waits until the window shows the action', async () => {
    fs.writeFileSync(log, '');
    await expect(windows.act('999', 'close', 'window.close')).rejects.toMatchObject({ code: 'NOT_FOUND', message: expect.stringContaining('no window 999') });
    // An id that is not a handle is never sent as part of a request line.
    await expect(windows.act('65794 close', 'minimize', 'window.minimize')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(sent()).toEqual(['list', 'list']);
    await windows.act('65794', 'minimize', 'window.minimize');
    expect(sent().slice(2, 4)).toEqual(['list', 'minimize 65794']);
    expect((await windows.list('window.list')).find((w) => w.id === '65794')).toMatchObject({ minimized: true, bounds: null });
  });

  it('sends "-" for what a move or resize leaves as it is, and rounds the rest', async () => {
    fs.writeFileSync(log, '');
    await windows.moveResize('131330', { x: 50, width: 700.4 }, 'window.move_resize');
    expect(sent()).toContain('place 131330 50 - 700 -');
    expect((await windows.list('window.list')).find((w) => w.id === '131330')?.bounds).toEqual({ x: 50, y: 120, width: 700, height: 480 });
  });

  it("passes the script's failure on as OS_ERROR, and a closed window is gone from the list", async () => {
    await expect(windows.act('131330', 'maximize', 'window.maximize')).rejects.toMatchObject({
      code: 'OS_ERROR',
      message: 'the window tools failed: Access is denied',
    });
    await windows.act('131330', 'close', 'window.close');
    expect((await windows.list('window.list')).map((w) => w.id)).toEqual(['65794']);
  });
});

describe.runIf(process.platform === 'win32')('Windows window tools on Windows', () => {
  let dir: string;
  let windows: Win32Windows;
  let form: ChildProcess;
  const title = `chatgpt-mcp window test ${process.pid}`;
  beforeAll(() => {
    dir = makeTempDir('win32-windows-');
    form = showForm(title, path.join(dir, 'mark'));
    windows = new Win32Windows();
  });
  afterAll(() => {
    windows.close();
    form.kill();
    removeDir(dir);
  });

  const ours = async () => (await windows.list('window.list')).find((w) => w.title === title);

  it('lists, moves, resizes, minimizes, restores, maximizes, focuses and closes a real window', { timeout: 120_000 }, async () => {
    await vi.waitFor(async () => expect(await ours()).toBeDefined(), { timeout: 60_000, interval: 500 });
    const window = (await ours())!;
    expect(window).toMatchObject({ app: 'powershell', pid: form.pid, minimized: false, maximized: false });
    expect(window.bounds!.width).toBeGreaterThan(100);

    await windows.moveResize(window.id, { x: 300, y: 200, width: 640, height: 400 }, 'window.move_resize');
    expect(near((await ours())!.bounds, { x: 300, y: 200, width: 640, height: 400 })).toBe(true);

    await windows.act(window.id, 'minimize', 'window.minimize');
    expect(await ours()).toMatchObject({ minimized: true, bounds: null });
    await windows.act(window.id, 'restore', 'window.restore');
    expect(await ours()).toMatchObject({ minimized: false, maximized: false });
    expect(near((await ours())!.bounds, { x: 300, y: 200, width: 640, height: 400 })).toBe(true);
    await windows.act(window.id, 'maximize', 'window.maximize');
    expect(await ours()).toMatchObject({ maximized: true });
    await windows.act(window.id, 'restore', 'window.restore');
    await windows.act(window.id, 'focus', 'window.focus');
    expect(await ours()).toMatchObject({ focused: true });

    await windows.act(window.id, 'close', 'window.close');
    expect(await ours()).toBeUndefined();
    await vi.waitFor(() => expect(alive(form.pid!)).toBe(false), { timeout: 10_000 });
  });
});
