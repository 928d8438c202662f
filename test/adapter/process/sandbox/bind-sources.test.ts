/**
 * The places a sandbox mounts from, opened right before the start: each exactly what the plan's
 * path names, or the command is refused (a link put anywhere on the way since the plan), and a
 * refusal leaves no descriptor open.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { closeMountSources, openMountSources } from '../../../../adapter/process/sandbox/bind-sources.js';
import { makeTempDir, removeDir } from '../../../helpers/temp.js';

let dir: string;
beforeEach(() => (dir = fs.realpathSync(makeTempDir())));
afterEach(() => removeDir(dir));

const openCount = () => fs.readdirSync('/proc/self/fd').length;

describe.runIf(process.platform === 'linux')('openMountSources', () => {
  it('opens folders and files in order, without reading them (a FIFO does not block)', () => {
    fs.mkdirSync(path.join(dir, 'a'));
    fs.writeFileSync(path.join(dir, 'a', 'f'), 'x');
    fs.mkdirSync(path.join(dir, 'a', 'g'));
    const fifo = path.join(dir, 'pipe');
    execFileSync('mkfifo', [fifo]);
    const places = [path.join(dir, 'a'), path.join(dir, 'a', 'f'), fifo, path.join(dir, 'a', 'g')];
    const fds = openMountSources(places);
    try {
      expect(fds.map((fd) => fs.readlinkSync(`/proc/self/fd/${fd}`))).toEqual(places);
    } finally {
      closeMountSources(fds);
    }
  });

  it.each([
    ['the place itself is a link now', (d: string) => fs.symlinkSync(path.join(d, 'elsewhere'), path.join(d, 'a', 'b'))],
    ['a folder on the way is a link now', (d: string) => fs.symlinkSync(path.join(d, 'elsewhere'), path.join(d, 'a'))],
    ['it is gone', () => {}],
  ])('refuses when %s, naming the place, and closes what it had opened', (_why, change) => {
    fs.mkdirSync(path.join(dir, 'elsewhere', 'b'), { recursive: true });
    fs.mkdirSync(path.join(dir, 'first'));
    if (!_why.startsWith('a folder')) fs.mkdirSync(path.join(dir, 'a'));
    change(dir);
    const before = openCount();
    const place = path.join(dir, 'a', 'b');
    expect(() => openMountSources([path.join(dir, 'first'), place])).toThrow(
      expect.objectContaining({ code: 'PRECONDITION_FAILED', message: expect.stringContaining(`${place} was moved, removed or replaced by a link`) }),
    );
    expect(openCount()).toBe(before);
  });
});
