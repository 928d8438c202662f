/**
 * What the owner does next, in the words of the place they work in: the settings window's
 * ChatGPT page for the tray, commands and config keys headless (named the way the owner runs
 * the CLI). The steps (setup.ts, the supervisor, the download) pick the sentence from here.
 */
import { cliName } from '../command-name.js';

export interface TunnelWords {
  /** How to get a tunnel client. */
  getClient: string;
  /** How to store the runtime key. */
  saveKey: string;
  /** Where the tunnel id goes. */
  setTunnelId: string;
  /** What to do about an invalid config file. */
  fixConfig: string;
  /** Where to look when the client keeps failing. */
  checkEverything: string;
}

export const TRAY_WORDS: TunnelWords = {
  getClient: 'download it, or choose the tunnel-client program you already have',
  saveKey: 'save the runtime key in the ChatGPT section of the settings window',
  setTunnelId: 'enter its id in the ChatGPT section of the settings window',
  fixConfig: 'fix it in the settings window first',
  checkEverything: 'the steps of the ChatGPT section show what is missing',
};

export function cliWords(name: string = cliName()): TunnelWords {
  return {
    getClient: `"${name} tunnel download" installs it, or pass --client FILE (or set tunnel.clientPath in the config) for a tunnel-client you already have`,
    saveKey: `store the runtime key with "${name} tunnel set-key"`,
    setTunnelId: 'put its id in tunnel.tunnelId in the config (or pass --tunnel-id)',
    fixConfig: `fix it first ("${name} config check" says what is wrong)`,
    checkEverything: `"${name} tunnel doctor" checks every part`,
  };
}
