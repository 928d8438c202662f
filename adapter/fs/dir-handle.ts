/**
 * An open directory whose real place was confirmed by the policy; entries are named through
 * it, not through a path that could be re-resolved. On Linux `entry(name)` is
 * `/proc/self/fd/<fd>/<name>`: the kernel looks `name` up in this very directory, so creating,
 * renaming or removing it cannot land elsewhere even if the directory's path was swapped for
 * a symlink after the check. Elsewhere it is the checked real path joined with the name (see
 * opened-path.ts for that residual window).
 */
import fs from 'node:fs';
import nodePath from 'node:path';
import { adapterError } from '../errors.js';
import { descriptorPath, HANDLE_PATHS, realPathOfOpened } from './opened-path.js';

const { O_RDONLY, O_DIRECTORY = 0, O_NOFOLLOW = 0 } = fs.constants;
/** A directory, not followed if the last component is a symlink. */
export const DIRECTORY_FLAGS = O_RDONLY | O_DIRECTORY | O_NOFOLLOW;
const OPENS_DIRECTORIES = process.platform !== 'win32';

export class DirHandle {
  private constructor(
    private readonly handle: fs.promises.FileHandle | null,
    /** The directory's real path when it was opened (for messages and `confirm`). */
    readonly real: string,
  ) {}

  /**
   * Opens `path` as a directory and passes its real location to `confirm` (the policy's
   * re-check) before anything is done in it.
   */
  static async open(path: string, confirm: (real: string) => void, operation: string): Promise<DirHandle> {
    if (!OPENS_DIRECTORIES) {
      const real = await fs.promises.realpath(path);
      confirm(real);
      return new DirHandle(null, real);
    }
    const handle = await fs.promises.open(path, DIRECTORY_FLAGS);
    try {
      const real = await realPathOfOpened(handle, path, operation);
      confirm(real);
      return new DirHandle(handle, real);
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  /** A path naming `name` in this directory, for one syscall. */
  entry(name: string): string {
    if (name === '' || name === '.' || name === '..' || name.includes('/') || name.includes('\0') || (process.platform === 'win32' && name.includes('\\'))) {
      throw adapterError('INVALID_INPUT', 'fs', `${JSON.stringify(name)} is not a single directory entry name`);
    }
    return this.handle && HANDLE_PATHS ? `${descriptorPath(this.handle.fd)}/${name}` : nodePath.join(this.real, name);
  }

  /** A path naming the directory itself (for readdir). */
  get self(): string {
    return this.handle && HANDLE_PATHS ? descriptorPath(this.handle.fd) : this.real;
  }

  /** Opens the subdirectory `name` of this one, refusing a symlink in its place. No further confirm is needed: it is inside this directory by construction. */
  async child(name: string): Promise<DirHandle> {
    const path = this.entry(name);
    if (!this.handle) return new DirHandle(null, nodePath.join(this.real, name));
    return new DirHandle(await fs.promises.open(path, DIRECTORY_FLAGS), nodePath.join(this.real, name));
  }

  /** Makes renames and creations in this directory durable (no-op where directories cannot be synced). */
  async sync(): Promise<void> {
    await this.handle?.sync().catch(() => {});
  }

  async close(): Promise<void> {
    await this.handle?.close().catch(() => {});
  }
}

/** Runs `use` with the directory open, closing it afterwards whatever happens. */
export async function withDirectory<T>(path: string, confirm: (real: string) => void, operation: string, use: (dir: DirHandle) => Promise<T>): Promise<T> {
  const dir = await DirHandle.open(path, confirm, operation);
  try {
    return await use(dir);
  } finally {
    await dir.close();
  }
}
