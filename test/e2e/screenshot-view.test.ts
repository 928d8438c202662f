/**
 * The screenshot view for real: Xvfb with a test page in a headful Chromium (what is
 * captured and clicked), servers with the real desktop worker, and the view in headless
 * Chromium inside a host stand-in built on the ext-apps SDK's AppBridge. The view gets a real
 * screen.capture result; a click on it goes through the host to the server's input.click,
 * which the policy runs (input granted) or refuses (not granted). Screenshots land in
 * test-artifacts/screenshots/.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Frame, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DesktopClient } from '../../adapter/desktop/desktop-client.js';
import { appsClient, openView, textOf, type ViewResult } from '../helpers/view-host.js';
import type { TestHttpServer } from '../helpers/servers.js';
import { startDesktopServer } from '../adapter/desktop/fixtures/desktop-server.js';
import { launchChromium, missingDesktopPrereq, skipDesktop, startXvfb, type Xvfb } from '../adapter/desktop/fixtures/xvfb.js';
import { CHROMIUM, CHROMIUM_ARGS } from '../tray/helpers/desktop.js';
import { SCREENSHOTS } from '../renderer/helpers/window-harness.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const DESKTOP_PAGE = path.join(HERE, '../adapter/desktop/fixtures/desktop-page.html');
const VIEW = 'ui://chatgpt-mcp/screenshot.html';
const missing = missingDesktopPrereq({ chromium: true });

describe.skipIf(skipDesktop(missing, 'screenshot view tests'))('the screenshot view in an MCP Apps host', () => {
  let xvfb: Xvfb;
  let desktopBrowser: Browser;
  let desktopPage: Page;
  let desktop: DesktopClient;
  let workerHome: string;
  let granted: TestHttpServer;
  let screenOnly: TestHttpServer;
  let hostBrowser: Browser;

  beforeAll(async () => {
    if (missing) throw new Error(`REQUIRE_DESKTOP_TESTS=1 but ${missing}`);
    xvfb = await startXvfb(1280, 800);
    desktopBrowser = await launchChromium(xvfb.display);
    desktopPage = await desktopBrowser.newPage();
    await desktopPage.setContent(fs.readFileSync(DESKTOP_PAGE, 'utf8'));
    workerHome = fs.mkdtempSync(path.join(os.tmpdir(), 'view-worker-home-'));
    desktop = new DesktopClient({ env: { ...process.env, DISPLAY: xvfb.display, HOME: workerHome, XDG_CACHE_HOME: path.join(workerHome, '.cache') } });
    const on = { hostDisplayAccess: true, screen: true };
    granted = await startDesktopServer(desktop, { desktop: { ...on, input: true }, server: { toolNames: 'underscore' } });
    screenOnly = await startDesktopServer(desktop, { desktop: { ...on, input: false }, server: { toolNames: 'underscore' } });
    hostBrowser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, env: { ...process.env, HOME: workerHome } });
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
  }, 120_000);

  afterAll(async () => {
    await hostBrowser?.close();
    await granted?.close();
    await screenOnly?.close();
    await desktop?.close();
    await desktopBrowser?.close();
    await xvfb?.stop();
    if (workerHome) fs.rmSync(workerHome, { recursive: true, force: true });
  });

  /** Captures through `server`, opens the view in the host with that result; the host forwards the view's calls to the same server. */
  async function openCapture(server: TestHttpServer, browser = hostBrowser) {
    const client = await appsClient(server.url);
    const result = (await client.callTool({ name: 'screen_capture', arguments: {} })) as ViewResult;
    expect(result.isError, textOf(result)).toBeFalsy();
    return { client, result, ...(await openView(browser, client, VIEW, result)) };
  }

  /** Moves over the image at a fraction of its size; returns the coordinates the crosshair reads. */
  async function hover(page: Page, frame: Frame, fx: number, fy: number) {
    // Playwright gives a frame's element box in the page's viewport already.
    const img = await frame.locator('#shot').boundingBox();
    expect(img).toBeTruthy();
    const at = { x: img!.x + img!.width * fx, y: img!.y + img!.height * fy };
    await page.mouse.move(at.x, at.y);
    const text = await frame.locator('#coords').textContent();
    const [, x, y] = /x (\d+), y (\d+)/.exec(text ?? '') ?? [];
    return { at, x: Number(x), y: Number(y) };
  }

  test('shows the capture with a crosshair in the model’s space; a click runs input.click through the policy', async () => {
    const { client, result, page, frame, calls } = await openCapture(granted);
    try {
      await expect.poll(() => frame.locator('#shot').isVisible()).toBe(true);
      const space = result.structuredContent!.space as { width: number; height: number };
      const point = await hover(page, frame, 0.5, 0.5);
      expect(point.x).toBeGreaterThanOrEqual(Math.floor(space.width / 2) - 2);
      expect(point.x).toBeLessThanOrEqual(Math.ceil(space.width / 2) + 2);
      expect(point.y).toBeGreaterThanOrEqual(Math.floor(space.height / 2) - 2);
      expect(point.y).toBeLessThanOrEqual(Math.ceil(space.height / 2) + 2);
      expect(await frame.locator('#h').isVisible()).toBe(true);
      await page.screenshot({ path: path.join(SCREENSHOTS, 'view-screenshot-crosshair.png') });

      await page.mouse.click(point.at.x, point.at.y);
      await expect.poll(() => calls.length).toBe(1);
      expect(calls[0]!.call).toMatchObject({ name: 'input_click', arguments: { x: point.x, y: point.y, space: result.structuredContent!.space } });
      expect(calls[0]!.result.isError, textOf(calls[0]!.result)).toBeFalsy();
      await expect.poll(() => frame.locator('#status').textContent()).toBe(`Clicked at ${point.x}, ${point.y}`);
      // The real pointer went there: the desktop page saw it at those screen pixels (the capture is at scale 1 here).
      expect(result.structuredContent!.scale).toBe(1);
      const state = (await desktopPage.evaluate('window.state')) as { lastMove: { screenX: number; screenY: number } };
      expect(state.lastMove).toMatchObject({ screenX: point.x, screenY: point.y });
      await page.screenshot({ path: path.join(SCREENSHOTS, 'view-screenshot-clicked.png') });

      // Zoom 2x: two CSS pixels per image pixel, and the crosshair still reads the image's pixels.
      await frame.locator('#zoom').selectOption('2');
      expect((await frame.locator('#shot').boundingBox())!.width).toBe(space.width * 2);
      const zoomed = await hover(page, frame, 0.1, 0.1);
      expect(Math.abs(zoomed.x - space.width * 0.1)).toBeLessThanOrEqual(1);
      await page.screenshot({ path: path.join(SCREENSHOTS, 'view-screenshot-zoom-2x.png') });
    } finally {
      await page.close();
      await client.close();
    }
  }, 60_000);

  test('a click is refused by the policy when input is not granted, and the view says so', async () => {
    const { client, page, frame, calls } = await openCapture(screenOnly);
    try {
      await expect.poll(() => frame.locator('#shot').isVisible()).toBe(true);
      const before = (await desktopPage.evaluate('window.state.lastMove')) as unknown;
      const point = await hover(page, frame, 0.25, 0.25);
      await page.mouse.click(point.at.x, point.at.y);
      await expect.poll(() => calls.length).toBe(1);
      expect(calls[0]!.result.isError).toBe(true);
      expect(textOf(calls[0]!.result)).toContain('desktop.input');
      await expect.poll(() => frame.locator('#status').textContent()).toMatch(/^Refused: .*desktop\.input/);
      expect(await desktopPage.evaluate('window.state.lastMove')).toEqual(before);
      await page.screenshot({ path: path.join(SCREENSHOTS, 'view-screenshot-refused.png') });
    } finally {
      await page.close();
      await client.close();
    }
  }, 60_000);

  test('with images disabled the view shows the same text answer a host without views shows', async () => {
    const noImages = await chromium.launch({
      executablePath: CHROMIUM,
      args: [...CHROMIUM_ARGS, '--blink-settings=imagesEnabled=false'],
      env: { ...process.env, HOME: workerHome },
    });
    try {
      const { client, result, page, frame } = await openCapture(granted, noImages);
      try {
        const text = textOf(result);
        expect(text.length).toBeGreaterThan(0);
        await expect.poll(() => frame.locator('#text').textContent()).toBe(text);
        expect(await frame.locator('#text').isVisible()).toBe(true);
        // The image did not render: nothing was decoded.
        expect(await frame.locator('#shot').evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBe(0);
        await page.screenshot({ path: path.join(SCREENSHOTS, 'view-screenshot-no-images.png') });
      } finally {
        await page.close();
        await client.close();
      }
    } finally {
      await noImages.close();
    }
  }, 60_000);
});
