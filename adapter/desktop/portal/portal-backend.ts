/**
 * The desktop backend of a Wayland session without wlroots protocols (GNOME, KDE), through
 * xdg-desktop-portal: Screenshot for captures and a RemoteDesktop session (portal-session.ts)
 * for the pointer and the keyboard, keys sent as keysyms so any character types as itself;
 * wl-clipboard for the clipboard.
 * The session starts on first use, which is when the portal asks the owner (once: its restore
 * token is kept). Wayland tells no client where the pointer is: its position is where this
 * backend last put it.
 */
import fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { adapterError, isComputerAdapterError } from '../../contract/errors.js';
import type { MouseButton } from '../../contract/desktop.js';
import type { ScreenPoint, ScreenRect } from '../../contract/geometry.js';
import type { DesktopBackend, PointerBackend, RawFrame } from '../desktop-backend.js';
import { ownerWait } from '../owner-wait.js';
import { usKeystroke } from '../typing-plan.js';
import { wlClipboardRead, wlClipboardWrite } from '../wlroots/wl-clipboard.js';
import { charKeysym, keysymOf } from './keysyms.js';
import { PortalBus, PortalError } from './portal-bus.js';
import { PortalSession, type PortalStream } from './portal-session.js';

const SCREENSHOT = 'org.freedesktop.portal.Screenshot';
const SCREENSHOT_TIMEOUT_MS = 30_000;
const BUTTON_CODES: Record<MouseButton, number> = { left: 0x110, right: 0x111, middle: 0x112 };

export async function loadPortalBackend(env: NodeJS.ProcessEnv): Promise<DesktopBackend> {
  if (!env.DBUS_SESSION_BUS_ADDRESS) throw new Error('the portal needs the session bus (DBUS_SESSION_BUS_ADDRESS)');
  const bus = await PortalBus.connect(env.DBUS_SESSION_BUS_ADDRESS);
  let session: Promise<PortalSession> | undefined;
  const started = (operation: string): Promise<PortalSession> => {
    session ??= PortalSession.start(bus, env).catch((error: unknown) => {
      session = undefined; // the next call asks again
      throw portalFailure(operation, error);
    });
    return session;
  };
  let at: ScreenPoint = { x: 0, y: 0 };
  const layout = async (operation: string) => bounding((await started(operation)).streams);

  const moveTo = async (point: ScreenPoint, operation: string) => {
    const s = await started(operation);
    const stream = s.streams.find((st) => point.x >= st.x && point.y >= st.y && point.x < st.x + st.width && point.y < st.y + st.height) ?? s.streams[0]!;
    await s.notify('NotifyPointerMotionAbsolute', 'udd', [stream.node, point.x - stream.x, point.y - stream.y]);
    at = { ...point };
  };
  const keysym = async (sym: number, down: boolean, operation: string) => (await started(operation)).notify('NotifyKeyboardKeysym', 'iu', [sym, down ? 1 : 0]);
  const named = (name: string, operation: string) => {
    const sym = keysymOf(name);
    if (sym === undefined) throw adapterError('INVALID_INPUT', operation, `the portal keyboard has no key "${name}"`);
    return sym;
  };
  const press = async (keys: readonly string[], down: boolean, operation: string) => {
    for (const key of down ? keys : [...keys].reverse()) await keysym(named(key, operation), down, operation);
  };
  const typeChars = async (text: string, operation: string) => {
    for (const char of text) {
      const sym = charKeysym(char);
      await keysym(sym, true, operation);
      await keysym(sym, false, operation);
    }
  };

  const pointer: PointerBackend = {
    canPress: true,
    desktop: () => layout('input.move'),
    position: async () => ({ ...at }),
    async moveTo(point, operation) {
      await moveTo(point, operation);
      return { ...at };
    },
    async play(steps, operation) {
      const s = await started(operation);
      const held = new Set<MouseButton>();
      try {
        for (const step of steps) {
          if (step.delayMs > 0) await sleep(step.delayMs);
          if (step.kind === 'move') await moveTo(step.point, operation);
          else if (step.kind === 'wheel') await s.notify('NotifyPointerAxisDiscrete', 'ui', [step.axis === 'y' ? 0 : 1, step.direction]);
          else {
            await s.notify('NotifyPointerButton', 'iu', [BUTTON_CODES[step.button], step.kind === 'press' ? 1 : 0]);
            if (step.kind === 'press') held.add(step.button);
            else held.delete(step.button);
          }
        }
      } catch (error) {
        for (const button of held) await s.notify('NotifyPointerButton', 'iu', [BUTTON_CODES[button], 0]).catch(() => undefined);
        throw portalFailure(operation, error);
      }
    },
  };

  return {
    screen: {
      size: () => layout('screen.size'),
      scaleFactor: async () => 1,
      grab: (area) => screenshot(bus, area),
      displays: async () =>
        (await started('screen.displays')).streams.map((s, i) => ({
          name: `monitor-${i}`,
          x: s.x,
          y: s.y,
          width: s.width,
          height: s.height,
          scaleFactor: 1,
          primary: i === 0,
        })),
    },
    pointer,
    keyboard: {
      async tap(keys, operation) {
        await press(keys, true, operation);
        await press(keys, false, operation);
      },
      async hold(keys, operation, action) {
        await press(keys, true, operation);
        try {
          await action();
        } finally {
          await press(keys, false, operation);
        }
      },
      async type(text) {
        for (const char of text) {
          const stroke = usKeystroke(char);
          const keys = stroke.shift ? ['shift', stroke.key] : [stroke.key];
          await press(keys, true, 'input.type');
          await press(keys, false, 'input.type');
        }
      },
    },
    clipboard: {
      // no clipboard: each character goes as its keysym. The compositor presses the key its
      // layout has for it; GNOME 43 drops a keysym its layout lacks without a word, so the
      // outcome is not known
      async paste(text, _press, _times, operation) {
        await typeChars(text, operation);
        return 'unconfirmed';
      },
      // the portal's own Clipboard interface needs xdg-desktop-portal 1.18 and a descriptor-passing bus
      // client; wl-clipboard works on GNOME (a brief surface of its own for the focus) and KDE (data-control)
      read: (options, operation) => wlClipboardRead(env, options, operation),
      write: (content, operation) => wlClipboardWrite(env, content, operation),
    },
  };
}

