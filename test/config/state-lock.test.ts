/** A state file's lock: one writer at a time, queued in-process, and a lock a dead writer left taken over. */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { withStateLock } from '../../main/config/state-lock.js';
import { makeTempDir, removeDir } from '../helpers/temp.js';

let dir: string;
beforeEach(() => {
  dir = makeTempDir();
});
afterEach(() => removeDir(dir));
const locked = (lock: string) => new Error(`locked: ${lock}`);

describe('withStateLock', () => {
  it('runs one change at a time, the lock file present only while one runs', async () => {
    const file = path.join(dir, 'state.json');
    const lock = path.join(dir, '.state.json.lock');
    const order: string[] = [];
    const change = (name: string) => async () => {
      order.push(`${name} start`, fs.existsSync(lock) ? 'locked' : 'unlocked');
      await new Promise((resolve) => setTimeout(resolve, 20));
      order.push(`${name} end`);
    };
    await Promise.all([withStateLock(file, change('a'), locked), withStateLock(file, change('b'), locked)]);
    expect(order).toEqual(['a start', 'locked', 'a end', 'b start', 'locked', 'b end']);
    expect(fs.existsSync(lock)).toBe(false);
  });

  it('takes over a lock a writer that died left behind, and releases it when the change throws', async () => {
    const file = path.join(dir, 'state.json');
    const lock = path.join(dir, '.state.json.lock');
    fs.writeFileSync(lock, '12345 dead\n');
    const longAgo = new Date(Date.now() - 60_000);
    fs.utimesSync(lock, longAgo, longAgo);
    expect(await withStateLock(file, () => 'done', locked)).toBe('done');
    await expect(withStateLock(file, () => Promise.reject(new Error('bad change')), locked)).rejects.toThrow('bad change');
    expect(fs.existsSync(lock)).toBe(false);
  });
});
