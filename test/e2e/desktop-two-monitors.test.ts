/**
 * The model-facing desktop for real: one Xvfb screen of 2560x1600 split into two RandR monitors
 * (1280x1600 each; nut-js grabs the whole root window, RandR says where each monitor is), a
 * private session bus with the real AT-SPI launcher and registry, and a headful Chromium with
 * accessibility on, placed on the SECOND monitor. Driven through a real MCP client over HTTP;
 * page state is read back with playwright, pixels from the returned images.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DesktopClient } from '../../adapter/desktop/desktop-client.js';
import { connectModernHttp, textOf, type TestClient } from '../helpers/clients.js';
import type { TestHttpServer } from '../helpers/servers.js';
import { makeTempDir, removeDir } from '../helpers/temp.js';
import { DESKTOP_ON, startDesktopServer } from '../adapter/desktop/fixtures/desktop-server.js';
import { launchChromium, missingDesktopPrereq, skipDesktop, startSessionBus, startXvfb, type SessionBus, type Xvfb } from '../adapter/desktop/fixtures/xvfb.js';

const PAGE = path.join(path.dirname(fileURLToPath(import.meta.url)), '../adapter/desktop/fixtures/ui-page.html');
const SCREEN = { width: 2560, height: 1600 };
const RIGHT = { x: 1280, y: 0, width: 1280, height: 1600 };
const BUTTON_RGB = [200, 40, 40];

const missing = missingDesktopPrereq({ chromium: true, accessibility: true, xrandr: true });

type Rect = { x: number; y: number; width: number; height: number };
type Element = { id: string; role: string; name: string; value?: string; states: string[]; bounds: Rect | null; children?: Element[] };

describe.skipIf(skipDesktop(missing, 'desktop actions and accessibility Xvfb tests'))(
  'actions, displays and the accessibility tree (Xvfb + AT-SPI + Chromium)',
  () => {
    let xvfb: Xvfb;
    let bus: SessionBus;
    let browser: Browser;
    let page: Page;
    let desktop: DesktopClient;
    let workerHome: string;
    let server: TestHttpServer;
    let client: TestClient;
    /** The same server, but its pointer calls all go to the nut-js worker. */
    let viaWorker: { desktop: DesktopClient; server: TestHttpServer; client: TestClient };
    /** Whom the calls go to: `client`, or `viaWorker.client` while the actions run a second time. */
    let actor: TestClient;
    let origin: { x: number; y: number };

    const call = (name: string, args: Record<string, unknown> = {}, on: TestClient = actor) => on.callTool({ name, arguments: args });
    const ok = async (name: string, args: Record<string, unknown> = {}, on: TestClient = actor) => {
      const result = await call(name, args, on);
      expect(result.isError, `${name} failed: ${textOf(result)}`).toBeFalsy();
      return result;
    };
    const structured = async <T = Record<string, unknown>>(name: string, args: Record<string, unknown> = {}) => (await ok(name, args)).structuredContent as T;
    const state = () => page.evaluate('window.state') as Promise<Record<string, unknown>>;
    /** Where an element of the page is on the screen, from the DOM and the page origin. */
    const screenRect = async (selector: string): Promise<Rect> => {
      const r = await page.$eval(selector, (el) => {
        const b = el.getBoundingClientRect();
        return { x: b.x, y: b.y, width: b.width, height: b.height };
      });
      return { x: origin.x + r.x, y: origin.y + r.y, width: r.width, height: r.height };
    };
    const centre = (r: Rect) => ({ x: Math.round(r.x + r.width / 2), y: Math.round(r.y + r.height / 2) });
    /** On the button but left of its white label. */
    const onButton = async () => {
      const r = await screenRect('#press');
      return { x: Math.round(r.x + 16), y: Math.round(r.y + r.height / 2) };
    };
    const xrandr = (...args: string[]) => spawnSync('xrandr', args, { env: { ...process.env, DISPLAY: xvfb.display }, encoding: 'utf8' });

    beforeAll(async () => {
      if (missing) throw new Error(`REQUIRE_DESKTOP_TESTS=1 but ${missing}`);
      xvfb = await startXvfb(SCREEN.width, SCREEN.height);
      // the left monitor takes Xvfb's one output ("screen"), so RandR drops that output's automatic whole-screen monitor
      expect(xrandr('--setmonitor', 'left', '1280/339x1600/212+0+0', 'screen').status).toBe(0);
      expect(xrandr('--setmonitor', 'right', '1280/339x1600/212+1280+0', 'none').status).toBe(0);
      bus = await startSessionBus();
      browser = await launchChromium(xvfb.display, { sessionBus: bus.address, position: { x: 1300, y: 40 }, size: { width: 1200, height: 900 } });
      page = await browser.newPage();
      await page.setContent(fs.readFileSync(PAGE, 'utf8'));
      workerHome = makeTempDir('desktop-worker-home-');
      const env = {
        ...process.env,
        DISPLAY: xvfb.display,
        DBUS_SESSION_BUS_ADDRESS: bus.address,
        HOME: workerHome,
        XDG_CACHE_HOME: path.join(workerHome, '.cache'),
      };
      desktop = new DesktopClient({ env });
      server = await startDesktopServer(desktop);
      client = await connectModernHttp(server.url);
      actor = client;
      const workerDesktop = new DesktopClient({ env, inProcessPointer: false });
      const workerServer = await startDesktopServer(workerDesktop);
      viaWorker = { desktop: workerDesktop, server: workerServer, client: await connectModernHttp(workerServer.url) };
      // the page learns where it is on the screen from a real pointer move
      await client.callTool({ name: 'input.move', arguments: { x: 2000, y: 700 } });
      for (let i = 0; i < 100 && !(await state()).origin; i++) await new Promise((resolve) => setTimeout(resolve, 100));
      origin = (await state()).origin as { x: number; y: number };
      if (!origin || origin.x < RIGHT.x) throw new Error(`the Chromium window is not on the second monitor (page origin ${JSON.stringify(origin)})`);
    }, 120_000);

    afterAll(async () => {
      await client?.close();
      await server?.close();
      await desktop?.close();
      await viaWorker?.client.close();
      await viaWorker?.server.close();
      await viaWorker?.desktop.close();
      await browser?.close();
      await bus?.stop();
      await xvfb?.stop();
      if (workerHome) removeDir(workerHome);
    });

    describe('the accessibility tree', () => {
      let snapshot: { snapshotHandle: string; elements: Element[]; windows: Array<{ name: string; chosenBy: string }>; truncated: Record<string, number> };
      const findByRole = (elements: Element[], role: string): Element | undefined => {
        for (const e of elements) {
          if (e.role === role) return e;
          const below = findByRole(e.children ?? [], role);
          if (below) return below;
        }
        return undefined;
      };
      const find = (elements: Element[], role: string, name: string): Element | undefined => {
        for (const e of elements) {
          if (e.role === role && e.name === name) return e;
          const below = find(e.children ?? [], role, name);
          if (below) return below;
        }
        return undefined;
      };

      test('ui.snapshot finds the button and the text field by role and name, with bounds that match the page', async () => {
        // Chromium builds the web content's tree a moment after the page loads
        await expect
          .poll(async () => find(((await call('ui.snapshot')).structuredContent as typeof snapshot | undefined)?.elements ?? [], 'button', 'Press me'), {
            timeout: 30_000,
            interval: 500,
          })
          .toBeDefined();
        snapshot = await structured('ui.snapshot');
        expect(snapshot.snapshotHandle).toMatch(/^snap_[A-Za-z0-9_-]{16}$/);
        expect(snapshot.windows[0]!.name).toContain('ui test page');
        const button = find(snapshot.elements, 'button', 'Press me')!;
        const field = find(snapshot.elements, 'textbox', 'Your name')!;
        const slider = find(snapshot.elements, 'slider', 'Volume')!;
        expect(field).toBeDefined();
        expect(slider.value).toBe('0');
        expect(button.states).toEqual(expect.arrayContaining(['enabled', 'focusable']));
        for (const [element, selector] of [
          [button, '#press'],
          [field, '#name'],
        ] as const) {
          const dom = await screenRect(selector);
          expect(Math.abs(element.bounds!.x - dom.x), `${selector} x`).toBeLessThanOrEqual(1);
          expect(Math.abs(element.bounds!.y - dom.y), `${selector} y`).toBeLessThanOrEqual(1);
          expect(Math.abs(element.bounds!.width - dom.width)).toBeLessThanOrEqual(1);
          expect(Math.abs(element.bounds!.height - dom.height)).toBeLessThanOrEqual(1);
        }
        // and the pixels there are the button's
        const zoom = await ok('screen.capture', { zoom: button.bounds });
        expect(zoom.structuredContent).toMatchObject({ width: button.bounds!.width, height: button.bounds!.height, scale: 1 });
        const pixels = await decode(zoom);
        expectColor(pixels.at(4, button.bounds!.height / 2), BUTTON_RGB, 2);
        expectColor(pixels.at(button.bounds!.width - 4, 4), BUTTON_RGB, 2);
        // a password field is listed, its content never
        const secret = find(snapshot.elements, 'password', 'Secret');
        expect(secret).toBeDefined();
        expect(secret!.value).toBeUndefined();
        expect(JSON.stringify(snapshot)).not.toContain('hunter2');
        // the text the model reads carries the same ids
        expect(textOf(await call('ui.snapshot', { text: 'Press me' }))).toMatch(/e\d+ button "Press me" \[\d+,\d+ 180x50\]/);
      });

      test('input.click on an element id presses the button where it is now', async () => {
        const button = find(snapshot.elements, 'button', 'Press me')!;
        const result = await structured<{ x: number; y: number; display: number; element: { id: string } }>('input.click', {
          element: button.id,
          snapshotHandle: snapshot.snapshotHandle,
        });
        expect(result.display).toBe(1);
        expect(result.element.id).toBe(button.id);
        await expect.poll(async () => (await state()).presses).toBe(1);
        expect(await page.textContent('#press')).toBe('Pressed 1');
      });

      test('input.type into a field by element id lands in that field', async () => {
        const field = find(snapshot.elements, 'textbox', 'Your name')!;
        const result = await structured('input.type', { text: 'hello a11y', element: field.id, snapshotHandle: snapshot.snapshotHandle });
        expect(result).toMatchObject({ typedChars: 10, pastedChars: 0, element: { id: field.id } });
        await expect.poll(() => page.inputValue('#name')).toBe('hello a11y');
        // and the next snapshot reads the value back
        const after = await structured<typeof snapshot>('ui.snapshot', { text: 'Your name' });
        expect(find(after.elements, 'textbox', 'Your name')!.value).toBe('hello a11y');
      });

      test('ui.find by role and name substring; the text filter and the limits say what they cut', async () => {
        const found = await structured<{ snapshotHandle: string; matches: Element[]; searched: number }>('ui.find', { role: 'button', name: 'PRESS' });
        expect(found.matches.map((m) => m.name)).toEqual(['Pressed 1']);
        expect(found.searched).toBeGreaterThan(20);
        const byRole = await structured<{ matches: Element[] }>('ui.find', { role: 'slider' });
        expect(byRole.matches.map((m) => m.name)).toContain('Volume');
        const none = await call('ui.find', {});
        expect(textOf(none)).toMatch(/^INVALID_INPUT: give role, name or both/);

        const filtered = await structured<{ elements: Element[]; filteredOut: number; nodeCount: number }>('ui.snapshot', { text: 'volume' });
        expect(find(filtered.elements, 'slider', 'Volume')).toBeDefined();
        expect(find(filtered.elements, 'textbox', 'Your name')).toBeUndefined();
        expect(filtered.filteredOut).toBeGreaterThan(10);
        const small = await structured<{ nodeCount: number; truncated: { byCount: number; byDepth: number } }>('ui.snapshot', { maxNodes: 5 });
        expect(small.nodeCount).toBe(5);
        expect(small.truncated.byCount).toBeGreaterThan(10);
        const shallow = await structured<{ truncated: { byDepth: number } }>('ui.snapshot', { maxDepth: 1 });
        expect(shallow.truncated.byDepth).toBeGreaterThan(10);
      });

      test('input.scroll on an element scrolls it where it is now', async () => {
        const found = await structured<{ snapshotHandle: string; matches: Element[] }>('ui.find', { name: 'Long list' });
        const list = found.matches[0]!;
        expect(list.bounds).toBeTruthy();
        const top = () => page.evaluate("document.getElementById('scroller').scrollTop");
        const before = (await top()) as number;
        const result = await structured<{ element: { id: string }; display: number; clicks: { y: number } }>('input.scroll', {
          element: list.id,
          snapshotHandle: found.snapshotHandle,
          dy: 2,
        });
        expect(result).toMatchObject({ element: { id: list.id }, display: 1, clicks: { y: 2 } });
        await expect.poll(top).toBe(before + 240);
        await ok('input.scroll', { element: list.id, snapshotHandle: found.snapshotHandle, dy: -2 });
        await expect.poll(top).toBe(before);
      });

      test('scope "display": the windows on that display, and a clear hint for an empty one', async () => {
        const right = await structured<{ windows: Array<{ name: string; chosenBy: string }>; elements: Element[] }>('ui.snapshot', {
          scope: 'display',
          display: 1,
          text: 'Your name',
        });
        expect(right.windows.map((w) => w.chosenBy)).toContain('display');
        expect(right.windows.some((w) => w.name.includes('ui test page'))).toBe(true);
        expect(find(right.elements, 'textbox', 'Your name')).toBeDefined();
        const left = await structured<{ windows: unknown[]; elements: unknown[]; hint?: string }>('ui.snapshot', { scope: 'display', display: 0 });
        expect(left).toMatchObject({ windows: [], elements: [], hint: 'no window of an accessible application is on this display' });
        expect(textOf(await call('ui.snapshot', { scope: 'display', display: 5 }))).toMatch(/^INVALID_INPUT: display 5 does not exist/);
      });

      test('an element that moved after the snapshot is clicked where it is now, not where the snapshot saw it', async () => {
        const before = await structured<typeof snapshot>('ui.snapshot', { text: 'Press' });
        const button = before.elements.length ? findByRole(before.elements, 'button') : undefined;
        expect(button?.bounds).toBeTruthy();
        const presses = Number((await state()).presses);
        // To the right of the name field, onto empty page.
        await page.evaluate("document.getElementById('press').style.marginLeft = '600px'");
        const moved = await screenRect('#press');
        expect(moved.x - button!.bounds!.x).toBeGreaterThanOrEqual(590);
        // Wait until the accessibility tree itself reports the new place (Chromium updates it asynchronously).
        await expect
          .poll(async () => findByRole((await structured<typeof snapshot>('ui.snapshot', { text: 'Press' })).elements, 'button')?.bounds?.x, {
            timeout: 10_000,
          })
          .toBeGreaterThanOrEqual(moved.x - 1);
        const result = await structured<{ x: number; y: number }>('input.click', { element: button!.id, snapshotHandle: before.snapshotHandle });
        expect(result.x).toBeGreaterThanOrEqual(moved.x);
        expect(result.x).toBeLessThan(moved.x + moved.width);
        await expect.poll(async () => Number((await state()).presses)).toBe(presses + 1);
        await page.evaluate("document.getElementById('press').style.marginLeft = ''");
      });

      test('acting on an element that is gone fails clearly; unknown handles and ids too', async () => {
        const button = find(snapshot.elements, 'button', 'Press me')!;
        await page.evaluate("document.getElementById('press').remove()");
        await expect
          .poll(async () => textOf(await call('input.click', { element: button.id, snapshotHandle: snapshot.snapshotHandle })), { timeout: 10_000 })
          .toMatch(/^NOT_FOUND: the element (is gone|is no longer on screen)/);
        expect(textOf(await call('input.click', { element: 'e99999', snapshotHandle: snapshot.snapshotHandle }))).toMatch(
          /^NOT_FOUND: element "e99999" is not in snapshot snap_/,
        );
        expect(textOf(await call('input.click', { element: 'e1', snapshotHandle: 'snap_AAAAAAAAAAAAAAAA' }))).toMatch(
          /^NOT_FOUND: snapshot .* is unknown or expired/,
        );
        expect(textOf(await call('input.click', { element: 'e1', snapshotHandle: snapshot.snapshotHandle, x: 3, y: 4 }))).toMatch(
          /^INVALID_INPUT: give either x and y or element/,
        );
        // put the button back for the tests below
        await page.evaluate(`(() => {
          const b = document.createElement('button');
          b.id = 'press';
          b.textContent = 'Press me';
          b.addEventListener('click', () => window.state.presses++);
          document.body.prepend(b);
        })()`);
      });
    });

    // Pointer actions have two back ends: the X11 protocol in the server, and nut-js in the worker (other platforms, modifiers, elements).
    describe.each([
      ['the server over X11', () => client],
      ['the nut-js worker', () => viaWorker.client],
    ])('actions, the pointer driven by %s', (_, pick) => {
      beforeAll(() => {
        actor = pick();
      });
      afterAll(() => {
        actor = client;
      });

      test('input.scroll moves a long list by whole wheel clicks (120 px each in Chromium), in every unit', async () => {
        const list = centre(await screenRect('#scroller'));
        const top = () => page.evaluate("document.getElementById('scroller').scrollTop");
        const base = (await top()) as number; // the actions run twice: count from where the list is
        const first = await structured('input.scroll', { ...list, dy: 3 });
        expect(first).toMatchObject({ ...list, display: 1, clicks: { x: 0, y: 3 } });
        await expect.poll(top).toBe(base + 360);
        await ok('input.scroll', { dy: -1 }); // where the pointer is
        await expect.poll(top).toBe(base + 240);
        expect(await structured('input.scroll', { ...list, dy: 240, unit: 'pixels' })).toMatchObject({ clicks: { y: 2 } });
        await expect.poll(top).toBe(base + 480);
        expect(await structured('input.scroll', { ...list, dy: -6, unit: 'lines' })).toMatchObject({ clicks: { y: -2 } });
        await expect.poll(top).toBe(base + 240);
      });

      test('input.drag moves the slider along its path, with the button held', async () => {
        const slider = await screenRect('#volume');
        const y = Math.round(slider.y + slider.height / 2);
        const value = async () => Number(await page.inputValue('#volume'));
        const left = Math.round(slider.x + 8); // the thumb at value 0
        const result = await structured<{ path: unknown[]; start: { display: number }; end: { x: number } }>('input.drag', {
          path: [
            { x: left, y },
            { x: left + 100, y },
            { x: Math.round(slider.x + slider.width / 2), y },
          ],
        });
        expect(result.path).toHaveLength(3);
        expect(result.start.display).toBe(1);
        await expect.poll(value).toBeGreaterThanOrEqual(47);
        expect(await value()).toBeLessThanOrEqual(53);
        await ok('input.drag', {
          path: [
            { x: Math.round(slider.x + slider.width / 2), y },
            { x: Math.round(slider.x + slider.width + 40), y },
          ],
        });
        await expect.poll(value).toBe(100);
        // the button was released: a later plain move does not drag the thumb back
        await ok('input.move', { x: left, y });
        await new Promise((resolve) => setTimeout(resolve, 150));
        expect(await value()).toBe(100);
      });

      test('double click selects a word, triple click the whole line', async () => {
        // the middle of "bravo" (characters 6 to 11)
        const word = (await page.evaluate(`(() => {
          const text = document.getElementById('para').firstChild;
          const range = document.createRange();
          range.setStart(text, 6);
          range.setEnd(text, 11);
          const b = range.getBoundingClientRect();
          return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
        })()`)) as { x: number; y: number };
        const at = { x: Math.round(origin.x + word.x), y: Math.round(origin.y + word.y) };
        const selection = async () => String(await page.evaluate('String(getSelection())')).trim();
        expect(await structured('input.click', { ...at, clicks: 2 })).toMatchObject({ clicks: 2, button: 'left' });
        await expect.poll(selection).toBe('bravo');
        await ok('input.move', { x: at.x + 300, y: at.y + 300 }); // far away: the next clicks are a fresh sequence
        await new Promise((resolve) => setTimeout(resolve, 600));
        expect(textOf(await ok('input.click', { ...at, clicks: 3 }))).toContain('Triple-clicked left');
        await expect.poll(selection).toBe('alpha bravo charlie delta');
      });

      test('modifier keys are held during the click, and released after', async () => {
        const mods = centre(await screenRect('#mods'));
        const before = ((await state()).modClicks as unknown[]).length; // the actions run twice
        const clicks = async () => ((await state()).modClicks as Array<Record<string, boolean>>).slice(before);
        expect(await structured('input.click', { ...mods, modifiers: ['ctrl'] })).toMatchObject({ modifiers: ['ctrl'] });
        await expect.poll(async () => (await clicks()).length).toBe(1);
        expect((await clicks())[0]).toEqual({ ctrl: true, shift: false, alt: false, meta: false });
        await ok('input.click', { ...mods, modifiers: ['shift', 'alt'] });
        await expect.poll(async () => (await clicks()).length).toBe(2);
        expect((await clicks())[1]).toEqual({ ctrl: false, shift: true, alt: true, meta: false });
        await ok('input.click', mods);
        await expect.poll(async () => (await clicks()).length).toBe(3);
        expect((await clicks())[2]).toEqual({ ctrl: false, shift: false, alt: false, meta: false });
      });

      test('input.key with holdMs keeps the key down long enough for the OS to repeat it', async () => {
        await ok('input.click', centre(await screenRect('#keys')));
        const result = await structured<{ keys: string; heldMs: number }>('input.key', { keys: 'x', holdMs: 1500 });
        expect(result.keys).toBe('x');
        expect(result.heldMs).toBeGreaterThanOrEqual(1500);
        // X11 repeats after 660 ms at 25/s: about 20 characters
        await expect.poll(async () => (await page.inputValue('#keys')).length).toBeGreaterThan(8);
        const value = await page.inputValue('#keys');
        expect(value).toMatch(/^x+$/);
        await new Promise((resolve) => setTimeout(resolve, 200));
        expect(await page.inputValue('#keys')).toBe(value); // released: no more repeats
      });

      test('input.down and input.up press and release separately; input.cursor says where the pointer is', async () => {
        const at = { x: origin.x + 900, y: origin.y + 600 };
        const before = ((await state()).downs as unknown[]).length;
        expect(await structured('input.down', at)).toEqual({ ...at, display: 1, action: 'down', button: 'left' });
        await expect.poll(async () => ((await state()).downs as unknown[]).length).toBe(before + 1);
        expect(await structured('input.up', { button: 'left' })).toMatchObject({ ...at, action: 'up' });
        await expect.poll(async () => ((await state()).ups as Array<{ x: number }>).at(-1)).toEqual({ button: 0, x: 900, y: 600 });
        expect(await structured('input.cursor')).toEqual({ ...at, display: 1 });
        await ok('input.move', { x: 100, y: 100 });
        expect(await structured('input.cursor')).toEqual({ x: 100, y: 100, display: 0 });
      });

      test('input.wait pauses for the time asked, within its bound', async () => {
        const started = performance.now();
        const result = await structured<{ waitedMs: number }>('input.wait', { ms: 250 });
        expect(result.waitedMs).toBeGreaterThanOrEqual(249);
        expect(performance.now() - started).toBeGreaterThanOrEqual(249);
        expect((await call('input.wait', { ms: 30_001 })).isError).toBe(true);
      });
    });

    describe('two displays and captures sized for models', () => {
      test('screen.displays lists both monitors with their offsets in the virtual desktop', async () => {
        expect(await structured('screen.displays')).toEqual({
          desktop: SCREEN,
          displays: [
            { index: 0, name: 'left', x: 0, y: 0, width: 1280, height: 1600, scaleFactor: 1, primary: true },
            { index: 1, name: 'right', ...RIGHT, scaleFactor: 1, primary: false },
          ],
          backend: { name: 'x11', limits: expect.arrayContaining([expect.stringMatching(/EWMH window manager/)]) },
        });
      });

      test('by default a 2560x1600 desktop comes back within 1568 px and 1.15 MP, and a click read from the image hits the button', async () => {
        const result = await ok('screen.capture', {});
        const s = result.structuredContent as { width: number; height: number; scale: number; space: Record<string, unknown>; display: number };
        expect(s).toMatchObject({ width: 1356, height: 848, originalWidth: 2560, originalHeight: 1600, scale: 1356 / 2560 });
        expect(Math.max(s.width, s.height)).toBeLessThanOrEqual(1568);
        expect(s.width * s.height).toBeLessThanOrEqual(1_150_000);
        expect(s.space).toEqual({ width: 1356, height: 848, area: { x: 0, y: 0, ...SCREEN } });
        // read the button's position off the image, as a model would, and click there in the image's space
        const button = await onButton();
        const inImage = { x: Math.floor(button.x * s.scale), y: Math.floor(button.y * s.scale) };
        expectColor((await decode(result)).at(inImage.x, inImage.y), BUTTON_RGB, 12);
        const before = (await state()).presses as number;
        const click = await structured<{ x: number; y: number; display: number }>('input.click', { ...inImage, space: s.space });
        expect(click.display).toBe(1);
        expect(Math.abs(click.x - button.x)).toBeLessThanOrEqual(2);
        await expect.poll(async () => (await state()).presses).toBe(before + 1);
      });

      test('a capture of the second display, and a click read from it, land on that display', async () => {
        const result = await ok('screen.capture', { display: 1, format: 'jpeg' });
        const s = result.structuredContent as { width: number; height: number; scale: number; area: Rect; space: { area: Rect }; display: number };
        expect(s).toMatchObject({ width: 959, height: 1199, originalWidth: 1280, originalHeight: 1600, area: RIGHT, display: 1 });
        expect(s.space.area).toEqual(RIGHT);
        const button = await onButton();
        const inImage = { x: Math.floor((button.x - RIGHT.x) * s.scale), y: Math.floor(button.y * s.scale) };
        expectColor((await decode(result)).at(inImage.x, inImage.y), BUTTON_RGB, 24);
        const before = (await state()).presses as number;
        await ok('input.click', { ...inImage, space: s.space });
        await expect.poll(async () => (await state()).presses).toBe(before + 1);
        // a display that does not exist lists the ones that do
        expect(textOf(await call('screen.capture', { display: 2 }))).toBe(
          'INVALID_INPUT: display 2 does not exist; displays: 0 = 1280x1600 at 0,0; 1 = 1280x1600 at 1280,0',
        );
      });

      test('zoom captures a rectangle of a scaled capture at full resolution; the pointer can be drawn', async () => {
        const full = (await ok('screen.capture', {})).structuredContent as { scale: number; space: Record<string, unknown> };
        const button = await screenRect('#press');
        const rect = {
          x: Math.floor(button.x * full.scale),
          y: Math.floor(button.y * full.scale),
          width: Math.ceil(button.width * full.scale),
          height: Math.ceil(button.height * full.scale),
        };
        const zoom = await ok('screen.capture', { zoom: rect, space: full.space });
        const z = zoom.structuredContent as { width: number; originalWidth: number; scale: number; area: Rect };
        expect(z.scale).toBe(1);
        expect(z.width).toBe(z.originalWidth);
        expect(z.area.width).toBeGreaterThanOrEqual(button.width - 2);
        expect(Math.abs(z.area.x - button.x)).toBeLessThanOrEqual(3);

        const white = { x: origin.x + 900, y: origin.y + 650 };
        await ok('input.move', white);
        const area = { x: white.x - 20, y: white.y - 20, width: 60, height: 60 };
        const plain = await decode(await ok('screen.capture', { zoom: area }));
        expectColor(plain.at(24, 30), [255, 255, 255], 1);
        const drawn = await ok('screen.capture', { zoom: area, pointer: true });
        expect(drawn.structuredContent).toMatchObject({ pointer: { ...white, inImage: { x: 20, y: 20 } } });
        const pixels = await decode(drawn);
        expect(Math.max(...pixels.at(24, 30))).toBeLessThan(80); // inside the black arrow below its tip
      });

      test('saveTo writes a new file inside a writable root only when the owner allows it', async () => {
        const root = makeTempDir('capture-root-');
        const saving = await startDesktopServer(desktop, {
          desktop: { ...DESKTOP_ON.desktop, saveCaptures: true },
          filesystem: { write: true, roots: [root] },
        });
        const saver = await connectModernHttp(saving.url);
        try {
          const listed = (await saver.listTools()).tools.find((t) => t.name === 'screen.capture')!;
          expect(listed.annotations?.readOnlyHint).toBe(false);
          const file = path.join(root, 'shot.png');
          const result = await ok('screen.capture', { display: 1, saveTo: file }, saver);
          expect(result.structuredContent).toMatchObject({ savedTo: fs.realpathSync(root) + '/shot.png', width: 959 });
          expect(result.content.some((c) => c.type === 'image')).toBe(true);
          expect(await sharp(file).metadata()).toMatchObject({ format: 'png', width: 959, height: 1199 });
          expect(textOf(await call('screen.capture', { saveTo: file }, saver))).toMatch(/^ALREADY_EXISTS: .*shot\.png already exists/);
          expect(textOf(await call('screen.capture', { saveTo: path.join(root, 'a.jpg') }, saver))).toMatch(
            /^INVALID_INPUT: a PNG capture is saved to a file ending in \.png/,
          );
          expect(textOf(await call('screen.capture', { saveTo: '/etc/shot.png' }, saver))).toMatch(/^PATH_NOT_ALLOWED/);
          // the default server: no saving, and the tool stays read-only
          expect(textOf(await call('screen.capture', { saveTo: path.join(root, 'other.png') }))).toMatch(
            /^CAPABILITY_DISABLED: saving captures to files is turned off \(desktop\.saveCaptures is false\)/,
          );
          expect(fs.existsSync(path.join(root, 'other.png'))).toBe(false);
          expect((await client.listTools()).tools.find((t) => t.name === 'screen.capture')!.annotations?.readOnlyHint).toBe(true);
        } finally {
          await saver.close();
          await saving.close();
          removeDir(root);
        }
      });
    });
  },
);

interface Pixels {
  width: number;
  height: number;
  at(x: number, y: number): number[];
}

async function decode(result: { content: Array<{ type: string; data?: string }> }): Promise<Pixels> {
  const block = result.content.find((c) => c.type === 'image')!;
  const { data, info } = await sharp(Buffer.from(block.data!, 'base64')).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return {
    width: info.width,
    height: info.height,
    at(x, y) {
      const i = (Math.round(y) * info.width + Math.round(x)) * info.channels;
      return [data[i]!, data[i + 1]!, data[i + 2]!];
    },
  };
}

function expectColor(actual: number[], expected: number[], tolerance: number): void {
  const close = actual.every((v, i) => Math.abs(v - expected[i]!) <= tolerance);
  expect(close, `rgb(${actual.join(',')}) should be within ${tolerance} of rgb(${expected.join(',')})`).toBe(true);
}
