import { describe, expect, it } from 'vitest';
import type { ServerStatus } from '../../main/tray/bridge-api.js';
import { buildMenuModel, MENU_ACTIONS, type MenuItemModel } from '../../main/tray/menu-model.js';

const running: ServerStatus = { state: 'running', url: 'http://127.0.0.1:3210/mcp', toolCount: 3, auth: false };
const labels = (items: MenuItemModel[]) =>
  items.map((i) =>
    i.type === 'separator' ? '---' : `${i.label}${i.enabled ? '' : ' (disabled)'}${i.type === 'checkbox' ? (i.checked ? ' [x]' : ' [ ]') : ''}`,
  );

describe('tray menu model', () => {
  it('running, with a token and login items available', () => {
    expect(labels(buildMenuModel({ status: running, hasToken: true, openAtLogin: false }))).toEqual([
      'Running at http://127.0.0.1:3210/mcp (disabled)',
      '---',
      'Copy MCP URL',
      'Copy token',
      '---',
      'Open settings…',
      'Open activity…',
      '---',
      'Restart server',
      'Pause server',
      '---',
      'Start at login [ ]',
      '---',
      'Quit',
    ]);
  });

  it('puts what waits for the owner first: connection requests to approve, and saved settings to restart into', () => {
    const items = buildMenuModel({ status: running, hasToken: true, openAtLogin: null, waitingApprovals: 2, restartPending: true });
    expect(labels(items).slice(0, 4)).toEqual([
      'Running at http://127.0.0.1:3210/mcp (disabled)',
      '2 connection requests wait for your approval…',
      'Restart to use the saved settings',
      '---',
    ]);
    expect(items[1]).toMatchObject({ action: 'open-clients' });
    expect(items[2]).toMatchObject({ action: 'restart' });
    expect(labels(buildMenuModel({ status: running, hasToken: true, openAtLogin: null, waitingApprovals: 1 }))[1]).toBe(
      '1 connection request waits for your approval…',
    );
    expect(labels(buildMenuModel({ status: { state: 'starting' }, hasToken: false, openAtLogin: null, restartPending: true }))).toContain(
      'Restart to use the saved settings (disabled)',
    );
    expect(labels(buildMenuModel({ status: running, hasToken: true, openAtLogin: null, waitingApprovals: 0, restartPending: false }))[1]).toBe('---');
  });

  it('paused offers Resume and still copies the URL', () => {
    const items = labels(buildMenuModel({ status: { state: 'paused', url: 'http://127.0.0.1:1/mcp' }, hasToken: false, openAtLogin: true }));
    expect(items).toContain('Resume server');
    expect(items).not.toContain('Pause server');
    expect(items).toContain('Copy MCP URL');
    expect(items).toContain('Start at login [x]');
  });

  it('error and stopped: nothing to copy or pause, restart still there', () => {
    for (const status of [{ state: 'error', message: 'bad port', field: ['server', 'port'] }, { state: 'stopped' }] as ServerStatus[]) {
      const items = labels(buildMenuModel({ status, hasToken: false, openAtLogin: null }));
      expect(items).toContain('Copy MCP URL (disabled)');
      expect(items).toContain('Pause server (disabled)');
      expect(items).toContain('Restart server');
      expect(items.some((l) => l.startsWith('Start at login'))).toBe(false);
      expect(items).not.toContain('Copy token');
    }
  });

  it('starting cannot be restarted twice', () => {
    expect(labels(buildMenuModel({ status: { state: 'starting' }, hasToken: false, openAtLogin: null }))).toContain('Restart server (disabled)');
  });

  it('with display access, says which desktop backend serves and what the desktop granted', () => {
    const desktop = "Desktop: wayland-portal, the owner allowed remote control in the desktop's portal dialog";
    const items = labels(buildMenuModel({ status: running, hasToken: false, openAtLogin: null, desktop }));
    expect(items.slice(0, 5)).toEqual(['Running at http://127.0.0.1:3210/mcp (disabled)', '---', 'Copy MCP URL', '---', `${desktop} (disabled)`]);
    expect(labels(buildMenuModel({ status: running, hasToken: false, openAtLogin: null })).join(' ')).not.toMatch(/Desktop:/);
  });

  it('uses only known actions, each once', () => {
    const actions = buildMenuModel({ status: running, hasToken: true, openAtLogin: true }).flatMap((i) =>
      i.type !== 'separator' && i.action ? [i.action] : [],
    );
    expect(new Set(actions).size).toBe(actions.length);
    for (const action of actions) expect(MENU_ACTIONS).toContain(action);
  });

  it('shows the ChatGPT connection with its reason, and offers Connect or Disconnect', () => {
    const off = labels(
      buildMenuModel({ status: running, hasToken: true, openAtLogin: null, tunnel: { wanted: false, status: { state: 'stopped', reason: null } } }),
    );
    expect(off.slice(4, 8)).toEqual(['---', 'ChatGPT: Not connected (disabled)', 'Connect ChatGPT', 'ChatGPT setup…']);
    const red = labels(
      buildMenuModel({
        status: running,
        hasToken: true,
        openAtLogin: null,
        tunnel: { wanted: true, status: { state: 'error', reason: 'OpenAI refused the runtime key (HTTP 401).' } },
      }),
    );
    expect(red).toContain('ChatGPT: Error: OpenAI refused the runtime key (HTTP 401). (disabled)');
    expect(red).toContain('Disconnect ChatGPT');
    const serverDown = labels(
      buildMenuModel({
        status: { state: 'stopped' },
        hasToken: false,
        openAtLogin: null,
        tunnel: { wanted: false, status: { state: 'stopped', reason: null } },
      }),
    );
    expect(serverDown).toContain('Connect ChatGPT (disabled)');
  });

  it('shows the other MCP servers: how many run, tools held, and a way to review them', () => {
    const quiet = labels(buildMenuModel({ status: running, hasToken: false, openAtLogin: null, gateway: { servers: 2, running: 1, held: 0 } }));
    expect(quiet).toEqual(expect.arrayContaining(['Other MCP servers: 1 of 2 running (disabled)', 'Other MCP servers…']));
    const held = buildMenuModel({ status: running, hasToken: false, openAtLogin: null, gateway: { servers: 1, running: 1, held: 2 } });
    expect(labels(held)).toContain('Other MCP servers: 1 of 1 running, 2 changed tools held (disabled)');
    expect(held.find((i) => i.type === 'normal' && i.label === 'Review held tools…')).toMatchObject({ action: 'open-gateway', enabled: true });
    expect(labels(buildMenuModel({ status: running, hasToken: false, openAtLogin: null, gateway: null })).some((l) => l.includes('Other MCP'))).toBe(false);
  });
});

