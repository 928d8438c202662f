/** The tray's record of the last start's contract: first start, no change, and a change named. */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fingerprint } from '../../main/mcp/contract-fingerprint.js';
import { CONTRACT_FILE, describeContractChange, noteContract, recordContract } from '../../main/tray/contract-record.js';
import { createLogger } from '../../main/log.js';
import { makeTempDir, removeDir } from '../helpers/temp.js';

const face = (name: string, description = '') => ({ name, inputSchema: { type: 'object', description }, outputSchema: {}, annotations: undefined });

let dir: string;
beforeEach(() => {
  dir = makeTempDir('contract-');
});
afterEach(() => removeDir(dir));

describe('recordContract', () => {
  it('records the first start quietly, then names what changed', async () => {
    const first = fingerprint([face('system_info'), face('fs_read')]);
    expect(await recordContract(dir, first)).toBeNull();
    expect(fs.statSync(path.join(dir, CONTRACT_FILE)).mode & 0o777).toBe(0o600);
    expect(await recordContract(dir, first)).toBeNull();
    const next = fingerprint([face('system_info'), face('fs_read', 'reads more'), face('fs_write')]);
    const change = await recordContract(dir, next);
    expect(change).toEqual({ added: ['fs_write'], removed: [], changed: ['fs_read'] });
    expect(describeContractChange(change!)).toBe('The tools a model sees changed since the last start: added fs_write; changed fs_read.');
    expect(await recordContract(dir, next)).toBeNull();
  });

  it('replaces a damaged record without failing the start', async () => {
    fs.writeFileSync(path.join(dir, CONTRACT_FILE), '{not json', { mode: 0o600 });
    const current = fingerprint([face('system_info')]);
    expect(await recordContract(dir, current)).toBeNull();
    expect(JSON.parse(fs.readFileSync(path.join(dir, CONTRACT_FILE), 'utf8'))).toEqual(current);
  });
});

describe('noteContract', () => {
  it('says a change once in the log and in what the status shows', async () => {
    const lines: string[] = [];
    const log = createLogger('info', (line) => void lines.push(line));
    const first = fingerprint([face('system_info')]);
    expect(await noteContract(dir, first, log)).toEqual({ sha256: first.sha256, change: null });
    const next = fingerprint([face('system_info'), face('fs_list')]);
    const noted = await noteContract(dir, next, log);
    expect(noted).toEqual({ sha256: next.sha256, change: 'The tools a model sees changed since the last start: added fs_list.' });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('added fs_list');
  });
});
