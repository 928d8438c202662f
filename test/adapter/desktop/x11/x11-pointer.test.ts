/**
 * The in-process pointer against real Xvfb servers, driven as the desktop client drives it
 * (PointerControl over it): moves and reads checked with xdotool (an independent Xlib client),
 * coordinate spaces and bounds, a display that wants a cookie, a root window resized by RandR,
 * and an X server that dies.
 */
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { DisplayLayout } from '../../../../adapter/desktop/display-layout.js';
import { PointerControl } from '../../../../adapter/desktop/pointer-control.js';
import { X11Pointer } from '../../../../adapter/desktop/x11/x11-pointer.js';
import { makeTempDir, removeDir } from '../../../helpers/temp.js';
import { missingDesktopPrereq, onPath, skipDesktop, startXvfb, type Xvfb } from '../fixtures/xvfb.js';

const missing = missingDesktopPrereq() ?? (onPath('xdotool') ? undefined : 'xdotool is not installed (apt-get install xdotool)');

/** The pointer on the display `env` names, with results that say the display, as the desktop client has it. */
async function controlled(env: NodeJS.ProcessEnv): Promise<PointerControl<X11Pointer>> {
  const layout = new DisplayLayout('linux', env);
  return new PointerControl(await X11Pointer.connect(env, 5000), { displays: (desktop) => layout.of(desktop, 1) });
}

const where = (display: string, env: NodeJS.ProcessEnv = {}) => {
  const run = spawnSync('xdotool', ['getmouselocation', '--shell'], { env: { ...process.env, ...env, DISPLAY: display }, encoding: 'utf8' });
  const x = /X=(\d+)/.exec(run.stdout)?.[1];
  const y = /Y=(\d+)/.exec(run.stdout)?.[1];
  return { x: Number(x), y: Number(y) };
};

