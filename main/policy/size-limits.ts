/**
 * The owner's size caps in one place: how much one call may read, write, scan or touch. Tools
 * ask this instead of reading the config's numbers themselves, so every cap and its refusal
 * text is decided here (and the adapter enforces the numbers it is given).
 */
import { adapterError } from '../../adapter/contract/errors.js';
import type { Config } from '../config/schema.js';

const MiB = 1024 * 1024;
/**
 * A content search opens files up to the read cap, and at least this large: it returns only
 * matching lines (bounded by its own maxBytes), never the file, so a 1 MiB read cap need not
 * hide a 5 MiB log from a search.
 */
export const SEARCH_FILE_FLOOR = 8 * MiB;
/** Files one fs.patch may touch. */
export const MAX_PATCH_FILES = 100;

export class SizeLimits {
  constructor(private readonly config: Readonly<Config>) {}

  /** Bytes one read returns: what the caller asked for, never more than filesystem.maxReadBytes. */
  readBytes(requested?: number): number {
    const cap = this.config.filesystem.maxReadBytes;
    return Math.min(requested ?? cap, cap);
  }

  /** The most a write (fs.write, and what fs.edit and fs.patch would write) may hold. */
  get writeBytes(): number {
    return this.config.filesystem.maxWriteBytes;
  }

  /** Refuses content over filesystem.maxWriteBytes, saying the limit. */
  checkWrite(bytes: number, operation: string): void {
    if (bytes > this.writeBytes) {
      throw adapterError('INVALID_INPUT', operation, `content is ${bytes} bytes; the limit is ${this.writeBytes} (filesystem.maxWriteBytes)`);
    }
  }

  /** The largest file a content search looks into (see SEARCH_FILE_FLOOR). */
  get searchFileBytes(): number {
    return Math.max(this.config.filesystem.maxReadBytes, SEARCH_FILE_FLOOR);
  }

  /** Refuses a patch that touches more than MAX_PATCH_FILES files. */
  checkPatchFiles(count: number): void {
    if (count > MAX_PATCH_FILES) throw adapterError('INVALID_INPUT', 'fs.patch', `the patch touches ${count} files; at most ${MAX_PATCH_FILES} per call`);
  }
}
