import { describe, expect, it } from 'vitest';
import { SerialGroups } from '../../main/gateway/serial-groups.js';

describe('SerialGroups', () => {
  it('runs calls of one group one at a time in order, other groups alongside', async () => {
    const groups = new SerialGroups();
    const log: string[] = [];
    const work = (name: string, ms: number) => async () => {
      log.push(`start ${name}`);
      await new Promise((resolve) => setTimeout(resolve, ms));
      log.push(`end ${name}`);
      return name;
    };
    const results = await Promise.all([groups.run('g', work('a', 30)), groups.run('g', work('b', 5)), groups.run('other', work('c', 5))]);
    expect(results).toEqual(['a', 'b', 'c']);
    expect(log.indexOf('end a')).toBeLessThan(log.indexOf('start b'));
    expect(log.indexOf('start c')).toBeLessThan(log.indexOf('end a'));
  });

  it('a call cancelled while it waits leaves without running, and the next one still runs', async () => {
    const groups = new SerialGroups();
    let release!: () => void;
    const first = groups.run('g', () => new Promise<void>((resolve) => (release = resolve)));
    const controller = new AbortController();
    let ran = false;
    const waiting = groups.run('g', async () => void (ran = true), controller.signal);
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ code: 'PRECONDITION_FAILED' });
    const third = groups.run('g', async () => 'third');
    release();
    await first;
    expect(await third).toBe('third');
    expect(ran).toBe(false);
  });
});
