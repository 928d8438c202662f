/**
 * The tray menu as plain data, decided from the server status and a few facts. The shell turns
 * it into an Electron Menu and routes clicks by action id, so every rule about what is shown
 * and enabled is tested here without Electron.
 */
import { tunnelStatusLine, type TunnelStatus } from '../tunnel/status.js';
import type { ServerStatus } from './bridge-api.js';
import { statusLine } from './tray-state.js';
import type { UpdateStatus } from '../updates/update-service.js';

export const MENU_ACTIONS = [
  'copy-url',
  'copy-token',
  'open-settings',
  'restart',
  'pause',
  'resume',
  'open-activity',
  'open-clients',
  'toggle-login',
  'quit',
  'connect-chatgpt',
  'disconnect-chatgpt',
  'open-chatgpt',
  'toggle-read-only',
  'open-gateway',
  'install-update',
  'use-profile',
] as const;
export type MenuAction = (typeof MENU_ACTIONS)[number];

export type MenuItemModel =
  | { type: 'separator' }
  | { type: 'normal'; label: string; enabled: boolean; action?: MenuAction }
  | { type: 'checkbox'; label: string; enabled: boolean; checked: boolean; action: MenuAction }
  /** One of a group: the profile switch (`arg` is the profile's name). */
  | { type: 'radio'; label: string; enabled: boolean; checked: boolean; action: MenuAction; arg: string };

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
  /** OAuth connection requests waiting for the owner. */
  waitingApprovals?: number;
  /** Saved settings the running server does not use until it restarts. */
  restartPending?: boolean;
  /** server.readOnly of the config in effect, or null when none is (the server is not running). */
  readOnly?: boolean | null;
  /** The profiles of the config in effect and the active one, or null when none is in effect. */
  profiles?: { names: string[]; active: string } | null;
  /** The app's own update (updates.check), when the shell has an updater. */
  update?: UpdateStatus;
  /** The running server's other MCP servers (gateway.servers), when it has any. */
  gateway?: { servers: number; running: number; held: number } | null;
}

export function buildMenuModel({
  status,
  hasToken,
  openAtLogin,
  tunnel,
  waitingApprovals = 0,
  restartPending = false,
  readOnly = null,
  profiles = null,
  gateway,
  update,
  desktop,
}: MenuFacts): MenuItemModel[] {
  const url = status.state === 'running' || status.state === 'paused' ? status.url : null;
  const busy = status.state === 'starting';
  const items: MenuItemModel[] = [{ type: 'normal', label: statusLine(status), enabled: false }];
  // What needs the owner comes first, under the status it explains.
  if (waitingApprovals > 0) {
    const requests = waitingApprovals === 1 ? '1 connection request waits' : `${waitingApprovals} connection requests wait`;
    items.push({ type: 'normal', label: `${requests} for your approval…`, enabled: true, action: 'open-clients' });
  }
  if (restartPending) items.push({ type: 'normal', label: 'Restart to use the saved settings', enabled: !busy, action: 'restart' });
  items.push({ type: 'separator' }, { type: 'normal', label: 'Copy MCP URL', enabled: url !== null, action: 'copy-url' });
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
  if (gateway) {
    const held = gateway.held > 0 ? `, ${gateway.held} changed tool${gateway.held === 1 ? '' : 's'} held` : '';
    items.push(
      { type: 'separator' },
      { type: 'normal', label: `Other MCP servers: ${gateway.running} of ${gateway.servers} running${held}`, enabled: false },
      { type: 'normal', label: gateway.held > 0 ? 'Review held tools…' : 'Other MCP servers…', enabled: true, action: 'open-gateway' },
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
  // Hides every tool that changes something (server.readOnly); toggling it restarts the server.
  if (readOnly !== null) items.push({ type: 'checkbox', label: 'Pause writes', enabled: !busy, checked: readOnly, action: 'toggle-read-only' });
  // The active profile (profiles.active) for stdio and unbound callers; choosing one restarts the server.
  if (profiles) {
    items.push({ type: 'separator' });
    for (const name of profiles.names) {
      items.push({ type: 'radio', label: `Profile: ${name}`, enabled: !busy, checked: name === profiles.active, action: 'use-profile', arg: name });
    }
  }
  if (openAtLogin !== null) {
    items.push({ type: 'separator' }, { type: 'checkbox', label: 'Start at login', enabled: true, checked: openAtLogin, action: 'toggle-login' });
  }
  items.push({ type: 'separator' });
  // A downloaded release installs on quit anyway; the line says so and offers it now.
  if (update?.state === 'downloading') items.push({ type: 'normal', label: `Downloading version ${update.version} (${update.percent}%)…`, enabled: false });
  if (update?.state === 'ready') items.push({ type: 'normal', label: `Restart to update to ${update.version}`, enabled: true, action: 'install-update' });
  items.push({ type: 'normal', label: 'Quit', enabled: true, action: 'quit' });
  return items;
}