describe('Pause writes', () => {
  const running = { state: 'running', url: 'http://127.0.0.1:3210/mcp', toolCount: 3, auth: true } as const;
  const pause = (readOnly: boolean | null | undefined, status: Parameters<typeof buildMenuModel>[0]['status'] = running) =>
    buildMenuModel({ status, hasToken: false, openAtLogin: null, readOnly }).find((item) => item.type === 'checkbox' && item.action === 'toggle-read-only');

  it('is a checkbox showing server.readOnly of the config in effect, and absent without one', () => {
    expect(pause(false)).toEqual({ type: 'checkbox', label: 'Pause writes', enabled: true, checked: false, action: 'toggle-read-only' });
    expect(pause(true)).toMatchObject({ checked: true });
    expect(pause(null)).toBeUndefined();
    expect(pause(undefined)).toBeUndefined();
    expect(pause(false, { state: 'starting' })).toMatchObject({ enabled: false });
  });
});

describe('the profile switch', () => {
  const radios = (profiles: { names: string[]; active: string } | null, status: ServerStatus = running) =>
    buildMenuModel({ status, hasToken: false, openAtLogin: null, profiles }).filter((item) => item.type === 'radio');

  it('offers every profile as one group, the active one checked, and nothing without a config in effect', () => {
    expect(radios({ names: ['Full', 'Read-only', 'Mine'], active: 'Read-only' })).toEqual([
      { type: 'radio', label: 'Profile: Full', enabled: true, checked: false, action: 'use-profile', arg: 'Full' },
      { type: 'radio', label: 'Profile: Read-only', enabled: true, checked: true, action: 'use-profile', arg: 'Read-only' },
      { type: 'radio', label: 'Profile: Mine', enabled: true, checked: false, action: 'use-profile', arg: 'Mine' },
    ]);
    expect(radios(null)).toEqual([]);
    expect(radios({ names: ['Full'], active: 'Full' }, { state: 'starting' })[0]).toMatchObject({ enabled: false });
  });
});

describe('the app update', () => {
  const base = { status: running, hasToken: false, openAtLogin: null };
  const tail = (items: MenuItemModel[]) => labels(items).slice(-3);

  it('says a download in progress, then offers the downloaded version before Quit', () => {
    expect(tail(buildMenuModel({ ...base, update: { state: 'downloading', version: '0.2.0', percent: 40 } }))).toEqual([
      '---',
      'Downloading version 0.2.0 (40%)… (disabled)',
      'Quit',
    ]);
    const ready = buildMenuModel({ ...base, update: { state: 'ready', version: '0.2.0' } });
    expect(tail(ready)).toEqual(['---', 'Restart to update to 0.2.0', 'Quit']);
    expect(ready.find((i) => i.type === 'normal' && i.label.startsWith('Restart to update'))).toMatchObject({ action: 'install-update' });
  });

  it('says nothing while there is nothing to install', () => {
    for (const update of [
      { state: 'off', reason: 'x' },
      { state: 'idle', checkedAt: null },
      { state: 'checking' },
      { state: 'error', message: 'x' },
    ] as const) {
      expect(tail(buildMenuModel({ ...base, update }))).toEqual(['Pause server', '---', 'Quit']);
    }
  });
});
