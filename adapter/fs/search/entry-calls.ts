/**
 * How a walk makes its filesystem calls (lstat an entry, open a subfolder, read a file). On a
 * local disk each is a call of microseconds, and a thread-pool hop per call cost more than the
 * call itself, so they are made synchronously (the walk gives the event loop a turn every few
 * milliseconds). Reading a folder's names stays on the thread pool: one hop per folder is
 * cheap, and a folder of a million entries would hold the loop for a second. A network, FUSE
 * or automounted filesystem can take seconds per call, or hang: a synchronous call there would
 * stop the whole server, so a walk that starts in a mount of any type not known to be local, or
 * has one below it, goes through the thread pool as before. Where mounts cannot be listed (no
 * /proc/self/mountinfo: macOS, Windows), every walk does.
 */
import fs from 'node:fs';
import { promisify } from 'node:util';
import type { DirHandle } from '../dir-handle.js';
import { READ_FLAGS, SYNC_READ_LIMIT } from '../read-text.js';

export interface EntryCalls {
  readonly kind: 'sync' | 'pool';
  names(dir: DirHandle): Promise<string[]>;
  /** null where the entry is gone or cannot be looked at. */
  lstat(path: string): Promise<fs.Stats | null>;
  child(dir: DirHandle, name: string): Promise<DirHandle | null>;
  /** A regular file's bytes (at most what fstat saw), or null when it cannot be opened, is not a regular file or is over the limit. */
  read(path: string, maxFileBytes: number): Promise<Buffer | null>;
}

/** A walk's options may name its calls (tests do); by default entryCallsFor chooses them from the mounts. */
export interface WithEntryCalls {
  entryCalls?: EntryCalls;
}

/**
 * Filesystems on this machine's own disks or in its kernel, whose calls take microseconds. Any
 * other type (nfs, cifs, fuse.*, autofs, virtiofs, 9p, vboxsf, drvfs...) may take seconds or
 * never return.
 */
const LOCAL_TYPES = new Set([
  'ext2',
  'ext3',
  'ext4',
  'xfs',
  'btrfs',
  'bcachefs',
  'zfs',
  'f2fs',
  'jfs',
  'reiserfs',
  'nilfs2',
  'vfat',
  'msdos',
  'exfat',
  'ntfs3',
  'hfs',
  'hfsplus',
  'udf',
  'iso9660',
  'squashfs',
  'erofs',
  'tmpfs',
  'ramfs',
  'overlay',
  'proc',
  'sysfs',
  'devtmpfs',
  'devpts',
  'mqueue',
  'hugetlbfs',
  'cgroup',
  'cgroup2',
  'securityfs',
  'debugfs',
  'tracefs',
  'pstore',
  'bpf',
  'configfs',
  'efivarfs',
  'binfmt_misc',
  'fusectl',
  'nsfs',
  'selinuxfs',
  'rpc_pipefs',
]);

/** The calls for a walk from `startReal`: synchronous unless a slow mount is at, above or below it. */
export function entryCallsFor(startReal: string, mountinfo: () => string | null = readMountinfo): EntryCalls {
  const text = mountinfo();
  if (text === null) return POOL_CALLS;
  const slow = slowMountPoints(text);
  return slow.some((mount) => within(startReal, mount) || within(mount, startReal)) ? POOL_CALLS : SYNC_CALLS;
}

function within(path: string, folder: string): boolean {
  return folder === '/' || path === folder || path.startsWith(`${folder}/`);
}

/** Mount points of filesystems not known to be local, from /proc/self/mountinfo's text. */
export function slowMountPoints(mountinfo: string): string[] {
  const points: string[] = [];
  for (const line of mountinfo.split('\n')) {
    const fields = line.split(' ');
    const dash = fields.indexOf('-');
    if (dash < 6 || LOCAL_TYPES.has(fields[dash + 1] ?? '')) continue;
    points.push(unescapeOctal(fields[4]!));
  }
  return points;
}

/** mountinfo writes a space, tab, newline and backslash in a path as \040, \011, \012, \134. */
function unescapeOctal(field: string): string {
  return field.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(parseInt(octal, 8)));
}

function readMountinfo(): string | null {
  if (process.platform !== 'linux') return null;
  try {
    return fs.readFileSync('/proc/self/mountinfo', 'utf8');
  } catch {
    return null;
  }
}

const orNull = <T>(call: () => T): T | null => {
  try {
    return call();
  } catch {
    return null;
  }
};

export const SYNC_CALLS: EntryCalls = {
  kind: 'sync',
  names: (dir) => POOL_CALLS.names(dir),
  lstat: async (path) => orNull(() => fs.lstatSync(path)),
  child: async (dir, name) => orNull(() => dir.childSync(name)),
  async read(path, maxFileBytes) {
    const fd = orNull(() => fs.openSync(path, READ_FLAGS));
    if (fd === null) return null;
    try {
      const stat = fs.fstatSync(fd);
      if (!stat.isFile() || stat.size > maxFileBytes) return null;
      if (stat.size > SYNC_READ_LIMIT) return await readDescriptor(fd);
      // Empty by fstat may still have content (procfs and the like): read those to their end.
      return stat.size > 0 ? readAllSync(fd, stat.size) : readToEndSync(fd, maxFileBytes);
    } finally {
      fs.closeSync(fd);
    }
  },
};

export const POOL_CALLS: EntryCalls = {
  kind: 'pool',
  names: (dir) => fs.promises.readdir(dir.self).catch(() => [] as string[]),
  lstat: (path) => fs.promises.lstat(path).catch(() => null),
  child: (dir, name) => dir.child(name).catch(() => null),
  async read(path, maxFileBytes) {
    const handle = await fs.promises.open(path, READ_FLAGS).catch(() => null);
    if (!handle) return null;
    try {
      const stat = await handle.stat();
      if (!stat.isFile() || stat.size > maxFileBytes) return null;
      return await handle.readFile();
    } finally {
      await handle.close();
    }
  },
};

const readDescriptor = promisify(fs.readFile);

/** A file whose size fstat does not know: read to its end, or null once it passes `limit`. */
function readToEndSync(fd: number, limit: number): Buffer | null {
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(Math.min(64 * 1024, limit + 1 - total));
    const bytesRead = fs.readSync(fd, chunk, 0, chunk.length, null);
    if (bytesRead === 0) return Buffer.concat(chunks, total);
    chunks.push(chunk.subarray(0, bytesRead));
    total += bytesRead;
    if (total > limit) return null;
  }
}

/** What the file held when it was checked: at most `size` bytes, so one that grows meanwhile cannot hold the event loop. */
function readAllSync(fd: number, size: number): Buffer {
  const buffer = Buffer.allocUnsafe(size);
  let length = 0;
  while (length < size) {
    const bytesRead = fs.readSync(fd, buffer, length, size - length, null);
    if (bytesRead === 0) break;
    length += bytesRead;
  }
  return buffer.subarray(0, length);
}
