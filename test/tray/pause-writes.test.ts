import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../main/log.js';
import { loadConfig } from '../../main/config/load.js';
import { savePauseWrites } from '../../main/tray/pause-writes.js';

describe("the tray's Pause writes", () => {
  let dir: string;
  let file: string;
  let lines: string[];
  const log = () => createLogger('info', (line) => void lines.push(line));
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pause-writes-'));
    file = path.join(dir, 'config.json');
    lines = [];
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('flips server.readOnly in the saved file and keeps every other setting', async () => {
    fs.writeFileSync(file, JSON.stringify({ server: { port: 8799 }, filesystem: { write: true, roots: [dir] } }));
    expect(await savePauseWrites(file, false, log())).toBe(true);
    const paused = loadConfig({ cli: { config: file }, env: {} }).config;
    expect(paused.server.readOnly).toBe(true);
    expect(paused.server.port).toBe(8799);
    expect(paused.filesystem.roots).toHaveLength(1);
    expect(lines.join('')).toContain('writes paused');

    expect(await savePauseWrites(file, true, log())).toBe(true);
    expect(loadConfig({ cli: { config: file }, env: {} }).config.server.readOnly).toBe(false);
    expect(lines.join('')).toContain('writes resumed');
  });

  it('leaves a file it cannot read untouched and says so', async () => {
    fs.writeFileSync(file, '{ not json');
    expect(await savePauseWrites(file, false, log())).toBe(false);
    expect(fs.readFileSync(file, 'utf8')).toBe('{ not json');
    expect(lines.join('')).toContain('cannot be read');
  });
});
