/** When nut-js alone serves: macOS and Windows, where a logged-in user always has a session. */
import type { BackendChoice } from '../desktop-backend.js';

export const nutChoice: BackendChoice = {
  serves: (platform) => platform === 'darwin' || platform === 'win32',
  info: () => ({
    name: 'nut-js',
    limits: ['the clipboard takes and gives text only, not images'],
  }),
  load: async (platform) => (await import('./nut-backend.js')).loadNutBackend(platform),
};
