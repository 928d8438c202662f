/**
 * The local policy port's folder listing with a limit: a folder holding more names than the
 * limit is not read whole (linked-patterns.ts looks through folders for another case of a name,
 * and a command could fill one with a million names to slow every check).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localPort } from '../helpers/adapter.js';
import { makeTempDir, removeDir } from '../helpers/temp.js';

let dir: string;
beforeAll(() => {
  dir = makeTempDir('names-');
  for (let i = 0; i < 5; i++) fs.writeFileSync(path.join(dir, `f${i}`), '');
});
afterAll(() => removeDir(dir));

describe('listNames', () => {
  it('lists a folder whole, or up to a limit: past it, nothing', async () => {
    const port = localPort();
    expect((await port.listNames(dir))?.sort()).toEqual(['f0', 'f1', 'f2', 'f3', 'f4']);
    expect((await port.listNames(dir, 5))?.sort()).toEqual(['f0', 'f1', 'f2', 'f3', 'f4']);
    expect(await port.listNames(dir, 4)).toBeNull();
    expect(await port.listNames(path.join(dir, 'missing'), 4)).toBeNull();
  });
});
