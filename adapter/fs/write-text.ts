import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import nodePath from 'node:path';
import { adapterError } from '../contract/errors.js';
import { withDirectory, type DirHandle } from './dir-handle.js';
import type { GuardedPath, TextFileWrite, WriteMode, WriteOptions } from '../contract/files.js';
import { fsError } from './fs-errors.js';
import { cancelled, READ_FLAGS } from './read-text.js';

const op = 'fs.write';
const { O_WRONLY, O_APPEND, O_CREAT, O_NOFOLLOW = 0, O_NONBLOCK = 0 } = fs.constants;
/** Permission bits kept on a rewritten file: never setuid, setgid or sticky. */
const PLAIN_MODE = 0o777;
const SPECIAL_BITS = 0o7000;

/**
 * Writes through the file's parent directory, opened and confirmed first (dir-handle.ts), so
 * the new file cannot land anywhere but in the checked directory.
 *
 * `create` and `overwrite` write a temp file beside the target, fsync it and rename it into
 * place: a reader never sees a half-written file and a failure leaves the old file intact.
 * `create` links instead of renaming, which fails if the name appeared meanwhile. `append`
 * writes in place, so it refuses a file with other hard links (they would change too) unless
 * the owner allowed that.
 */
export async function writeTextFile(file: GuardedPath, content: string, mode: WriteMode, options: WriteOptions = {}): Promise<TextFileWrite> {
  const data = Buffer.from(content, 'utf8');
  const name = nodePath.basename(file.path);
  try {
    return await withDirectory(
      nodePath.dirname(file.path),
      (real) => file.confirm(nodePath.join(real, name)),
      op,
      async (dir) => {
        const target = dir.entry(name);
        const existing = await lstatOrNull(target);
        if (existing?.isSymbolicLink())
          throw adapterError('PATH_NOT_ALLOWED', op, `${file.path} is now a symbolic link; writes never follow one`, { reason: 'changed' });
        if (existing && !existing.isFile()) throw adapterError('INVALID_INPUT', op, `${file.path} exists and is not a regular file`);
        if (mode === 'create' && existing) throw exists(file.path);
        if (existing) refuseSharedInode(file.path, existing.nlink, options);
        if (options.expectedSha256 !== undefined) await checkExpected(file.path, target, existing !== null, options);

        if (mode === 'append') {
          if (existing) await options.beforeChange?.(target, existing, false);
          // Not told as written (WriteOptions.wrote): the file holds more than what this call sent.
          const sha256 = await appendInPlace(file.path, target, data, options);
          return { bytesWritten: data.length, created: !existing, ...(sha256 === undefined ? {} : { sha256 }) };
        }
        // Told after every check and just before the rename: a link it makes to the old inode cannot make this write refuse itself.
        const beforeRename = existing && options.beforeChange ? () => options.beforeChange!(target, existing, true) : undefined;
        await replaceAtomically(dir, name, data, mode === 'create', existing?.mode, beforeRename);
        const sha256 = createHash('sha256').update(data).digest('hex');
        options.wrote?.(file.path, sha256);
        return { bytesWritten: data.length, created: !existing, sha256 };
      },
    );
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw adapterError('NOT_FOUND', op, `${nodePath.dirname(file.path)} does not exist; create it first with fs.mkdir`);
    }
    throw fsError(error, op, file.path);
  }
}

function refuseSharedInode(path: string, links: number, options: WriteOptions): void {
  if (links > 1 && !options.allowHardLinks) {
    throw adapterError(
      'PATH_NOT_ALLOWED',
      op,
      `${path} has ${links} hard links, so writing it would also change the same file under its other names (possibly outside the allowed roots); the owner can allow this with filesystem.allowHardLinkWrites`,
      { reason: 'hard-link' },
    );
  }
}

async function checkExpected(path: string, target: string, exists: boolean, options: WriteOptions): Promise<void> {
  const expected = options.expectedSha256!.toLowerCase();
  if (!exists) throw adapterError('PRECONDITION_FAILED', op, `${path} does not exist, so it cannot match expectedSha256`);
  const actual = await hashEntry(target, options.signal);
  if (actual === expected) return;
  // Without read access the hash would be an oracle for the content: say only that it differs.
  if (!options.revealHash) throw adapterError('PRECONDITION_FAILED', op, `${path} does not match expectedSha256`);
  throw adapterError('PRECONDITION_FAILED', op, `${path} changed since it was read (sha256 is ${actual}, expected ${expected}); read it again before writing`, {
    sha256: actual,
  });
}

