/**
 * The desktop backend of an X11 session: nut-js for the screen, the pointer and the keyboard
 * (libnut speaks Xlib and XTest), with the clipboard owned from our own X connection
 * (x11-clipboard.ts) on a local display, so a paste waits until the app has read the text, and
 * the windows through the window manager (x11-windows.ts). On a remote display (ssh forwarding),
 * or when that connection fails, nut-js's clipboard (xsel) serves it. The pointer of the server
 * process is x11-pointer.ts (x11-choice.ts offers it).
 */
import { adapterError } from '../../contract/errors.js';
import { clipboardImage, clipboardText, EMPTY_CLIPBOARD } from '../clipboard-content.js';
import type { ClipboardBackend, DesktopBackend, WindowBackend } from '../desktop-backend.js';
import { loadNutBackend } from '../nut/nut-backend.js';
import { localX11Address } from './x11-address.js';
import { X11Clipboard } from './x11-clipboard.js';
import { X11Error } from './x11-connection.js';
import { X11Windows } from './x11-windows.js';

const X11_TIMEOUT_MS = 5000;

export function loadX11Backend(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): DesktopBackend {
  const nut = loadNutBackend(platform);
  return { ...nut, clipboard: ownedClipboard(env, nut.clipboard), windows: x11Windows(env) };
}

/** A connection of ours to the local display, opened on first use and again after it closed. */
function reconnecting<T extends { closed: boolean }>(env: NodeJS.ProcessEnv, open: () => Promise<T>): () => Promise<T | undefined> {
  let current: Promise<T | undefined> | undefined;
  return async () => {
    const held = await current;
    if (held && !held.closed) return held;
    if (!localX11Address(env.DISPLAY)) return undefined;
    current = open().catch(() => undefined);
    return current;
  };
}

/** X11 failures as the caller's OS_ERROR; adapter errors pass. */
async function x11Call<T>(operation: string, what: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof X11Error)) throw error;
    throw adapterError('OS_ERROR', operation, `${what}: ${error.message}`);
  }
}

/** Our own clipboard owner on a local X display, reconnected when its connection closed; `fallback` where there is none. */
export function ownedClipboard(env: NodeJS.ProcessEnv, fallback: ClipboardBackend): ClipboardBackend {
  const own = reconnecting(env, () => X11Clipboard.connect(env, X11_TIMEOUT_MS));
  return {
    async paste(text, press, times, operation) {
      const owner = await own();
      if (!owner) return fallback.paste(text, press, times, operation);
      return x11Call(operation, 'the clipboard could not take the text to paste', () => owner.paste(text, press, times));
    },
    async read(options, operation) {
      const owner = await own();
      if (!owner) return fallback.read!(options, operation);
      const read = await x11Call(operation, 'the clipboard could not be read', () => owner.read(options.prefer, options.maxBytes));
      if (read.kind === 'empty') return EMPTY_CLIPBOARD(read.formats);
      if (read.kind === 'image') return clipboardImage(read.data, options.maxBytes, read.formats, operation, read.bytes);
      const content = clipboardText(read.data.toString('utf8'), options.maxBytes, read.formats);
      return read.bytes > read.data.length ? { ...content, bytes: read.bytes, truncated: true } : content;
    },
    async write(content, operation) {
      const owner = await own();
      if (!owner) return fallback.write!(content, operation);
      await x11Call(operation, 'the clipboard could not take the content', () => owner.write(content));
    },
  };
}

/** EWMH windows over our own connection; on a remote display there is none to ask. */
function x11Windows(env: NodeJS.ProcessEnv): WindowBackend {
  const connect = reconnecting(env, () => X11Windows.connect(env, X11_TIMEOUT_MS));
  const windows = async (operation: string) => {
    const connected = await connect();
    if (!connected) throw adapterError('PRECONDITION_FAILED', operation, `window tools need a local X display; DISPLAY=${env.DISPLAY ?? ''} is not one`);
    return connected;
  };
  return {
    list: async (operation) => x11Call(operation, 'the windows could not be listed', async () => (await windows(operation)).list(operation)),
    act: async (id, action, operation) =>
      x11Call(operation, `the window could not ${action}`, async () => (await windows(operation)).act(id, action, operation)),
    moveResize: async (id, placement, operation) =>
      x11Call(operation, 'the window could not be moved', async () => (await windows(operation)).moveResize(id, placement, operation)),
  };
}
