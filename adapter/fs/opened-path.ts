/**
 * Where an opened file or directory really is, asked of the object itself rather than of a
 * path that another process could re-point meanwhile.
 *
 * Linux: exact. `/proc/self/fd/<fd>` is the kernel's name for the opened object, and paths of
 * the form `/proc/self/fd/<dirfd>/<name>` are resolved through the opened directory, so a
 * name is looked up in the very directory that was checked.
 * macOS and Windows: Node has no such handle-relative names. The strongest check available is
 * used: after the open, the path's realpath must be the same object (device and inode) as the
 * opened descriptor. A swap after that check and before a later path-based step (a rename, a
 * create beside it) remains possible there; docs/TOOLS.md and docs/SECURITY.md say so.
 */
import fs from 'node:fs';
import { adapterError } from '../contract/errors.js';

export const HANDLE_PATHS = process.platform === 'linux' && procSelfFdWorks();

function procSelfFdWorks(): boolean {
  try {
    fs.readlinkSync('/proc/self/fd/0');
    return true;
  } catch (error) {
    // fd 0 may be closed; the directory itself existing is what matters.
    return (error as NodeJS.ErrnoException).code === 'ENOENT' && fs.existsSync('/proc/self/fd');
  }
}

/** Linux's O_PATH (the same on x86 and Arm), which Node does not export: a descriptor that names a place without reading it. */
export const O_PATH = 0o10000000;

/** The kernel's path of an open descriptor (Linux), for `confirm`. */
export function descriptorPath(fd: number): string {
  return `/proc/self/fd/${fd}`;
}

export async function realPathOfOpened(handle: fs.promises.FileHandle, openedAs: string, operation: string): Promise<string> {
  if (HANDLE_PATHS) {
    const real = await fs.promises.readlink(descriptorPath(handle.fd));
    // An unlinked object keeps working through its descriptor; its old name is not a place to trust.
    if (real.endsWith(' (deleted)') || !real.startsWith('/')) throw changed(openedAs, operation);
    return real;
  }
  const [opened, real] = await Promise.all([handle.stat(), fs.promises.realpath(openedAs)]);
  const now = await fs.promises.stat(real);
  if (opened.dev !== now.dev || opened.ino !== now.ino) throw changed(openedAs, operation);
  return real;
}

/** The same check on a plain descriptor, without a thread-pool hop (the small-read fast path). */
export function realPathOfDescriptorSync(fd: number, openedAs: string, operation: string): string {
  if (HANDLE_PATHS) {
    const real = fs.readlinkSync(descriptorPath(fd));
    if (real.endsWith(' (deleted)') || !real.startsWith('/')) throw changed(openedAs, operation);
    return real;
  }
  const opened = fs.fstatSync(fd);
  const real = fs.realpathSync.native(openedAs);
  const now = fs.statSync(real);
  if (opened.dev !== now.dev || opened.ino !== now.ino) throw changed(openedAs, operation);
  return real;
}

export function changed(path: string, operation: string): Error {
  return adapterError('PATH_NOT_ALLOWED', operation, `${path} changed while it was being opened (it was replaced or moved); try again`, {
    reason: 'changed',
  });
}