async function replaceAtomically(
  dir: DirHandle,
  name: string,
  data: Buffer,
  exclusive: boolean,
  existingMode: number | undefined,
  beforeRename?: () => Promise<void>,
): Promise<void> {
  const tempName = `.${name.slice(0, 200)}.${randomBytes(6).toString('hex')}.tmp`;
  const temp = dir.entry(tempName);
  const mode = existingMode === undefined ? 0o666 : existingMode & PLAIN_MODE;
  const handle = await fs.promises.open(temp, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | O_NOFOLLOW, mode);
  try {
    await handle.writeFile(data);
    // The umask applied at creation; an existing file's bits are kept exactly (minus setuid/setgid).
    if (existingMode !== undefined && process.platform !== 'win32') await handle.chmod(mode);
    await handle.sync();
    await handle.close();
    if (exclusive) await linkExclusive(dir, tempName, name);
    else {
      await beforeRename?.();
      await fs.promises.rename(temp, dir.entry(name));
    }
  } catch (error) {
    await handle.close().catch(() => {});
    await fs.promises.rm(temp, { force: true }).catch(() => {});
    throw error;
  }
  await dir.sync();
}

/**
 * A file holding `data` (any bytes): through the checked parent directory, atomically; a new
 * name only, unless `replace` (then a regular file with no other hard links may be replaced).
 */
export async function createFile(
  file: GuardedPath,
  data: Uint8Array,
  options: WriteOptions & { replace?: boolean } = {},
): Promise<{ bytesWritten: number; sha256: string }> {
  const name = nodePath.basename(file.path);
  try {
    await withDirectory(
      nodePath.dirname(file.path),
      (real) => file.confirm(nodePath.join(real, name)),
      op,
      async (dir) => {
        const existing = options.replace ? await lstatOrNull(dir.entry(name)) : null;
        if (existing?.isSymbolicLink())
          throw adapterError('PATH_NOT_ALLOWED', op, `${file.path} is a symbolic link; writes never follow one`, { reason: 'changed' });
        if (existing && !existing.isFile()) throw adapterError('INVALID_INPUT', op, `${file.path} exists and is not a regular file`);
        if (existing) refuseSharedInode(file.path, existing.nlink, options);
        await replaceAtomically(dir, name, Buffer.from(data), !options.replace, existing?.mode);
      },
    );
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      throw adapterError('NOT_FOUND', op, `${nodePath.dirname(file.path)} does not exist; create it first with fs.mkdir`);
    if ((error as { code?: string }).code === 'ALREADY_EXISTS') throw adapterError('ALREADY_EXISTS', op, `${file.path} already exists; choose a new file name`);
    throw fsError(error, op, file.path);
  }
  return { bytesWritten: data.byteLength, sha256: createHash('sha256').update(data).digest('hex') };
}

/** Hard-link the temp file to the target (fails with EEXIST if it exists), then drop the temp name. */
async function linkExclusive(dir: DirHandle, tempName: string, name: string): Promise<void> {
  const temp = dir.entry(tempName);
  const target = dir.entry(name);
  try {
    await fs.promises.link(temp, target);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw exists(nodePath.join(dir.real, name));
    // Filesystems without hard links (some network and FAT mounts): fall back to a checked rename.
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EXDEV' && code !== 'ENOSYS') throw error;
    if (await lstatOrNull(target)) throw exists(nodePath.join(dir.real, name));
    await fs.promises.rename(temp, target);
    return;
  }
  await fs.promises.unlink(temp);
}

async function appendInPlace(path: string, target: string, data: Buffer, options: WriteOptions): Promise<string | undefined> {
  // Without blocking: a FIFO put in the file's place would otherwise hold the open until a reader came.
  const handle = await fs.promises.open(target, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK, 0o666).catch((error: NodeJS.ErrnoException) => {
    // ENXIO: a FIFO nobody reads.
    throw error.code === 'ENXIO' ? adapterError('INVALID_INPUT', op, `${path} is not a regular file`) : error;
  });
  try {
    // A link may have been added between the check and the open, or the file swapped: check the opened inode.
    const stat = await handle.stat();
    if (!stat.isFile()) throw adapterError('INVALID_INPUT', op, `${path} is not a regular file`);
    refuseSharedInode(path, stat.nlink, options);
    await handle.writeFile(data);
    if (stat.mode & SPECIAL_BITS && process.platform !== 'win32') await handle.chmod(stat.mode & PLAIN_MODE);
    await handle.sync();
  } finally {
    await handle.close();
  }
  // Without read access the hash is not answered, so the whole file is not read for it either.
  return options.revealHash === false ? undefined : hashEntry(target, options.signal);
}

/** sha256 of a file's content, without following a symlink in its place; stops when the request is cancelled. */
export async function hashEntry(target: string, signal?: AbortSignal): Promise<string> {
  const hash = createHash('sha256');
  const handle = await fs.promises.open(target, READ_FLAGS);
  try {
    const buffer = Buffer.allocUnsafe(256 * 1024);
    for (;;) {
      if (signal?.aborted) throw cancelled();
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
      if (bytesRead === 0) break;
      hash.update(buffer.subarray(0, bytesRead));
    }
  } finally {
    await handle.close();
  }
  return hash.digest('hex');
}

function exists(path: string): Error {
  return adapterError('ALREADY_EXISTS', op, `${path} already exists (use mode "overwrite" to replace it)`);
}

async function lstatOrNull(path: string): Promise<fs.Stats | null> {
  try {
    return await fs.promises.lstat(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
