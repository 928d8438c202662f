/**
 * The Gateway page's rows while the server is stopped: read from the saved config and the pins
 * on disk. Each row's tools for the switches (accepted and held, the held one as it is now),
 * their names and descriptions escaped and cut to a line; the count of tools its settings expose.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configSchema } from '../../main/config/schema.js';
import { PinStore, pinsPath } from '../../main/gateway/pin-store.js';
import { GatewayPanel } from '../../main/tray/gateway-panel.js';
import { makeTempDir, removeDir } from '../helpers/temp.js';

let dir: string;
beforeEach(() => {
  dir = makeTempDir('gateway-panel-');
});
afterEach(() => removeDir(dir));

describe('GatewayPanel.snapshot, stopped', () => {
  it('lists every tool last seen for the switches, escaped and cut to a line, and counts those the settings expose', async () => {
    const appDir = path.join(dir, 'app');
    const pins = new PinStore(pinsPath(appDir));
    const tool = (name: string, description: string) => ({ name, description, inputSchema: { type: 'object' } });
    await pins.review('kit', [tool('search', 'Searches.\nMore.'), tool('wipe', 'x'.repeat(300))]);
    await pins.review('kit', [tool('search', 'Searches.\nMore.'), tool('wipe', 'x'.repeat(300)), tool('new\u202etool', 'Evil \u001b[31mred')]);
    const gateway = configSchema.parse({ gateway: { servers: [{ name: 'kit', command: 'kit', tools: { exclude: ['wipe'] } }] } }).gateway;
    const row = new GatewayPanel(
      appDir,
      () => null,
      () => gateway,
    ).snapshot().upstreams[0]!;
    expect(row.known.map((t) => [t.name, t.label])).toEqual([
      ['new\u202etool', 'new\\u202etool'],
      ['search', 'search'],
      ['wipe', 'wipe'],
    ]);
    expect(row.known[0]!.about).toBe('Evil \\u001b[31mred');
    expect(row.known[1]!.about).toBe('Searches.');
    expect(row.known[2]!.about).toHaveLength(140);
    expect(row.known[2]!.about.endsWith('…')).toBe(true);
    // Accepted: search and wipe; wipe is excluded; the new one is held, not counted.
    expect(row.tools).toBe(1);
    expect(fs.existsSync(pinsPath(appDir))).toBe(true);
  });
});
