import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import nodePath from 'node:path';
import { adapterError } from '../errors.js';
import { fsError } from './fs-errors.js';
import type { TextFileWrite, WriteMode } from './file-ops.js';

const op = 'fs.write';

/**
 * `create` and `overwrite` write a temp file in the same directory, fsync it and rename it
 * into place, so a reader never sees a half-written file and a failure leaves the old file
 * intact. `create` links instead of renaming, which fails if the name appeared meanwhile.
 */
export async function writeTextFile(path: string, content: string, mode: WriteMode, options: { expectedSha256?: string } = {}): Promise<TextFileWrite> {
  const data = Buffer.from(content, 'utf8');
  const existing = await statOrNull(path);
  if (existing && !existing.isFile()) throw adapterError('INVALID_INPUT', op, `${path} exists and is not a regular file`);
  if (mode === 'create' && existing) throw adapterError('ALREADY_EXISTS', op, `${path} already exists (use mode "overwrite" to replace it)`);
  if (options.expectedSha256 !== undefined) await checkExpected(path, existing !== null, options.expectedSha256);

  try {
    if (mode === 'append') {
      await appendDurably(path, data);
      return { bytesWritten: data.length, created: !existing, sha256: await hashFile(path) };
    }
    await replaceAtomically(path, data, mode === 'create', existing?.mode);
    return { bytesWritten: data.length, created: !existing, sha256: createHash('sha256').update(data).digest('hex') };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw adapterError('NOT_FOUND', op, `${nodePath.dirname(path)} does not exist; create it first with fs.mkdir`);
    }
    throw fsError(error, op, path);
  }
}

async function checkExpected(path: string, exists: boolean, expected: string): Promise<void> {
  if (!exists) throw adapterError('PRECONDITION_FAILED', op, `${path} does not exist, so it cannot match expectedSha256`);
  const actual = await hashFile(path);
  if (actual !== expected.toLowerCase()) {
    throw adapterError(
      'PRECONDITION_FAILED',
      op,
      `${path} changed since it was read (sha256 is ${actual}, expected ${expected}); read it again before writing`,
      { sha256: actual },
    );
  }
}

async function replaceAtomically(path: string, data: Buffer, exclusive: boolean, mode: number | undefined): Promise<void> {
  const dir = nodePath.dirname(path);
  const temp = nodePath.join(dir, `.${nodePath.basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await fs.promises.open(temp, 'wx', mode === undefined ? 0o666 : mode & 0o7777);
  try {
    await handle.writeFile(data);
    await handle.sync();
    await handle.close();
    if (exclusive) {
      await linkExclusive(temp, path);
    } else {
      await fs.promises.rename(temp, path);
    }
  } catch (error) {
    await handle.close().catch(() => {});
    await fs.promises.rm(temp, { force: true }).catch(() => {});
    throw error;
  }
  await syncDirectory(dir);
}

/** Hard-link the temp file to the target (fails with EEXIST if it exists), then drop the temp name. */
async function linkExclusive(temp: string, path: string): Promise<void> {
  try {
    await fs.promises.link(temp, path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw adapterError('ALREADY_EXISTS', op, `${path} already exists (use mode "overwrite" to replace it)`);
    // Filesystems without hard links (some network and FAT mounts): fall back to a checked rename.
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EXDEV' && code !== 'ENOSYS') throw error;
    if (await statOrNull(path)) throw adapterError('ALREADY_EXISTS', op, `${path} already exists (use mode "overwrite" to replace it)`);
    await fs.promises.rename(temp, path);
    return;
  }
  await fs.promises.unlink(temp);
}

async function appendDurably(path: string, data: Buffer): Promise<void> {
  const handle = await fs.promises.open(path, fs.constants.O_WRONLY | fs.constants.O_APPEND | fs.constants.O_CREAT | (fs.constants.O_NOFOLLOW ?? 0), 0o666);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function syncDirectory(dir: string): Promise<void> {
  if (process.platform === 'win32') return; // directories cannot be opened for fsync there
  const handle = await fs.promises.open(dir, 'r').catch(() => null);
  if (!handle) return;
  await handle.sync().catch(() => {});
  await handle.close();
}

export async function hashFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of fs.createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

async function statOrNull(path: string): Promise<fs.Stats | null> {
  try {
    return await fs.promises.lstat(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw fsError(error, op, path);
  }
}
