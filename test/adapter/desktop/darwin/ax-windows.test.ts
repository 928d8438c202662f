/**
 * The macOS window tools (ax-windows.ts). Here: the Node side against a stand-in for the
 * osascript run (its answers as the script prints them), and the script itself against a
 * stand-in for System Events and the window server (jxa-world.ts). On macOS (the workflow's
 * runner): the real script against a real window, when the runner grants the Accessibility
 * access it needs.
 */
import { describe, expect, it, vi } from 'vitest';
import { AX_WINDOWS_SCRIPT, AxWindows } from '../../../../adapter/desktop/darwin/ax-windows.js';
import type { runJxa } from '../../../../adapter/desktop/darwin/jxa.js';
import { useMacWindow } from '../../../helpers/mac-window.js';
import { alive } from '../../../helpers/proc.js';
import { jxaDefinesRun } from '../../../helpers/jxa-script.js';
import { runInMacWorld, type MacWorld } from '../../../helpers/jxa-world.js';

it('its script parses as JXA and defines run', () => {
  expect(jxaDefinesRun(AX_WINDOWS_SCRIPT)).toBe(true);
  expect(() => jxaDefinesRun(AX_WINDOWS_SCRIPT.replace('function run(argv) {', 'function run(argv) {{'))).toThrow(/Unexpected end of input/);
});

describe('macOS window tools, against a stand-in for osascript', () => {
  const window = { id: 4242, pid: 77, app: 'TextEdit', title: 'Notes', b: [10, 20, 400, 300], fg: true, min: false, max: false };
  const requests: Array<Record<string, unknown>> = [];
  const run: typeof runJxa = async (script, request) => {
    expect(script).toBe(AX_WINDOWS_SCRIPT);
    requests.push(request);
    if (request.op && request.id !== '4242') return '{"error":"NOT_FOUND"}';
    if (request.op === 'place')
      window.b = [request.x ?? window.b[0], request.y ?? window.b[1], request.width ?? window.b[2], request.height ?? window.b[3]] as number[];
    if (request.op === 'minimize') Object.assign(window, { min: true, b: null });
    if (request.op === 'close') return '{"error":"failed","message":"the window has no close button"}';
    return request.op ? '{"ok":true}' : JSON.stringify({ windows: [window] });
  };
  const windows = new AxWindows(async () => 2, run);

  it('lists windows in physical pixels (points times the density), with the window server number as id', async () => {
    expect(await windows.list('window.list')).toEqual([
      {
        id: '4242',
        app: 'TextEdit',
        title: 'Notes',
        pid: 77,
        bounds: { x: 20, y: 40, width: 800, height: 600 },
        focused: true,
        minimized: false,
        maximized: false,
      },
    ]);
  });

  it('moves and resizes in points, leaving out what was not asked', async () => {
    requests.length = 0;
    await windows.moveResize('4242', { x: 100, height: 500 }, 'window.move_resize');
    expect(requests[0]).toEqual({ op: 'place', id: '4242', x: 50, height: 250 });
    expect((await windows.list('window.list'))[0]!.bounds).toEqual({ x: 100, y: 40, width: 800, height: 500 });
  });

  it('acts, waits for the window to show it, and says NOT_FOUND or what failed', async () => {
    await windows.act('4242', 'minimize', 'window.minimize');
    expect((await windows.list('window.list'))[0]).toMatchObject({ minimized: true, bounds: null });
    await expect(windows.act('17', 'focus', 'window.focus')).rejects.toMatchObject({ code: 'NOT_FOUND', message: expect.stringContaining('no window 17') });
    await expect(windows.act('4242', 'close', 'window.close')).rejects.toMatchObject({
      code: 'OS_ERROR',
      message: 'the window tools failed: the window has no close button',
    });
  });
});

