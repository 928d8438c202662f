/**
 * The desktop backend on nut-js (libnut: Xlib and XTest on X11, Quartz on macOS, Win32 on
 * Windows). Runs ONLY inside the desktop worker: loading nut-js opens the display and
 * segfaults the process without one.
 *
 * Physical pixels: on macOS with a Retina display nut-js moves the pointer in points while
 * captures are in pixels; `density` converts (1 elsewhere).
 */
import { createRequire } from 'node:module';
import { setTimeout as sleep } from 'node:timers/promises';
import type * as NutJs from '@nut-tree-fork/nut-js';
import type { MouseButton } from '../../contract/desktop.js';
import { adapterError } from '../../contract/errors.js';
import type { ScreenPoint, ScreenRect, ScreenSize } from '../../contract/geometry.js';
import type { ClipboardBackend, DesktopBackend, KeyboardBackend, PointerBackend, RawFrame, ScreenBackend } from '../desktop-backend.js';
import { clipboardText } from '../clipboard-content.js';
import { AxWindows } from '../darwin/ax-windows.js';
import { macClipboardRead, macClipboardWriteImage } from '../darwin/mac-clipboard.js';
import { win32ClipboardRead, win32ClipboardWriteImage } from '../win32/win32-clipboard.js';
import { Win32Windows } from '../win32/win32-windows.js';
import { nutKeyName } from '../keys.js';
import type { PointerStep } from '../pointer-actions.js';

export type Nut = typeof NutJs;

/** Without our own clipboard owner: a pause for the app to fetch the text, and how often to read it back. */
const PASTE_SETTLE_MS = 50;
const CLIPBOARD_ATTEMPTS = 25;

export function loadNutBackend(platform: NodeJS.Platform = process.platform): DesktopBackend {
  const nut = createRequire(import.meta.url)('@nut-tree-fork/nut-js') as Nut;
  // Defaults are 100 ms per mouse action and 300 ms per key: far too slow for a model's calls.
  nut.mouse.config.autoDelayMs = 0;
  nut.keyboard.config.autoDelayMs = 0;
  nut.providerRegistry.getMouse().setMouseDelay(0);
  nut.providerRegistry.getKeyboard().setKeyboardDelay(0);
  return nutBackend(nut, platform);
}

/**
 * Over a given nut-js-shaped object: tests use it for what no machine here has (a Retina
 * display's points against pixels); loadNutBackend passes the real one.
 */
export function nutBackend(nut: Nut, platform: NodeJS.Platform): DesktopBackend {
  let densityCache: number | undefined;
  /** Physical pixels per pointer unit: a 1x1-point capture is 2x2 pixels on Retina. */
  const density = async (): Promise<number> => {
    if (densityCache === undefined) {
      if (platform !== 'darwin') densityCache = 1;
      else {
        // The size of a capture is right even before Screen Recording is granted (only content is hidden).
        densityCache = (await nut.screen.grabRegion(new nut.Region(0, 0, 1, 1))).pixelDensity.scaleX || 1;
      }
    }
    return densityCache;
  };
  const screen = nutScreen(nut, density);
  const keyboard = nutKeyboard(nut, platform);
  const backend: DesktopBackend = { screen, pointer: nutPointer(nut, screen, density), keyboard, clipboard: nutClipboard(nut) };
  // nut-js has no windows and no clipboard images: the OS's own APIs do them (X11 and Wayland backends bring their own).
  if (platform === 'win32')
    return { ...backend, windows: new Win32Windows(), clipboard: withImages(backend.clipboard, win32ClipboardRead, win32ClipboardWriteImage) };
  if (platform === 'darwin') {
    const clipboard = withImages(
      backend.clipboard,
      (options, operation) => macClipboardRead(options, operation),
      (png, operation) => macClipboardWriteImage(png, operation),
    );
    return { ...backend, windows: new AxWindows(density), clipboard };
  }
  return backend;
}

function nutScreen(nut: Nut, density: () => Promise<number>): ScreenBackend {
  return {
    async size(): Promise<ScreenSize> {
      const d = await density();
      return { width: Math.round((await nut.screen.width()) * d), height: Math.round((await nut.screen.height()) * d) };
    },
    scaleFactor: density,
    async grab(area?: ScreenRect): Promise<RawFrame> {
      if (!area) return nut.screen.grab();
      const d = await density();
      return nut.screen.grabRegion(new nut.Region(area.x / d, area.y / d, area.width / d, area.height / d));
    },
  };
}

