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
});
