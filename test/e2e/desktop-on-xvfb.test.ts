/**
 * screen.capture and input.* for real: Xvfb, a headful Chromium window with a test page, the
 * real nut-js worker, and a real MCP client (2026-07-28) over HTTP. Page state is read back
 * with playwright; pixels are decoded from the returned image.
 *
 * Without a window manager X focus follows the pointer, so keystrokes go to the window under
 * the pointer: each typing test clicks its field first, as a model would.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DesktopClient } from '../../adapter/desktop/desktop-client.js';
import { connectModernHttp, textOf, type TestClient } from '../helpers/clients.js';
import type { TestHttpServer } from '../helpers/servers.js';
import { startDesktopServer } from '../adapter/desktop/fixtures/desktop-server.js';
import { launchChromium, missingDesktopPrereq, onPath, skipDesktop, startXvfb, type Xvfb } from '../adapter/desktop/fixtures/xvfb.js';

const PAGE = path.join(path.dirname(fileURLToPath(import.meta.url)), '../adapter/desktop/fixtures/desktop-page.html');
const BOX = { left: 600, top: 300, width: 200, height: 100, rgb: [12, 200, 180] };
const BUTTON_CENTER = { x: 140, y: 70 };
const ISSUE_TEXT = 'Hello, World! 123 @#$%^&*()_+{}|:"<>?~` ';

const missing = missingDesktopPrereq({ chromium: true });

describe.skipIf(skipDesktop(missing, 'desktop Xvfb tests'))('screen and input on a real display (Xvfb + Chromium)', () => {
  let xvfb: Xvfb;
  let browser: Browser;
  let page: Page;
  let desktop: DesktopClient;
  let workerHome: string | undefined;
  let server: TestHttpServer;
  let client: TestClient;
  /** Where the page's (0,0) is on the screen, learnt from a real pointer move. */
  let origin: { x: number; y: number };

  const call = (name: string, args: Record<string, unknown> = {}) => client.callTool({ name, arguments: args });
  const ok = async (name: string, args: Record<string, unknown> = {}) => {
    const result = await call(name, args);
    expect(result.isError, `${name} failed: ${textOf(result)}`).toBeFalsy();
    return result;
  };
  const state = () => page.evaluate('window.state') as Promise<Record<string, unknown>>;
  const screenPoint = (x: number, y: number) => ({ x: origin.x + x, y: origin.y + y });

  beforeAll(async () => {
    if (missing) throw new Error(`REQUIRE_DESKTOP_TESTS=1 but ${missing}`);
    xvfb = await startXvfb(1280, 800);
    browser = await launchChromium(xvfb.display);
    page = await browser.newPage();
    await page.setContent(fs.readFileSync(PAGE, 'utf8'));
    // The worker's clipboard helper (xsel) writes a log under HOME: keep it out of the real one.
    workerHome = fs.mkdtempSync(path.join(os.tmpdir(), 'desktop-worker-home-'));
    desktop = new DesktopClient({ env: { ...process.env, DISPLAY: xvfb.display, HOME: workerHome, XDG_CACHE_HOME: path.join(workerHome, '.cache') } });
    server = await startDesktopServer(desktop);
    client = await connectModernHttp(server.url);
  }, 90_000);

  afterAll(async () => {
    await client?.close();
    await server?.close();
    await desktop?.close();
    await browser?.close();
    await xvfb?.stop();
    if (workerHome) fs.rmSync(workerHome, { recursive: true, force: true });
  });

  test('input.move lands exactly where asked (and tells the page where it is on screen)', async () => {
    const result = await ok('input.move', { x: 640, y: 500 });
    expect(result.structuredContent).toEqual({ x: 640, y: 500, display: 0 });
    await expect.poll(async () => (await state()).lastMove).toMatchObject({ screenX: 640, screenY: 500 });
    origin = (await state()).origin as { x: number; y: number };
    expect(origin.x).toBeGreaterThanOrEqual(0);
    expect(origin.y).toBeGreaterThan(0); // below the browser's own toolbar
  });

  test('input.click on the button changes the page', async () => {
    const at = screenPoint(BUTTON_CENTER.x, BUTTON_CENTER.y);
    const result = await ok('input.click', at);
    expect(result.structuredContent).toEqual({ ...at, display: 0, button: 'left', clicks: 1, modifiers: [] });
    await expect.poll(() => page.textContent('#button')).toBe('Clicked 1');
    expect((await state()).lastDown).toEqual({ button: 0, clientX: BUTTON_CENTER.x, clientY: BUTTON_CENTER.y });
  });

  test('input.click without x and y clicks where the pointer is', async () => {
    await ok('input.move', screenPoint(BUTTON_CENTER.x + 20, BUTTON_CENTER.y));
    const result = await ok('input.click', {});
    expect(result.structuredContent).toMatchObject(screenPoint(BUTTON_CENTER.x + 20, BUTTON_CENTER.y));
    await expect.poll(() => page.textContent('#button')).toBe('Clicked 2');
  });

  test('double, right and middle clicks arrive as such', async () => {
    const onBox = screenPoint(BOX.left + 20, BOX.top + 20);
    await ok('input.click', { ...onBox, double: true });
    await expect.poll(async () => (await state()).dblclicks).toBe(1);
    await ok('input.click', { ...onBox, button: 'right' });
    await expect.poll(async () => (await state()).contextmenus).toBe(1);
    await ok('input.click', { ...onBox, button: 'middle' });
    await expect.poll(async () => (await state()).auxclicks).toContain(1);
  });

  test('input.type enters every printable ASCII character exactly (the X11 Shift bug is handled)', async () => {
    await ok('input.click', screenPoint(300, 160));
    const result = await ok('input.type', { text: ISSUE_TEXT });
    expect(result.structuredContent).toEqual({ typedChars: ISSUE_TEXT.length, pastedChars: 0 });
    await expect.poll(() => page.inputValue('#text')).toBe(ISSUE_TEXT);
  });

  test('input.key ctrl+a then backspace clears the field', async () => {
    expect((await ok('input.key', { keys: 'ctrl+a' })).structuredContent).toEqual({ keys: 'ctrl+a', heldMs: 0 });
    expect((await ok('input.key', { keys: 'BackSpace' })).structuredContent).toEqual({ keys: 'backspace', heldMs: 0 });
    await expect.poll(() => page.inputValue('#text')).toBe('');
  });

  test('all 95 printable ASCII characters in one go', async () => {
    const all = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join('');
    await ok('input.type', { text: all });
    await expect.poll(() => page.inputValue('#text')).toBe(all);
    await ok('input.key', { keys: 'ctrl+a' });
    await ok('input.key', { keys: 'delete' });
    await expect.poll(() => page.inputValue('#text')).toBe('');
  });

  test('non-ASCII text goes through the clipboard fallback, mixed with typed ASCII', async () => {
    await ok('input.key', { keys: 'ctrl+a' });
    await ok('input.key', { keys: 'delete' });
    await expect.poll(() => page.inputValue('#text')).toBe('');
    const text = 'Grüße 日本 ✓ ok';
    const result = await ok('input.type', { text });
    // one paste from the first non-ASCII character to the last: "üße 日本 ✓"
    expect(result.structuredContent).toEqual({ typedChars: [...text].length, pastedChars: 8 });
    expect(textOf(result)).toContain('8 pasted through the clipboard');
    await expect.poll(() => page.inputValue('#text')).toBe(text);
  });

  test('pastes one after another land in order: the clipboard changes only once Chromium is done with the paste before', async () => {
    await ok('input.click', screenPoint(200, 240));
    const text = 'ä1\nö2\nü3\nß4\né5\n日6';
    const result = await ok('input.type', { text });
    expect(result.structuredContent).toEqual({ typedChars: [...text].length, pastedChars: 6 });
    await expect.poll(() => page.inputValue('#area')).toBe(text);
    // and from one call to the next
    await ok('input.type', { text: '✓' });
    await ok('input.type', { text: 'ñ' });
    await expect.poll(() => page.inputValue('#area')).toBe(`${text}✓ñ`);
    await ok('input.key', { keys: 'ctrl+a' });
    await ok('input.key', { keys: 'delete' });
    await expect.poll(() => page.inputValue('#area')).toBe('');
  });

  test('newline and tab are the Enter and Tab keys', async () => {
    await ok('input.click', screenPoint(200, 240));
    await ok('input.type', { text: 'line 1\nline 2' });
    await expect.poll(() => page.inputValue('#area')).toBe('line 1\nline 2');
    await ok('input.type', { text: '\t' });
    await expect.poll(() => page.evaluate('document.activeElement && document.activeElement.id')).not.toBe('area');
  });

  test('screen.capture returns an image block with the coloured box where it is on screen', async () => {
    const result = await ok('screen.capture', { maxWidth: 640 });
    const image = result.content.find((c) => c.type === 'image');
    expect(image?.mimeType).toBe('image/png');
    const png = Buffer.from(image!.data!, 'base64');
    expect(result.structuredContent).toEqual({
      width: 640,
      height: 400,
      originalWidth: 1280,
      originalHeight: 800,
      scale: 0.5,
      format: 'png',
      mimeType: 'image/png',
      bytes: png.length,
      // What the image costs a model: 640x400 is under 768 px on its short side, 2 x 1 tiles of 512.
      tokens: 425,
      area: { x: 0, y: 0, width: 1280, height: 800 },
      space: { width: 640, height: 400, area: { x: 0, y: 0, width: 1280, height: 800 } },
      display: 0,
    });
    const pixels = await decode(png);
    expect(pixels.width).toBe(640);
    const center = screenPoint(BOX.left + BOX.width / 2, BOX.top + BOX.height / 2);
    expectColor(pixels.at(center.x * 0.5, center.y * 0.5), BOX.rgb, 3);
    // just outside the box (left, above) is the white page
    expectColor(pixels.at((origin.x + BOX.left - 8) * 0.5, center.y * 0.5), [255, 255, 255], 3);
    expectColor(pixels.at(center.x * 0.5, (origin.y + BOX.top - 8) * 0.5), [255, 255, 255], 3);
  });

  test('full resolution: the box edges are exact', async () => {
    const result = await ok('screen.capture', {});
    expect(result.structuredContent).toMatchObject({ width: 1280, height: 800, scale: 1 });
    const pixels = await decode(Buffer.from(result.content[0]!.data!, 'base64'));
    const left = origin.x + BOX.left;
    const top = origin.y + BOX.top;
    expect(pixels.at(left, top)).toEqual(BOX.rgb);
    expect(pixels.at(left + BOX.width - 1, top + BOX.height - 1)).toEqual(BOX.rgb);
    expect(pixels.at(left - 1, top + 10)).not.toEqual(BOX.rgb);
    expect(pixels.at(left + BOX.width, top + 10)).not.toEqual(BOX.rgb);
    expect(pixels.at(left + 10, top - 1)).not.toEqual(BOX.rgb);
  });

  test('JPEG and a region', async () => {
    const jpeg = await ok('screen.capture', { format: 'jpeg', quality: 90, maxWidth: 800, maxHeight: 800 });
    expect(jpeg.content[0]).toMatchObject({ type: 'image', mimeType: 'image/jpeg' });
    expect(jpeg.structuredContent).toMatchObject({ width: 800, height: 500, format: 'jpeg' });
    const jpegPixels = await decode(Buffer.from(jpeg.content[0]!.data!, 'base64'));
    const center = screenPoint(BOX.left + BOX.width / 2, BOX.top + BOX.height / 2);
    expectColor(jpegPixels.at(center.x * 0.625, center.y * 0.625), BOX.rgb, 12);

    const region = { ...screenPoint(BOX.left - 10, BOX.top - 10), width: BOX.width + 20, height: BOX.height + 20 };
    const cut = await ok('screen.capture', { region });
    expect(cut.structuredContent).toMatchObject({ width: 220, height: 120, originalWidth: 220, scale: 1, area: region });
    const cutPixels = await decode(Buffer.from(cut.content[0]!.data!, 'base64'));
    expect(cutPixels.at(10, 10)).toEqual(BOX.rgb);
    expect(cutPixels.at(209, 109)).toEqual(BOX.rgb);
    expect(cutPixels.at(9, 10)).not.toEqual(BOX.rgb);
  });

  test('space mapping: a click in the coordinates of a 640x400 capture lands on the same spot', async () => {
    const before = (await state()).clicks as number;
    const inSpace = { x: (origin.x + BUTTON_CENTER.x) / 2, y: (origin.y + BUTTON_CENTER.y) / 2 };
    const result = await ok('input.click', { ...inSpace, space: { width: 640, height: 400 } });
    const expected = { x: Math.floor(inSpace.x * 2), y: Math.floor(inSpace.y * 2) };
    expect(result.structuredContent).toMatchObject(expected);
    await expect.poll(async () => (await state()).clicks).toBe(before + 1);
    expect((await state()).lastDown).toMatchObject({ clientX: expected.x - origin.x, clientY: expected.y - origin.y });
    // and a space bigger than the screen scales down
    await ok('input.move', { x: 2000, y: 1000, space: { width: 2560, height: 1600 } });
    await expect.poll(async () => (await state()).lastMove).toMatchObject({ screenX: 1000, screenY: 500 });
  });

  test('out-of-bounds points and unknown keys are INVALID_INPUT with what is allowed', async () => {
    const outside = await call('input.move', { x: 1280, y: 10 });
    expect(outside.isError).toBe(true);
    expect(textOf(outside)).toBe('INVALID_INPUT: x=1280 is outside the 1280x800 screen (valid x: 0 to 1279)');
    const outsideSpace = await call('input.click', { x: 10, y: 400, space: { width: 640, height: 400 } });
    expect(textOf(outsideSpace)).toBe('INVALID_INPUT: y=400 is outside the 640x400 space (valid y: 0 to 399)');
    const key = await call('input.key', { keys: 'ctrl+hyper' });
    expect(textOf(key)).toMatch(/^INVALID_INPUT: unknown key "hyper" in "ctrl\+hyper"\. Modifiers: ctrl, alt, shift, cmd.*Keys: a-z, 0-9, f1-f24/);
  });

  test.skipIf(!onPath('xrandr'))('a display (RandR monitor) can be captured on its own', async () => {
    const xrandr = (...args: string[]) => spawnSync('xrandr', args, { env: { ...process.env, DISPLAY: xvfb.display }, encoding: 'utf8' });
    expect(xrandr('--setmonitor', 'test-left', '640/100x800/100+0+0', 'none').status).toBe(0);
    expect(xrandr('--setmonitor', 'test-right', '640/100x800/100+640+0', 'none').status).toBe(0);
    try {
      const right = await ok('screen.capture', { display: 1, region: { x: 0, y: 0, width: 200, height: 100 } });
      expect(right.structuredContent).toMatchObject({ width: 200, height: 100, area: { x: 640, y: 0, width: 200, height: 100 } });
      const wrong = await call('screen.capture', { display: 7 });
      expect(textOf(wrong)).toMatch(/^INVALID_INPUT: display 7 does not exist; displays: 0 = 640x800 at 0,0; 1 = 640x800 at 640,0/);
    } finally {
      xrandr('--delmonitor', 'test-left');
      xrandr('--delmonitor', 'test-right');
    }
  });

  test('a worker killed mid-call fails that call with OS_ERROR; the next call starts a fresh worker', async () => {
    const pid = desktop.workerPid!;
    expect(pid).toBeTypeOf('number');
    // Freeze the worker so the call is certainly in flight when it dies.
    process.kill(pid, 'SIGSTOP');
    const inFlight = call('input.type', { text: 'never typed' });
    await expect.poll(() => desktop.callsInFlight, { timeout: 10_000 }).toBe(1);
    process.kill(pid, 'SIGKILL');
    const failed = await inFlight;
    expect(failed.isError).toBe(true);
    expect(textOf(failed)).toMatch(
      /^OS_ERROR: the desktop worker stopped unexpectedly \(signal SIGKILL\) during input\.type; this call failed and the next call starts a new worker/,
    );
    const after = await ok('screen.capture', { maxWidth: 320 });
    expect(after.structuredContent).toMatchObject({ width: 320, height: 200 });
    expect(desktop.workerPid).not.toBe(pid);
    await ok('input.click', screenPoint(BUTTON_CENTER.x, BUTTON_CENTER.y));
    await expect.poll(async () => (await state()).clicks).toBe(4);
  });
});

interface Pixels {
  width: number;
  height: number;
  at(x: number, y: number): number[];
}

async function decode(image: Buffer): Promise<Pixels> {
  const { data, info } = await sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return {
    width: info.width,
    height: info.height,
    at(x, y) {
      const i = (Math.round(y) * info.width + Math.round(x)) * info.channels;
      return [data[i]!, data[i + 1]!, data[i + 2]!];
    },
  };
}

/** Within `tolerance` per channel (resampling and JPEG blur colours slightly). */
function expectColor(actual: number[], expected: number[], tolerance: number): void {
  const close = actual.every((v, i) => Math.abs(v - expected[i]!) <= tolerance);
  expect(close, `rgb(${actual.join(',')}) should be within ${tolerance} of rgb(${expected.join(',')})`).toBe(true);
}
