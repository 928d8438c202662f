import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isKernelThread, parseStatFlags } from '../../../adapter/process/kernel-thread.js';
import { listLinuxProcesses } from '../../../adapter/process/list-linux.js';

describe('kernel threads', () => {
  it('reads the flags field of stat, whatever the command name holds', () => {
    expect(parseStatFlags('42 (a) (b) c) R 7 42 42 0 -1 4194560 0 0')).toBe(4194560);
    expect(parseStatFlags('2 (kthreadd) S 0 0 0 0 -1 2129984 0')).toBe(2129984);
    expect(parseStatFlags('garbage')).toBeNull();
  });

  it('are kthreadd, its children and tasks flagged PF_KTHREAD; unreadable flags count as one', () => {
    expect(isKernelThread(4194560, 42, 7)).toBe(false);
    expect(isKernelThread(0x00200000 | 0x40, 120, 1)).toBe(true);
    expect(isKernelThread(0, 2, 0)).toBe(true);
    expect(isKernelThread(0, 300, 2)).toBe(true);
    expect(isKernelThread(null, 300, 1)).toBe(true);
  });

  it.skipIf(process.platform !== 'linux')('are marked in the real /proc listing: this process is not one, kthreadd is (when visible)', async () => {
    const listed = await listLinuxProcesses();
    expect(listed.find((p) => p.pid === process.pid)?.kernel).toBeUndefined();
    const kthreadd = listed.find((p) => p.pid === 2);
    // In a container without the host's kthreadd, pid 2 is an ordinary process or absent.
    if (kthreadd && fs.readFileSync('/proc/2/stat', 'utf8').includes('(kthreadd)')) expect(kthreadd.kernel).toBe(true);
  });
});
