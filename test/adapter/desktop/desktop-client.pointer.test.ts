/**
 * The desktop client moves and reads the pointer itself on a local X display (Xvfb here), in
 * order with the calls its worker runs (the scripted stand-in worker, whose answers say it
 * answered), and falls back to the worker when the display cannot be used.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { DesktopClient, type DesktopClientOptions } from '../../../adapter/desktop/desktop-client.js';
import { missingDesktopPrereq, onPath, skipDesktop, startXvfb, type Xvfb } from './fixtures/xvfb.js';

const FAKE_WORKER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures/fake-worker.mjs');
const missing = missingDesktopPrereq() ?? (onPath('xdotool') ? undefined : 'xdotool is not installed (apt-get install xdotool)');

describe.skipIf(skipDesktop(missing, 'in-process pointer client tests'))('the desktop client and the in-process pointer', () => {
  let xvfb: Xvfb;
  const clients: DesktopClient[] = [];
  const client = (mode: string, options: DesktopClientOptions = {}, display?: string) => {
    const made = new DesktopClient({
      workerPath: FAKE_WORKER,
      platform: 'linux',
      env: { PATH: process.env.PATH, DISPLAY: display ?? xvfb.display, FAKE_WORKER_MODE: mode },
      ...options,
    });
    clients.push(made);
    return made;
  };
  const pointerAt = () => spawnSync('xdotool', ['getmouselocation', '--shell'], { env: { ...process.env, DISPLAY: xvfb.display }, encoding: 'utf8' }).stdout;

  beforeAll(async () => {
    if (missing) throw new Error(`REQUIRE_DESKTOP_TESTS=1 but ${missing}`);
    xvfb = await startXvfb(1280, 800);
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
  });
  afterAll(async () => {
    await xvfb?.stop();
  });

  test('moves and reads the pointer without starting a worker', async () => {
    const desktop = client('echo');
    expect(await desktop.moveMouse({ x: 111, y: 222 })).toEqual({ x: 111, y: 222, display: 0 });
    expect(pointerAt()).toMatch(/X=111\nY=222/);
    expect(await desktop.cursor()).toEqual({ x: 111, y: 222, display: 0 });
    expect(desktop.workerPid).toBeUndefined();
  });

  test('runs in call order with worker calls: after the ones before it, before the ones after it', async () => {
    const desktop = client('slow'); // the stand-in answers each call after 300 ms
    const order: string[] = [];
    const track = <T>(name: string, promise: Promise<T>) => promise.then((value) => (order.push(name), value));
    await desktop.moveMouse({ x: 5, y: 5 });
    const calls = [
      track('worker 1', desktop.screenSize()),
      track('move', desktop.moveMouse({ x: 400, y: 300 })),
      track('worker 2', desktop.screenSize()),
      track('cursor', desktop.cursor()),
    ];
    // while the first worker call runs, the pointer has not moved yet
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(pointerAt()).toMatch(/X=5\nY=5/);
    await Promise.all(calls);
    expect(order).toEqual(['worker 1', 'move', 'worker 2', 'cursor']);
    expect(await calls[3]).toEqual({ x: 400, y: 300, display: 0 });
  });

  test("buttons, the wheel and drags are sent here; modifiers and elements are the worker's", async () => {
    const desktop = client('echo');
    expect(await desktop.click({ target: { x: 50, y: 60 }, button: 'right', clicks: 2, modifiers: [] })).toEqual({
      x: 50,
      y: 60,
      display: 0,
      button: 'right',
      clicks: 2,
      modifiers: [],
    });
    expect(await desktop.scroll({ dx: 0, dy: -2, unit: 'clicks' })).toEqual({ x: 50, y: 60, display: 0, clicks: { x: 0, y: -2 } });
    expect(await desktop.mouseButton({ action: 'down', button: 'left' })).toEqual({ x: 50, y: 60, display: 0, action: 'down', button: 'left' });
    expect(await desktop.mouseButton({ action: 'up', target: { x: 70, y: 80 }, button: 'left' })).toMatchObject({ x: 70, y: 80, action: 'up' });
    const drag = await desktop.drag({
      path: [
        { x: 10, y: 10 },
        { x: 90, y: 10 },
      ],
      button: 'left',
      stepDelayMs: 0,
    });
    expect(drag).toMatchObject({
      path: [
        { x: 10, y: 10 },
        { x: 90, y: 10 },
      ],
      start: { x: 10, display: 0 },
      end: { x: 90, display: 0 },
    });
    expect(pointerAt()).toMatch(/X=90\nY=10/);
    expect(desktop.workerPid).toBeUndefined();

    expect(await desktop.click({ target: { x: 5, y: 5 }, button: 'left', clicks: 1, modifiers: ['ctrl'] })).toMatchObject({ op: 'click' });
    await expect(
      desktop.click({ target: { element: 'e1', snapshotHandle: 'snap_AAAAAAAAAAAAAAAA' }, button: 'left', clicks: 1, modifiers: [] }),
    ).rejects.toMatchObject({
      code: 'NOT_FOUND',
    }); // an element is resolved first, and then only the worker can act on it
  });

  test('without XTest on the X server, buttons go to the worker and the pointer still moves here', async () => {
    const plain = await startXvfb(640, 480, ['-extension', 'XTEST']);
    try {
      const desktop = client('echo', {}, plain.display);
      expect(await desktop.click({ target: { x: 5, y: 5 }, button: 'left', clicks: 1, modifiers: [] })).toMatchObject({ op: 'click' });
      expect(await desktop.moveMouse({ x: 7, y: 9 })).toEqual({ x: 7, y: 9, display: 0 });
    } finally {
      await plain.stop();
    }
  });

  test('close() stops a pointer call still waiting for its turn: it fails and nothing moves', async () => {
    const desktop = client('slow');
    await desktop.moveMouse({ x: 3, y: 4 });
    const first = desktop.screenSize(); // 300 ms in the stand-in worker
    const queued = desktop.moveMouse({ x: 500, y: 400 }).catch((error: Error) => error);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await desktop.close();
    await first.catch(() => undefined);
    expect(await queued).toMatchObject({ code: 'OS_ERROR', message: 'input.move was not run: the desktop adapter was closed while it waited' });
    expect(pointerAt()).toMatch(/X=3\nY=4/);
  });

  test('a display whose socket another user owns is refused outright: neither we nor the worker send it our cookie', async () => {
    const socketPath = '/tmp/.X11-unix/X31998';
    const server = net.createServer().listen(socketPath);
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      if (process.getuid?.() === 0) fs.chownSync(socketPath, 4242, 4242);
      else return; // only root can hand a socket to another user; x11-address.test.ts covers the check itself
      const desktop = client('echo', {}, ':31998');
      for (const call of [desktop.moveMouse({ x: 1, y: 1 }), desktop.screenSize(), desktop.pressKeys('a')]) {
        await expect(call).rejects.toMatchObject({ code: 'OS_ERROR', message: /^refusing DISPLAY=:31998: \/tmp\/\.X11-unix\/X31998 belongs to another user/ });
      }
      expect(desktop.workerPid).toBeUndefined();
    } finally {
      server.close();
      fs.rmSync(socketPath, { force: true });
    }
  });

  test('a refused point is refused here, and later calls still run', async () => {
    const desktop = client('echo');
    await expect(desktop.moveMouse({ x: 5000, y: 0 })).rejects.toMatchObject({ code: 'INVALID_INPUT', operation: 'input.move' });
    expect(await desktop.moveMouse({ x: 9, y: 8 })).toMatchObject({ x: 9, y: 8 });
  });

  test('the worker moves the pointer when the display is not a usable local one, or when asked to', async () => {
    const noServer = client('echo', {}, ':31999');
    expect(await noServer.moveMouse({ x: 1, y: 2 })).toMatchObject({ op: 'moveMouse', args: [{ x: 1, y: 2 }] });
    expect(await noServer.cursor()).toMatchObject({ op: 'cursor' }); // no new try within the retry pause
    const remote = client('echo', {}, 'localhost:10.0');
    expect(await remote.cursor()).toMatchObject({ op: 'cursor' });
    const off = client('echo', { inProcessPointer: false });
    expect(await off.moveMouse({ x: 1, y: 2 })).toMatchObject({ op: 'moveMouse' });
    // Moves made together are the worker's one at a time there.
    const moves = await off.moveMouseMany([
      { x: 1, y: 2 },
      { x: 3, y: 4 },
    ]);
    expect(moves.reached).toMatchObject([
      { op: 'moveMouse', args: [{ x: 1, y: 2 }] },
      { op: 'moveMouse', args: [{ x: 3, y: 4 }] },
    ]);
    expect(await noServer.moveMouseMany([{ x: 5, y: 6 }])).toMatchObject({ reached: [{ op: 'moveMouse', args: [{ x: 5, y: 6 }] }] });
  });

  test('moves made together here, in order with the worker calls, stop at a refused point', async () => {
    const desktop = client('echo');
    const moves = await desktop.moveMouseMany([
      { x: 30, y: 40 },
      { x: 5000, y: 0 },
      { x: 50, y: 60 },
    ]);
    expect(moves.reached).toEqual([{ x: 30, y: 40, display: 0 }]);
    expect(moves.failure).toMatchObject({ code: 'INVALID_INPUT', operation: 'input.move' });
    expect(pointerAt()).toMatch(/X=30\nY=40\n/);
    expect(desktop.workerPid).toBeUndefined();
  });

  test('after the X server went away the calls go to the worker (which reports what it finds there)', async () => {
    const doomed = await startXvfb(640, 480);
    const desktop = client('echo', {}, doomed.display);
    expect(await desktop.cursor()).toMatchObject({ display: 0 });
    expect(desktop.workerPid).toBeUndefined();
    await doomed.stop();
    expect(await desktop.cursor()).toMatchObject({ op: 'cursor' });
    expect(await desktop.moveMouse({ x: 1, y: 1 })).toMatchObject({ op: 'moveMouse' });
  });
});