describe.skipIf(skipDesktop(missing, 'in-process X11 pointer tests'))('X11Pointer on a real display', () => {
  let xvfb: Xvfb;
  let home: string;
  const pointers: PointerControl<X11Pointer>[] = [];
  const connect = async (env: NodeJS.ProcessEnv = { HOME: home, DISPLAY: xvfb.display }) => {
    const pointer = await controlled(env);
    pointers.push(pointer);
    return pointer;
  };

  beforeAll(async () => {
    if (missing) throw new Error(`REQUIRE_DESKTOP_TESTS=1 but ${missing}`);
    xvfb = await startXvfb(1280, 800);
    home = makeTempDir('x11-pointer-home-');
  });
  afterEach(() => {
    for (const pointer of pointers.splice(0)) pointer.pointer.close();
  });
  afterAll(async () => {
    await xvfb?.stop();
    if (home) removeDir(home);
  });

  test('moves the pointer where asked and reads it back, as another X client sees it', async () => {
    const pointer = await connect();
    expect(await pointer.pointer.desktop()).toEqual({ width: 1280, height: 800 });
    expect(await pointer.move({ x: 321, y: 654 }, 'input.move')).toEqual({ x: 321, y: 654, display: 0 });
    expect(where(xvfb.display)).toEqual({ x: 321, y: 654 });
    spawnSync('xdotool', ['mousemove', '17', '23'], { env: { ...process.env, DISPLAY: xvfb.display } });
    expect(await pointer.position('input.cursor')).toEqual({ x: 17, y: 23, display: 0 });
  });

  test('a point in a space lands where the worker would put it; a point outside moves nothing', async () => {
    const pointer = await connect();
    // a 640x400 image of the whole desktop: each unit is 2x2 physical pixels
    expect(await pointer.move({ x: 639, y: 399, space: { width: 640, height: 400 } }, 'input.move')).toMatchObject({ x: 1278, y: 798 });
    const before = where(xvfb.display);
    await expect(pointer.move({ x: 1280, y: 10 }, 'input.move')).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: 'x=1280 is outside the 1280x800 screen (valid x: 0 to 1279)',
    });
    await expect(pointer.move({ x: Number.NaN, y: 10 }, 'input.move')).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    expect(where(xvfb.display)).toEqual(before);
  });

  test('moves in turn sent in one write answer each point reached, and stop before a point outside', async () => {
    const pointer = await connect();
    // Every write to the X server's socket (one writev for corked writes).
    const socket = (pointer.pointer as unknown as { connection: { socket: Record<string, (...args: unknown[]) => unknown> } }).connection.socket;
    let writes = 0;
    for (const method of ['_write', '_writev']) {
      const original = socket[method]!;
      socket[method] = (...args: unknown[]) => (writes++, original.apply(socket, args));
    }
    const targets = [
      { x: 10, y: 20 },
      { x: 639, y: 399, space: { width: 640, height: 400 } },
      { x: 700, y: 500 },
    ];
    expect(await pointer.moveEach(targets, 'input.move')).toEqual({
      reached: [
        { x: 10, y: 20, display: 0 },
        { x: 1278, y: 798, display: 0 },
        { x: 700, y: 500, display: 0 },
      ],
    });
    expect(writes).toBe(1);
    expect(where(xvfb.display)).toEqual({ x: 700, y: 500 });
    // The third is outside: the first two are made, the third refused as input.move refuses it, nothing after it.
    const refused = await pointer.moveEach(
      [
        { x: 5, y: 5 },
        { x: 6, y: 6 },
        { x: 1280, y: 1 },
        { x: 7, y: 7 },
      ],
      'input.move',
    );
    expect(refused.reached).toEqual([
      { x: 5, y: 5, display: 0 },
      { x: 6, y: 6, display: 0 },
    ]);
    expect(refused.failure).toMatchObject({ code: 'INVALID_INPUT', message: 'x=1280 is outside the 1280x800 screen (valid x: 0 to 1279)' });
    expect(where(xvfb.display)).toEqual({ x: 6, y: 6 });
  });

  test('the X server keeps the timing of the plan: clicks 30 ms apart, wheel clicks 8 ms, drag pauses', async () => {
    const pointer = await connect();
    const timed = async (run: () => Promise<unknown>) => {
      const started = performance.now();
      await run();
      return performance.now() - started;
    };
    expect(await timed(() => pointer.click({ x: 100, y: 100 }, 'left', 3, [], 'input.click'))).toBeGreaterThanOrEqual(59);
    expect(await timed(() => pointer.scroll(undefined, { x: 0, y: 6 }, 'input.scroll'))).toBeGreaterThanOrEqual(39);
    // 0,0 -> 100,0 is 5 steps of 20 px: 5 pauses before the moves and one before the release
    const drag = await timed(() =>
      pointer.drag(
        [
          { x: 0, y: 0 },
          { x: 100, y: 0 },
        ],
        'left',
        25,
        'input.drag',
      ),
    );
    expect(drag).toBeGreaterThanOrEqual(149);
    expect(where(xvfb.display)).toEqual({ x: 100, y: 0 });
  });

  test('many calls at once are all answered, each with its own reply', async () => {
    const pointer = await connect();
    const points = Array.from({ length: 50 }, (_, i) => ({ x: 10 + i * 7, y: 5 + i * 3 }));
    const results = await Promise.all(points.map((p) => pointer.move(p, 'input.move')));
    expect(results.map(({ x, y }) => ({ x, y }))).toEqual(points);
  });

  test.skipIf(!onPath('xrandr'))('sees the root window resized by RandR at once', async () => {
    const resized = await startXvfb(1280, 800);
    try {
      const pointer = await connect({ HOME: home, DISPLAY: resized.display });
      // Xvfb shrinks the root even though it then cannot fit its one output (xrandr exits 1)
      spawnSync('xrandr', ['--fb', '1024x768'], { env: { ...process.env, DISPLAY: resized.display } });
      await expect.poll(() => pointer.pointer.desktop(), { timeout: 2000 }).toEqual({ width: 1024, height: 768 });
      await expect(pointer.move({ x: 1100, y: 10 }, 'input.move')).rejects.toMatchObject({ message: /outside the 1024x768 screen/ });
      expect(await pointer.move({ x: 1023, y: 767 }, 'input.move')).toMatchObject({ x: 1023, y: 767 });
    } finally {
      await resized.stop();
    }
  });

  test.skipIf(!onPath('xauth'))('a display that wants a cookie: connects with the one in XAUTHORITY, is refused without', async () => {
    const dir = makeTempDir('x11-auth-');
    const cookie = crypto.randomBytes(16).toString('hex');
    const xauth = (file: string, display: string) => expect(spawnSync('xauth', ['-f', file, 'add', display, '.', cookie], { encoding: 'utf8' }).status).toBe(0);
    const serverAuth = path.join(dir, 'server');
    xauth(serverAuth, ':0'); // the server takes every cookie in its file, whatever the number
    const locked = await startXvfb(800, 600, ['-auth', serverAuth]);
    try {
      const clientAuth = path.join(dir, 'client');
      xauth(clientAuth, locked.display);
      const pointer = await connect({ DISPLAY: locked.display, XAUTHORITY: clientAuth });
      expect(await pointer.move({ x: 400, y: 300 }, 'input.move')).toMatchObject({ x: 400, y: 300 });
      expect(where(locked.display, { XAUTHORITY: clientAuth })).toEqual({ x: 400, y: 300 });

      const refused = X11Pointer.connect({ DISPLAY: locked.display, XAUTHORITY: path.join(dir, 'none') }, 5000);
      await expect(refused).rejects.toThrow(/the X server refused the connection: .*authorization/i);
      await expect(refused).rejects.not.toThrow(new RegExp(cookie));
    } finally {
      await locked.stop();
      removeDir(dir);
    }
  });

  test('an X server that goes away fails the call in flight and closes the pointer, with the reason', async () => {
    const doomed = await startXvfb(640, 480);
    const pointer = await connect({ HOME: home, DISPLAY: doomed.display });
    expect(await pointer.position('input.cursor')).toMatchObject({ display: 0 });
    await doomed.stop();
    await expect(pointer.position('input.cursor')).rejects.toMatchObject({
      code: 'OS_ERROR',
      message: /input\.cursor failed: the X (server closed|connection)/,
    });
    expect(pointer.pointer.closed).toBe(true);
  });

  test('refuses what it must not use: a remote display, a display with no server', async () => {
    await expect(X11Pointer.connect({ DISPLAY: 'localhost:10.0' }, 1000)).rejects.toThrow('DISPLAY=localhost:10.0 is not a local X display');
    await expect(X11Pointer.connect({ DISPLAY: ':31999' }, 1000)).rejects.toThrow('/tmp/.X11-unix/X31999 does not exist');
  });
});
