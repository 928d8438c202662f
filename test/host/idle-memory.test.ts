import { spawnSync } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { idleMemory } from '../../main/host/idle-memory.js';

const MIB = 1024 * 1024;

/** A trimmer over a resident figure the test sets, counting collections. */
function harness(idleMs = 40) {
  let resident = 100 * MIB;
  let collections = 0;
  const memory = idleMemory({
    idleMs,
    growthBytes: 16 * MIB,
    resident: () => resident,
    collect: () => {
      collections++;
      resident -= 40 * MIB;
    },
  });
  return {
    memory,
    grow: (mib: number) => (resident += mib * MIB),
    get collections() {
      return collections;
    },
  };
}

describe('idleMemory', () => {
  it('collects once the calls have stopped for the idle time, when memory grew enough', async () => {
    const h = harness();
    h.grow(60);
    h.memory.callEnded();
    await sleep(20);
    expect(h.collections).toBe(0); // still within the idle wait
    await sleep(60);
    expect(h.collections).toBe(1);
    h.memory.close();
  });

  it('waits while calls keep ending, and starts the wait again after each', async () => {
    const h = harness(60);
    h.grow(60);
    for (let i = 0; i < 6; i++) {
      h.memory.callEnded();
      await sleep(20);
    }
    expect(h.collections).toBe(0);
    await sleep(100);
    expect(h.collections).toBe(1);
    h.memory.close();
  });

  it('does nothing when memory did not grow by the threshold since the last collection', async () => {
    const h = harness();
    h.grow(10);
    h.memory.callEnded();
    await sleep(80);
    expect(h.collections).toBe(0);
    // after one collection, the figure it left is the new baseline
    h.grow(50);
    h.memory.callEnded();
    await sleep(80);
    expect(h.collections).toBe(1);
    h.grow(10);
    h.memory.callEnded();
    await sleep(80);
    expect(h.collections).toBe(1);
    h.memory.close();
  });

  it('never collects after close, and never arms before a call', async () => {
    const h = harness();
    h.grow(60);
    await sleep(80);
    expect(h.collections).toBe(0);
    h.memory.callEnded();
    h.memory.close();
    await sleep(80);
    expect(h.collections).toBe(0);
  });

  it("with V8's own collection, returns the garbage a burst left in a real process", () => {
    const script = `
      const { idleMemory } = await import(${JSON.stringify(new URL('../../out/main/host/idle-memory.js', import.meta.url).href)});
      const memory = idleMemory({ idleMs: 100 });
      // 48 MiB kept reachable to the end, so no collection V8 starts on its own can free it before
      // 'before' is read; dropped only then (nothing allocates in between).
      const keep = [];
      for (let i = 0; i < 48; i++) keep.push(Buffer.alloc(1 << 20, i).toString('latin1'));
      keep.length = 0;
      const before = process.memoryUsage.rss();
      memory.callEnded();
      setTimeout(() => console.log(JSON.stringify({ before, after: process.memoryUsage.rss() })), 400);
    `;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 20_000 });
    expect(run.status, run.stderr).toBe(0);
    const { before, after } = JSON.parse(run.stdout) as { before: number; after: number };
    expect(before - after).toBeGreaterThan(16 * MIB);
  });

  it("keeps V8's young generation from growing under a storm of survivors (a real process, with and without it)", () => {
    const storm = `
      const v8 = await import('node:v8');
      if (process.argv[1] === 'trimmer') (await import(${JSON.stringify(new URL('../../out/main/host/idle-memory.js', import.meta.url).href)})).idleMemory().close();
      let keep = [];
      for (let r = 0; r < 200; r++) {
        for (let i = 0; i < 20000; i++) keep.push({ a: i, b: 'x' + i });
        if (keep.length > 100000) keep = keep.slice(50000);
      }
      console.log(v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space').space_size);
    `;
    const newSpace = (mode: string) => {
      const run = spawnSync(process.execPath, ['--input-type=module', '-e', storm, mode], { encoding: 'utf8', timeout: 20_000 });
      expect(run.status, run.stderr).toBe(0);
      return Number(run.stdout.trim());
    };
    expect(newSpace('plain')).toBeGreaterThanOrEqual(16 * MIB);
    expect(newSpace('trimmer')).toBeLessThanOrEqual(2 * MIB);
  });

  it('never keeps the process alive', () => {
    const script = `
      const { idleMemory } = await import(${JSON.stringify(new URL('../../out/main/host/idle-memory.js', import.meta.url).href)});
      idleMemory({ idleMs: 60_000 }).callEnded();
    `;
    const started = Date.now();
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 20_000 });
    expect(run.status, run.stderr).toBe(0);
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
