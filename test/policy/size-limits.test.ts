/** The owner's size caps, decided in one place. */
import { describe, expect, it } from 'vitest';
import { MAX_PATCH_FILES, SEARCH_FILE_FLOOR, SizeLimits } from '../../main/policy/size-limits.js';
import { makeConfig } from '../helpers/servers.js';

const KiB = 1024;
const limits = (filesystem: { maxReadBytes?: number; maxWriteBytes?: number }) => new SizeLimits(makeConfig({ filesystem }));

describe('SizeLimits', () => {
  it('a read returns what was asked, never more than filesystem.maxReadBytes', () => {
    const sizes = limits({ maxReadBytes: 64 * KiB });
    expect(sizes.readBytes()).toBe(64 * KiB);
    expect(sizes.readBytes(10)).toBe(10);
    expect(sizes.readBytes(10 * 1024 * KiB)).toBe(64 * KiB);
  });

  it('refuses a write over filesystem.maxWriteBytes, naming the limit', () => {
    const sizes = limits({ maxWriteBytes: 100 });
    expect(sizes.writeBytes).toBe(100);
    expect(() => sizes.checkWrite(100, 'fs.write')).not.toThrow();
    expect(() => sizes.checkWrite(101, 'fs.write')).toThrow(
      expect.objectContaining({ code: 'INVALID_INPUT', message: expect.stringMatching(/101 bytes; the limit is 100 \(filesystem\.maxWriteBytes\)/) }),
    );
  });

  it('a search looks into files up to the read cap, and at least SEARCH_FILE_FLOOR', () => {
    expect(limits({ maxReadBytes: 64 * KiB }).searchFileBytes).toBe(SEARCH_FILE_FLOOR);
    expect(limits({ maxReadBytes: 2 * SEARCH_FILE_FLOOR }).searchFileBytes).toBe(2 * SEARCH_FILE_FLOOR);
  });

  it('refuses a patch touching more than MAX_PATCH_FILES files', () => {
    const sizes = limits({});
    expect(() => sizes.checkPatchFiles(MAX_PATCH_FILES)).not.toThrow();
    expect(() => sizes.checkPatchFiles(MAX_PATCH_FILES + 1)).toThrow(/touches 101 files; at most 100 per call/);
  });
});
