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
import { adapterError } from '../contract/errors.js';
import { childPath, type EntryName } from './entry-bytes.js';
import { descriptorPath, HANDLE_PATHS, realPathOfDescriptorSync, realPathOfOpened } from './opened-path.js';

const { O_RDONLY, O_DIRECTORY = 0, O_NOFOLLOW = 0 } = fs.constants;
/** A directory, not followed if the last component is a symlink. */
export const DIRECTORY_FLAGS = O_RDONLY | O_DIRECTORY | O_NOFOLLOW;
const OPENS_DIRECTORIES = process.platform !== 'win32';

export class DirHandle {
  private constructor(
    /** A descriptor opened by openSync, a FileHandle opened by open, or none where directories cannot be opened. */
    private readonly handle: fs.promises.FileHandle | number | null,
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

  /** The same as `open` without thread-pool hops, for callers whose whole work is a syscall or two (fs.stat). */
  static openSync(path: string, confirm: (real: string) => void, operation: string): DirHandle {
    if (!OPENS_DIRECTORIES) {
      const real = fs.realpathSync.native(path);
      confirm(real);
      return new DirHandle(null, real);
    }
    const fd = fs.openSync(path, DIRECTORY_FLAGS);
    try {
      const real = realPathOfDescriptorSync(fd, path, operation);
      confirm(real);
      return new DirHandle(fd, real);
    } catch (error) {
      fs.closeSync(fd);
      throw error;
    }
  }

  private get fd(): number | null {
    return typeof this.handle === 'number' ? this.handle : (this.handle?.fd ?? null);
  }

  /**
   * A path naming `name` in this directory, for one syscall. A name that is not UTF-8 (bytes, as
   * a tree walk reads them) gives a path in bytes: as a string it would name no entry.
   */
  entry(name: string): string;
  entry(name: EntryName): string | Buffer;
  entry(name: EntryName): string | Buffer {
    const text = typeof name === 'string' ? name : name.toString('utf8');
    if (text === '' || text === '.' || text === '..' || text.includes('/') || text.includes('\0') || (process.platform === 'win32' && text.includes('\\'))) {
      throw adapterError('INVALID_INPUT', 'fs', `${JSON.stringify(text)} is not a single directory entry name`);
    }
    const fd = this.fd;
    const base = fd !== null && HANDLE_PATHS ? descriptorPath(fd) : this.real;
    if (typeof name !== 'string') return childPath(base, name);
    return fd !== null && HANDLE_PATHS ? `${base}/${name}` : nodePath.join(base, name);
  }

  /** A path naming the directory itself (for readdir). */
  get self(): string {
    const fd = this.fd;
    return fd !== null && HANDLE_PATHS ? descriptorPath(fd) : this.real;
  }

  /** Opens the subdirectory `name` of this one, refusing a symlink in its place. No further confirm is needed: it is inside this directory by construction. */
  async child(name: EntryName): Promise<DirHandle> {
    const path = this.entry(name);
    if (this.handle === null) return new DirHandle(null, nodePath.join(this.real, String(name)));
    return new DirHandle(await fs.promises.open(path, DIRECTORY_FLAGS), nodePath.join(this.real, String(name)));
  }

  /** `child` without a thread-pool hop, for walks that open one folder per entry. */
  childSync(name: string): DirHandle {
    const path = this.entry(name);
    if (this.handle === null) return new DirHandle(null, nodePath.join(this.real, name));
    return new DirHandle(fs.openSync(path, DIRECTORY_FLAGS), nodePath.join(this.real, name));
  }

  /** The directory's own status, through its descriptor (its real path where directories cannot be opened). */
  async stat(): Promise<fs.Stats> {
    if (typeof this.handle === 'number') return fs.fstatSync(this.handle);
    return this.handle ? this.handle.stat() : fs.promises.lstat(this.real);
  }

  /** Sets the directory's own mode, through its descriptor. */
  async chmod(mode: number): Promise<void> {
    if (typeof this.handle === 'number') return fs.fchmodSync(this.handle, mode);
    return this.handle ? this.handle.chmod(mode) : fs.promises.chmod(this.real, mode);
  }

  /** Sets the directory's own access and modification times (seconds), through its descriptor. */
  async utimes(atime: number, mtime: number): Promise<void> {
    if (typeof this.handle === 'number') return fs.futimesSync(this.handle, atime, mtime);
    return this.handle ? this.handle.utimes(atime, mtime) : fs.promises.utimes(this.real, atime, mtime);
  }

  /** Gives the directory itself to another owner, through its descriptor. */
  async chown(uid: number, gid: number): Promise<void> {
    if (typeof this.handle === 'number') return fs.fchownSync(this.handle, uid, gid);
    return this.handle ? this.handle.chown(uid, gid) : fs.promises.lchown(this.real, uid, gid);
  }

  /** Makes renames and creations in this directory durable (no-op where directories cannot be synced). */
  async sync(): Promise<void> {
    if (typeof this.handle === 'number') fs.fsyncSync(this.handle);
    else await this.handle?.sync().catch(() => {});
  }

  async close(): Promise<void> {
    if (typeof this.handle === 'number') this.closeSync();
    else await this.handle?.close().catch(() => {});
  }

  closeSync(): void {
    if (typeof this.handle === 'number') fs.closeSync(this.handle);
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

/** withDirectory without thread-pool hops: `use` must be synchronous (a syscall or two). */
export function withDirectorySync<T>(path: string, confirm: (real: string) => void, operation: string, use: (dir: DirHandle) => T): T {
  const dir = DirHandle.openSync(path, confirm, operation);
  try {
    return use(dir);
  } finally {
    dir.closeSync();
  }
}
