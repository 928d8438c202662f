/** The start mark the guard writes to: nameless, empty until written; no temp folder, no start. */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStartMark, startMarked } from '../../../../adapter/process/sandbox/start-mark.js';
import { makeTempDir, removeDir } from '../../../helpers/temp.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach(removeDir));

describe.runIf(process.platform === 'linux')('the start mark', () => {
  it('leaves no name in the temp folder, and reads as not written until a byte is', () => {
    const dir = makeTempDir();
    dirs.push(dir);
    const unwritten = openStartMark(dir);
    expect(fs.readdirSync(dir)).toEqual([]);
    expect(startMarked(unwritten)).toBe(false);
    const written = openStartMark(dir);
    fs.writeSync(written, '1');
    expect(startMarked(written)).toBe(true);
  });

  it('refuses the start, saying why, where no file can be made', () => {
    const dir = makeTempDir();
    dirs.push(dir);
    expect(() => openStartMark(path.join(dir, 'gone'))).toThrow(/the sandbox was not started: no file could be made in .*gone.*ENOENT.*nothing ran/);
  });
});
