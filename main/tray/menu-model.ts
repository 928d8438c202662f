/**
 * The tray menu as plain data, decided from the server status and a few facts. The shell turns
 * it into an Electron Menu and routes clicks by action id, so every rule about what is shown
 * and enabled is tested here without Electron.
 */
import { tunnelStatusLine, type TunnelStatus } from '../tunnel/status.js';
import type { ServerStatus } from './bridge-api.js';
import { statusLine } from './tray-state.js';

export const MENU_ACTIONS = [
  'copy-url',
  'copy-token',
  'open-settings',
  'restart',
  'pause',
  'resume',
  'open-activity',
  'toggle-login',
  'quit',
  'connect-chatgpt',
  'disconnect-chatgpt',
  'open-chatgpt',
] as const;
export type MenuAction = (typeof MENU_ACTIONS)[number];

export type MenuItemModel =
  | { type: 'separator' }
  | { type: 'normal'; label: string; enabled: boolean; action?: MenuAction }
  | { type: 'checkbox'; label: string; enabled: boolean; checked: boolean; action: MenuAction };

export interface MenuFacts {
  status: ServerStatus;
  /** The running config has a token to copy. */
  hasToken: boolean;
  /** Start-at-login state, or null where this platform cannot do it. */
  openAtLogin: boolean | null;
  /** With display access: which desktop backend serves, and what the desktop itself granted. */
  desktop?: string | undefined;
  /** The ChatGPT connection, when the app offers one. */
  tunnel?: { wanted: boolean; status: Pick<TunnelStatus, 'state' | 'reason'> } | undefined;
}

export function buildMenuModel({ status, hasToken, openAtLogin, tunnel, desktop }: MenuFacts): MenuItemModel[] {
  const url = status.state === 'running' || status.state === 'paused' ? status.url : null;
  const busy = status.state === 'starting';
  const items: MenuItemModel[] = [
    { type: 'normal', label: statusLine(status), enabled: false },
    { type: 'separator' },
    { type: 'normal', label: 'Copy MCP URL', enabled: url !== null, action: 'copy-url' },
  ];
  if (hasToken) items.push({ type: 'normal', label: 'Copy token', enabled: true, action: 'copy-token' });
  if (desktop) items.push({ type: 'separator' }, { type: 'normal', label: desktop, enabled: false });
  if (tunnel) {
    items.push(
      { type: 'separator' },
      { type: 'normal', label: `ChatGPT: ${tunnelStatusLine(tunnel.status)}`, enabled: false },
      tunnel.wanted
        ? { type: 'normal', label: 'Disconnect ChatGPT', enabled: true, action: 'disconnect-chatgpt' }
        : { type: 'normal', label: 'Connect ChatGPT', enabled: status.state === 'running', action: 'connect-chatgpt' },
      { type: 'normal', label: 'ChatGPT setup…', enabled: true, action: 'open-chatgpt' },
    );
  }
  items.push(
    { type: 'separator' },
    { type: 'normal', label: 'Open settings…', enabled: true, action: 'open-settings' },
    { type: 'normal', label: 'Open activity…', enabled: true, action: 'open-activity' },
    { type: 'separator' },
    { type: 'normal', label: 'Restart server', enabled: !busy, action: 'restart' },
    status.state === 'paused'
      ? { type: 'normal', label: 'Resume server', enabled: true, action: 'resume' }
      : { type: 'normal', label: 'Pause server', enabled: status.state === 'running', action: 'pause' },
  );
  if (openAtLogin !== null) {
    items.push({ type: 'separator' }, { type: 'checkbox', label: 'Start at login', enabled: true, checked: openAtLogin, action: 'toggle-login' });
  }
  items.push({ type: 'separator' }, { type: 'normal', label: 'Quit', enabled: true, action: 'quit' });
  return items;
}
