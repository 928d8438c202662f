import { describe, expect, it } from 'vitest';
import { PathLock } from '../../main/policy/path-lock.js';

const step =
  (log: string[], name: string, ms: number, fail = false) =>
  async () => {
    log.push(`${name}+`);
    await new Promise((r) => setTimeout(r, ms));
    log.push(`${name}-`);
    if (fail) throw new Error(name);
  };
const read = (path: string) => [{ path, exclusive: false }];
const write = (path: string) => [{ path, exclusive: true }];

describe('PathLock', () => {
  it('runs readers of one path together and a writer alone, in arrival order, and survives failures', async () => {
    const lock = new PathLock('linux');
    const log: string[] = [];
    const results = await Promise.allSettled([
      lock.run(read('/r/a'), step(log, 'r1', 20)),
      lock.run(read('/r/a'), step(log, 'r2', 5)),
      lock.run(write('/r/a'), step(log, 'w1', 5, true)),
      lock.run(read('/r/a'), step(log, 'r3', 1)),
      lock.run(write('/r/a'), step(log, 'w2', 1)),
    ]);
    expect(log).toEqual(['r1+', 'r2+', 'r2-', 'r1-', 'w1+', 'w1-', 'r3+', 'r3-', 'w2+', 'w2-']);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    expect(lock.active).toBe(0);
  });

  it('does not hold up work on unrelated paths behind a slow operation', async () => {
    const lock = new PathLock('linux');
    const log: string[] = [];
    await Promise.all([
      lock.run(write('/r/big'), step(log, 'slow', 40)),
      lock.run(write('/r/other'), step(log, 'fast', 1)),
      lock.run(read('/r/x'), step(log, 'read', 1)),
    ]);
    expect(log.indexOf('fast-')).toBeLessThan(log.indexOf('slow-'));
    expect(log.indexOf('read-')).toBeLessThan(log.indexOf('slow-'));
  });

  it('treats a directory and everything below it as overlapping, on whole segments only', async () => {
    const lock = new PathLock('linux');
    const log: string[] = [];
    await Promise.all([
      lock.run(write('/r/dir'), step(log, 'move-dir', 20)),
      lock.run(read('/r/dir/file'), step(log, 'read-inside', 1)),
      lock.run(read('/r/dir2/file'), step(log, 'read-sibling', 1)),
    ]);
    expect(log.indexOf('read-inside+')).toBeGreaterThan(log.indexOf('move-dir-'));
    expect(log.indexOf('read-sibling-')).toBeLessThan(log.indexOf('move-dir-'));
  });

  it('a claim on two paths (a move) waits for both', async () => {
    const lock = new PathLock('linux');
    const log: string[] = [];
    await Promise.all([lock.run(read('/r/b/x'), step(log, 'reader', 20)), lock.run([...write('/r/a'), ...write('/r/b')], step(log, 'move', 1))]);
    expect(log).toEqual(['reader+', 'reader-', 'move+', 'move-']);
  });
});