function nutPointer(nut: Nut, screen: ScreenBackend, density: () => Promise<number>): PointerBackend {
  const { mouse } = nut;
  const button = (name: MouseButton): NutJs.Button => ({ left: nut.Button.LEFT, right: nut.Button.RIGHT, middle: nut.Button.MIDDLE })[name];
  const moveTo = async (point: ScreenPoint): Promise<ScreenPoint> => {
    const d = await density();
    await mouse.setPosition(new nut.Point(point.x / d, point.y / d));
    return point;
  };
  return {
    canPress: true,
    desktop: () => screen.size(),
    async position(): Promise<ScreenPoint> {
      const at = await mouse.getPosition();
      const d = await density();
      return { x: Math.round(at.x * d), y: Math.round(at.y * d) };
    },
    moveTo,
    /** In time, sleeping between steps; a button the steps pressed is released when a later step fails. */
    async play(steps: readonly PointerStep[]): Promise<void> {
      const pressed = new Set<MouseButton>();
      try {
        for (const step of steps) {
          if (step.delayMs > 0) await sleep(step.delayMs);
          switch (step.kind) {
            case 'move':
              await moveTo(step.point);
              break;
            case 'press':
              await mouse.pressButton(button(step.button));
              pressed.add(step.button);
              break;
            case 'release':
              await mouse.releaseButton(button(step.button));
              pressed.delete(step.button);
              break;
            case 'wheel':
              if (step.axis === 'y') await (step.direction > 0 ? mouse.scrollDown(1) : mouse.scrollUp(1));
              else await (step.direction > 0 ? mouse.scrollRight(1) : mouse.scrollLeft(1));
          }
        }
      } catch (error) {
        for (const name of pressed) await mouse.releaseButton(button(name)).catch(() => undefined);
        throw error;
      }
    },
  };
}

function nutKeyboard(nut: Nut, platform: NodeJS.Platform): KeyboardBackend {
  const keys = (names: readonly string[], operation: string): NutJs.Key[] =>
    names.map((name) => {
      const key = nut.Key[nutKeyName(name, platform) as keyof typeof NutJs.Key];
      if (key === undefined) throw adapterError('INVALID_INPUT', operation, `the key "${name}" is not available on ${platform}`);
      return key;
    });
  return {
    // libnut's keyTap: the keys pressed together, then released
    tap: async (names, operation) => void (await nut.keyboard.type(...keys(names, operation))),
    async hold(names, operation, action) {
      const held = keys(names, operation);
      await nut.keyboard.pressKey(...held);
      try {
        await action();
      } finally {
        await nut.keyboard.releaseKey(...held);
      }
    },
    type: async (text) => void (await nut.keyboard.type(text)),
  };
}

/** nut-js's clipboard for pasting and writing text; the OS's script for reading (text or image) and writing images. */
function withImages(
  clipboard: ClipboardBackend,
  read: NonNullable<ClipboardBackend['read']>,
  writeImage: (png: Buffer, operation: string) => Promise<void>,
): ClipboardBackend {
  return {
    ...clipboard,
    read,
    write: (content, operation) => ('text' in content ? clipboard.write!(content, operation) : writeImage(content.image, operation)),
  };
}

/**
 * nut-js's clipboard: on X11 a forked xsel serves it and takes the selection a moment after
 * setContent returns, so pasting before that pastes the old content; it is read back until it is
 * ours. Whether the app then read it cannot be seen: it gets PASTE_SETTLE_MS.
 */
function nutClipboard(nut: Nut): ClipboardBackend {
  return {
    async paste(text, press, _times, operation) {
      await nut.clipboard.setContent(text);
      let taken = false;
      for (let attempt = 0; attempt < CLIPBOARD_ATTEMPTS && !taken; attempt++) {
        taken = (await nut.clipboard.getContent()) === text;
        if (!taken) await sleep(20);
      }
      if (!taken) {
        throw adapterError(
          'OS_ERROR',
          operation,
          'the clipboard did not take the text to paste, so non-ASCII characters cannot be typed (on Linux the clipboard needs xsel, bundled with nut-js, and a running X server)',
        );
      }
      await press();
      await sleep(PASTE_SETTLE_MS);
      return 'unconfirmed';
    },
    // text only: nut-js's clipboard (clipboardy) knows no images
    async read(options) {
      const text = await nut.clipboard.getContent();
      return clipboardText(text, options.maxBytes, ['text/plain']);
    },
    async write(content, operation) {
      if (!('text' in content))
        throw adapterError('PRECONDITION_FAILED', operation, 'this desktop backend (nut-js) puts only text on the clipboard, not images');
      await nut.clipboard.setContent(content.text);
    },
  };
}
