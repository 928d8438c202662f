import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { nativeAddonFile } from '../../../adapter/os/native-addon.js';

const MIB = 1024 * 1024;
const built = process.platform === 'linux' && (nativeAddonFile('malloc-trim') !== undefined || process.env.REQUIRE_NATIVE_SPAWN === '1');

describe.runIf(built)('mallocTrim (Linux, the built addon)', () => {
  it('gives back to the OS the C heap that freed buffers left resident', () => {
    // 1500 buffers of 64 KiB come from malloc's heap; one allocated after them pins its top, so
    // free() alone cannot shrink it and the pages stay resident until trimmed.
    const script = `
      const { mallocTrim } = await import(${JSON.stringify(new URL('../../../out/adapter/os/malloc-trim.js', import.meta.url).href)});
      let keep = [];
      for (let i = 0; i < 1500; i++) keep.push(Buffer.alloc(65536, 1));
      const pin = Buffer.alloc(65536, 2);
      keep = null;
      globalThis.gc();
      globalThis.gc();
      const before = process.memoryUsage.rss();
      const trimmed = mallocTrim();
      console.log(JSON.stringify({ before, after: process.memoryUsage.rss(), trimmed, pinned: pin.length }));
    `;
    const run = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 20_000 });
    expect(run.status, run.stderr).toBe(0);
    const { before, after, trimmed } = JSON.parse(run.stdout) as { before: number; after: number; trimmed: boolean };
    expect(trimmed).toBe(true);
    expect(before - after).toBeGreaterThan(48 * MIB);
  });
});