/** The Screenshot portal's image (a file it wrote for us: read, then removed), cut to `area`. */
async function screenshot(bus: PortalBus, area: ScreenRect | undefined): Promise<RawFrame> {
  let results: Record<string, unknown>;
  ownerWait(SCREENSHOT_TIMEOUT_MS); // the desktop may ask the owner whether screenshots are allowed
  try {
    results = await bus.request(SCREENSHOT, 'Screenshot', 'sa{sv}', (o) => ['', o], { interactive: false, modal: false }, SCREENSHOT_TIMEOUT_MS);
  } catch (error) {
    if (error instanceof PortalError && error.response === 2) {
      const why = `the Screenshot portal refused the capture (response 2). On GNOME that is its answer once the owner denied "Allow Applications to Take Screenshots?" (the desktop keeps that answer in its permission store, table "screenshot"), or when the capture failed`;
      throw adapterError('OS_ERROR', 'screen.capture', why);
    }
    throw portalFailure('screen.capture', error);
  }
  const uri = String(results.uri ?? '');
  if (!uri.startsWith('file://')) throw adapterError('OS_ERROR', 'screen.capture', 'the Screenshot portal returned no file');
  const file = fileURLToPath(uri);
  let png: Buffer;
  try {
    png = fs.readFileSync(file);
  } finally {
    fs.rmSync(file, { force: true });
  }
  const { default: sharp } = await import('sharp');
  let image = sharp(png);
  if (area) image = image.extract({ left: area.x, top: area.y, width: area.width, height: area.height });
  const { data, info } = await image.removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, byteWidth: info.width * 3, rgb: true };
}

function bounding(streams: PortalStream[]): { width: number; height: number } {
  return { width: Math.max(1, ...streams.map((s) => s.x + s.width)), height: Math.max(1, ...streams.map((s) => s.y + s.height)) };
}

function portalFailure(operation: string, error: unknown): Error {
  if (isComputerAdapterError(error)) return error as unknown as Error;
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof PortalError && error.declined) {
    return adapterError('CAPABILITY_DISABLED', operation, `${message}: the owner must allow remote control in the desktop's dialog; the next call asks again`);
  }
  return adapterError('OS_ERROR', operation, `the desktop portal failed: ${message}`);
}
