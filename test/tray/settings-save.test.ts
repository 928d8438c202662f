import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../main/log.js';
import { saveSettings } from '../../main/tray/settings-save.js';

describe("the settings window's Save", () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'settings-save-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('writes a valid config and says where', async () => {
    const file = path.join(dir, 'config.json');
    expect(await saveSettings(file, { server: { port: 8801 } }, silentLogger)).toEqual({ ok: true, configPath: file });
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toMatchObject({ server: { port: 8801 } });
  });

  it('writes nothing for an invalid one and names each field', async () => {
    const file = path.join(dir, 'config.json');
    fs.writeFileSync(file, '{"server":{"port":8800}}');
    const result = await saveSettings(file, { server: { port: 'eighty' } }, silentLogger);
    expect(result).toMatchObject({ ok: false, error: 'Some settings are invalid; nothing was saved.' });
    expect(result.ok === false && result.issues.map((i) => i.path)).toEqual([['server', 'port']]);
    expect(fs.readFileSync(file, 'utf8')).toBe('{"server":{"port":8800}}');
  });

  it.skipIf(process.platform === 'win32')('keeps a config file the owner made read-only, and says so', async () => {
    const file = path.join(dir, 'config.json');
    fs.writeFileSync(file, '{}', { mode: 0o444 });
    const result = await saveSettings(file, { server: { port: 8801 } }, silentLogger);
    expect(result).toMatchObject({
      ok: false,
      issues: [],
      error: `${file} is read-only (mode 0444): nothing was written; make it writable (chmod u+w) to change settings`,
    });
    expect(fs.readFileSync(file, 'utf8')).toBe('{}');
  });

  it('says why a file cannot be written, by its code', async () => {
    const file = path.join(dir, 'missing-folder', 'sub', 'config.json');
    fs.writeFileSync(path.join(dir, 'missing-folder'), 'a file where a folder should be');
    const result = await saveSettings(file, {}, silentLogger);
    expect(result).toMatchObject({ ok: false, issues: [] });
    expect(result.ok === false && result.error).toMatch(/^Could not write .*config\.json \(E[A-Z]+\)\.$/);
  });
});
