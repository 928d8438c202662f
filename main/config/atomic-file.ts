/**
 * Owner-only files written atomically: a temp file beside the target (`.<name>.<random>.tmp`,
 * a form the filesystem policy protects like the file itself), flushed, renamed over the
 * target, then the directory flushed so the rename survives a crash. A failure leaves the old
 * file or the new one, never half of one. Used for the config, the token and other state files.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

export const OWNER_ONLY = 0o600;

export async function writeFileAtomic(target: string, data: string | Uint8Array, mode = OWNER_ONLY): Promise<void> {
  const dir = path.dirname(target);
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  const temp = path.join(dir, `.${path.basename(target)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    const handle = await fs.open(temp, 'wx', mode);
    try {
      await handle.writeFile(data);
      // The umask can only narrow the mode, but say it explicitly in case the file system widened it.
      if (process.platform !== 'win32') await handle.chmod(mode);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(temp, target);
  } catch (error) {
    await fs.rm(temp, { force: true });
    throw error;
  }
  await syncDirectory(dir);
}

/** Makes a rename durable. Directories cannot be opened for fsync on Windows. */
export async function syncDirectory(dir: string): Promise<void> {
  if (process.platform === 'win32') return;
  let handle;
  try {
    handle = await fs.open(dir, 'r');
    await handle.sync();
  } catch {
    // Some file systems refuse fsync on a directory; the data itself is already on disk.
  } finally {
    await handle?.close();
  }
}
