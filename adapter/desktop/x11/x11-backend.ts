/**
 * The desktop backend of an X11 session: nut-js for the screen, the pointer and the keyboard
 * (libnut speaks Xlib and XTest), with the clipboard owned from our own X connection
 * (x11-clipboard.ts) on a local display, so a paste waits until the app has read the text. On a
 * remote display (ssh forwarding), or when that connection fails, nut-js's clipboard (xsel)
 * serves it. The pointer of the server process is x11-pointer.ts (x11-choice.ts offers it).
 */
import { adapterError } from '../../contract/errors.js';
import type { ClipboardBackend, DesktopBackend } from '../desktop-backend.js';
import { loadNutBackend } from '../nut/nut-backend.js';
import { localX11Address } from './x11-address.js';
import { X11Clipboard } from './x11-clipboard.js';
import { X11Error } from './x11-connection.js';

const X11_TIMEOUT_MS = 5000;

export function loadX11Backend(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): DesktopBackend {
  const nut = loadNutBackend(platform);
  return { ...nut, clipboard: ownedClipboard(env, nut.clipboard) };
}

/** Our own clipboard owner on a local X display, reconnected when its connection closed; `fallback` where there is none. */
export function ownedClipboard(env: NodeJS.ProcessEnv, fallback: ClipboardBackend): ClipboardBackend {
  let clipboard: Promise<X11Clipboard | undefined> | undefined;
  const own = async (): Promise<X11Clipboard | undefined> => {
    const current = await clipboard;
    if (current && !current.closed) return current;
    if (!localX11Address(env.DISPLAY)) return undefined;
    clipboard = X11Clipboard.connect(env, X11_TIMEOUT_MS).catch(() => undefined);
    return clipboard;
  };
  return {
    async paste(text, press, times, operation) {
      const owner = await own();
      if (!owner) return fallback.paste(text, press, times, operation);
      try {
        return await owner.paste(text, press, times);
      } catch (error) {
        if (!(error instanceof X11Error)) throw error;
        throw adapterError('OS_ERROR', operation, `the clipboard could not take the text to paste: ${error.message}`);
      }
    },
  };
}