describe("the script's own logic, against a stand-in for System Events and the window server", () => {
  const shown = { AXMinimized: false, AXMain: true, AXFullScreen: false };
  const frame = (n: number, pid: number, X: number, Y: number, Width: number, Height: number, layer = 0) => ({
    kCGWindowNumber: n,
    kCGWindowOwnerPID: pid,
    kCGWindowLayer: layer,
    kCGWindowBounds: { X, Y, Width, Height },
  });
  const world = (): MacWorld => ({
    frontPid: 10,
    log: [],
    processes: [
      {
        pid: 10,
        name: 'TextEdit',
        windows: [
          { name: 'Notes – café 😀', position: [0, 25], size: [600, 400], attributes: { ...shown }, buttons: ['AXMinimizeButton', 'AXCloseButton'] },
          // a second window exactly on the first: each gets a window number of its own
          { name: 'Notes copy', position: [0, 25], size: [600, 400], attributes: { ...shown, AXMain: false } },
          { name: 'Away', position: [40, 60], size: [300, 200], attributes: { ...shown, AXMinimized: true, AXMain: false } },
          // no window-server window of this app within 2 points: not listed
          { name: 'Sheet', position: [900, 900], size: [50, 50], attributes: { ...shown } },
        ],
      },
      { pid: 20, name: 'Preview', windows: [{ name: 'Doc', position: [100, 100], size: [800, 600], attributes: { ...shown, AXFullScreen: true } }] },
      { pid: 30, name: 'Agent', backgroundOnly: true, windows: [{ name: 'Menu', position: [0, 0], size: [10, 10], attributes: {} }] },
    ],
    cg: [
      frame(7, 20, 100, 100, 800, 600, 25), // a panel layer above Doc: never a match
      frame(101, 10, 0, 25, 600, 400),
      frame(102, 10, 0, 25, 600, 400),
      frame(103, 10, 41.5, 60, 300, 201),
      frame(104, 10, 903, 900, 50, 50),
      frame(201, 20, 100, 100, 800, 600),
      frame(301, 30, 0, 0, 10, 10),
    ],
  });

  it('lists each app window once under its window number: minimized, full screen and main as AX says', async () => {
    const w = world();
    const windows = new AxWindows(
      async () => 2,
      async (script, request) => {
        const printed = runInMacWorld(script, request, w);
        expect(printed).toMatch(/^[\x20-\x7e]*$/); // any title in ASCII, whatever osascript's locale
        return printed;
      },
    );
    expect((await windows.list('window.list')).map((x) => [x.id, x.app, x.title, x.bounds, x.focused, x.minimized, x.maximized])).toEqual([
      ['101', 'TextEdit', 'Notes – café 😀', { x: 0, y: 50, width: 1200, height: 800 }, true, false, false],
      ['102', 'TextEdit', 'Notes copy', { x: 0, y: 50, width: 1200, height: 800 }, false, false, false],
      ['103', 'TextEdit', 'Away', null, false, true, false],
      ['201', 'Preview', 'Doc', { x: 200, y: 200, width: 1600, height: 1200 }, false, false, true],
    ]);
  });

  it('focuses, minimizes, maximizes, restores and closes the window it names, and only that one', () => {
    const w = world();
    const ask = (request: Record<string, unknown>) => JSON.parse(runInMacWorld(AX_WINDOWS_SCRIPT, request, w)) as unknown;
    expect(ask({ op: 'focus', id: '103' })).toEqual({ ok: true });
    expect(w.log).toEqual(['Away:AXMinimized=false', '10:frontmost', 'Away:AXRaise']);
    w.log.length = 0;
    expect(ask({ op: 'minimize', id: '102' })).toEqual({ ok: true });
    expect(ask({ op: 'maximize', id: '101' })).toEqual({ ok: true });
    expect(ask({ op: 'restore', id: '201' })).toEqual({ ok: true });
    expect(ask({ op: 'close', id: '101' })).toEqual({ ok: true });
    expect(w.log).toEqual([
      'Notes copy:AXMinimized=true',
      'Notes – café 😀:AXFullScreen=true',
      'Doc:AXFullScreen=false',
      'Notes – café 😀:AXCloseButton:AXPress',
    ]);
  });

  it('places in points, keeping what was not given; says NOT_FOUND, or why it could not', () => {
    const w = world();
    const ask = (request: Record<string, unknown>) => JSON.parse(runInMacWorld(AX_WINDOWS_SCRIPT, request, w)) as unknown;
    expect(ask({ op: 'place', id: '201', x: 10, height: 300 })).toEqual({ ok: true });
    expect(w.log).toEqual(['Doc:position=10,100', 'Doc:size=800,300']);
    w.cg.find((c) => c.kCGWindowNumber === 201)!.kCGWindowBounds = { X: 10, Y: 100, Width: 800, Height: 300 }; // the window server follows
    expect(ask({ op: 'close', id: '201' })).toEqual({ error: 'failed', message: 'the window has no close button' });
    expect(ask({ op: 'focus', id: '104' })).toEqual({ error: 'NOT_FOUND' });
    expect(ask({ op: 'focus', id: '301' })).toEqual({ error: 'NOT_FOUND' });
    expect(ask({ op: 'spin', id: '101' })).toEqual({ error: 'failed', message: 'unknown request' });
  });
});

describe.runIf(process.platform === 'darwin')('macOS window tools on macOS', () => {
  const title = `chatgpt-mcp window test ${process.pid}`;
  const mac = useMacWindow(title);
  const windows = new AxWindows(async () => 1);
  const ours = async () => (await windows.list('window.list')).find((w) => w.title === title);

  it('lists, moves, minimizes, restores and closes a real window', { timeout: 180_000 }, async (context) => {
    if (mac.problem) {
      console.warn(`macOS window tools not tried: System Events cannot be driven on this runner (${mac.problem})`);
      context.skip();
    }
    await vi.waitFor(async () => expect(await ours()).toBeDefined(), { timeout: 60_000, interval: 1000 });
    const window = (await ours())!;
    expect(window).toMatchObject({ pid: mac.app.pid, minimized: false });
    await windows.moveResize(window.id, { x: 300, y: 250, width: 600, height: 350 }, 'window.move_resize');
    expect((await ours())!.bounds).toEqual({ x: 300, y: 250, width: 600, height: 350 });
    await windows.act(window.id, 'minimize', 'window.minimize');
    expect(await ours()).toMatchObject({ minimized: true });
    await windows.act(window.id, 'restore', 'window.restore');
    expect(await ours()).toMatchObject({ minimized: false });
    await windows.act(window.id, 'close', 'window.close');
    expect(await ours()).toBeUndefined();
    expect(alive(mac.app.pid!)).toBe(true); // the app lives on; only its window closed
  });
});
