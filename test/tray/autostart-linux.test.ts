import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { autostartFile, desktopEntry, isAutostartEnabled, setAutostart } from '../../main/tray/autostart-linux.js';

describe('Linux start at login (XDG autostart)', () => {
  let home: string;
  beforeEach(() => {
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'autostart-'));
  });
  afterEach(() => fs.rmSync(home, { recursive: true, force: true }));

  it('writes and removes the entry under XDG_CONFIG_HOME or ~/.config', () => {
    const location = { env: {}, home };
    expect(autostartFile(location)).toBe(path.join(home, '.config', 'autostart', 'chatgpt-mcp.desktop'));
    expect(autostartFile({ env: { XDG_CONFIG_HOME: '/xdg' }, home })).toBe('/xdg/autostart/chatgpt-mcp.desktop');
    expect(autostartFile({ env: { XDG_CONFIG_HOME: 'relative' }, home })).toBe(path.join(home, '.config', 'autostart', 'chatgpt-mcp.desktop'));

    expect(isAutostartEnabled(location)).toBe(false);
    setAutostart(location, true, '/opt/App Image/app.AppImage', 'ChatGPT Computer MCP');
    expect(isAutostartEnabled(location)).toBe(true);
    expect(fs.readFileSync(autostartFile(location), 'utf8')).toContain('Exec="/opt/App Image/app.AppImage"');
    setAutostart(location, false, '', '');
    expect(isAutostartEnabled(location)).toBe(false);
    setAutostart(location, false, '', '');
  });

  it('quotes Exec as the Desktop Entry spec requires', () => {
    expect(desktopEntry('/a/"q"/$x/`y`/\\z', 'N')).toContain('Exec="/a/\\"q\\"/\\$x/\\`y\\`/\\\\z"');
  });
});
