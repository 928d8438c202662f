/**
 * macOS and Windows, where a logged-in user always has a session: nut-js for the screen, the
 * pointer and the keyboard, the OS's own APIs for windows and clipboard images (nut-backend.ts).
 */
import type { BackendChoice } from '../desktop-backend.js';

const LIMITS: Partial<Record<NodeJS.Platform, string[]>> = {
  darwin: [
    'window tools, ui.* and clipboard reads go through System Events or AppKit scripts: about a second per call, and they need the Accessibility grant',
    'window.maximize is full screen, as the green button does',
  ],
  win32: ["window.focus may be refused by Windows' foreground lock while the owner works in another app (the answer's done is then false)"],
};

export const nutChoice: BackendChoice = {
  serves: (platform) => platform === 'darwin' || platform === 'win32',
  info: () => ({ name: 'nut-js', limits: LIMITS[process.platform] ?? [] }),
  load: async (platform) => (await import('./nut-backend.js')).loadNutBackend(platform),
};
