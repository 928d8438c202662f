import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../main/log.js';
import { loadConfig } from '../../main/config/load.js';
import { menuProfiles, saveActiveProfile } from '../../main/tray/profile-switch.js';

describe("the tray's profile switch", () => {
  let dir: string;
  let file: string;
  let lines: string[];
  const log = () => createLogger('info', (line) => void lines.push(line));
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'profile-switch-'));
    file = path.join(dir, 'config.json');
    lines = [];
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('saves profiles.active and keeps every other setting, the bindings included', async () => {
    const settings = { server: { port: 8799 }, profiles: { token: 'Coding', sets: { Mine: { grants: ['filesRead'] } } } };
    fs.writeFileSync(file, JSON.stringify(settings));
    expect(await saveActiveProfile(file, 'Mine', log())).toBe(true);
    const saved = loadConfig({ cli: { config: file }, env: {} }).config;
    expect(saved.profiles).toMatchObject({ active: 'Mine', token: 'Coding' });
    expect(saved.server.port).toBe(8799);
    expect(lines.join('')).toContain('profile \\"Mine\\" is active');
    expect(menuProfiles(saved)).toEqual({ names: ['Full', 'Read-only', 'Coding', 'Desktop', 'Mine'], active: 'Mine' });
    expect(menuProfiles(null)).toBeNull();
  });

  it('refuses a name that is no profile and leaves the file as it was', async () => {
    fs.writeFileSync(file, '{"profiles":{"active":"Coding"}}');
    expect(await saveActiveProfile(file, 'Gone', log())).toBe(false);
    expect(fs.readFileSync(file, 'utf8')).toBe('{"profiles":{"active":"Coding"}}');
    expect(lines.join('')).toContain('names no profile');
  });
});
