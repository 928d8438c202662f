/**
 * The macOS window tools (ax-windows.ts). Here: the Node side against a stand-in for the
 * osascript run (its answers as the script prints them). On macOS (the workflow's runner): the
 * real script against a real window, when the runner grants the Accessibility access it needs.
 */
import { describe, expect, it, vi } from 'vitest';
import { AX_WINDOWS_SCRIPT, AxWindows } from '../../../../adapter/desktop/darwin/ax-windows.js';
import type { runJxa } from '../../../../adapter/desktop/darwin/jxa.js';
import { useMacWindow } from '../../../helpers/mac-window.js';
import { alive } from '../../../helpers/proc.js';
import { jxaDefinesRun } from '../../../helpers/jxa-script.js';

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
