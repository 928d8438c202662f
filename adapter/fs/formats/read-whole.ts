/** A whole file through one confirmed descriptor, refused unread above `maxBytes` (images, PDF: parsers need all of it). */
import fs from 'node:fs';
import { adapterError } from '../../contract/errors.js';
import type { GuardedPath } from '../../contract/files.js';
import { fsError } from '../fs-errors.js';
import { realPathOfOpened } from '../opened-path.js';
import { READ_FLAGS } from '../read-text.js';

const op = 'fs.read';

export async function readWhole(file: GuardedPath, maxBytes: number, kind: string): Promise<{ data: Buffer; totalBytes: number }> {
  let handle: fs.promises.FileHandle;
  try {
    handle = await fs.promises.open(file.path, READ_FLAGS);
  } catch (error) {
    throw fsError(error, op, file.path);
  }
  try {
    file.confirm(await realPathOfOpened(handle, file.path, op));
    const stat = await handle.stat();
    if (!stat.isFile()) throw adapterError('INVALID_INPUT', op, `${file.path} is not a regular file`);
    if (stat.size > maxBytes) {
      throw adapterError('INVALID_INPUT', op, `${file.path} is ${stat.size} bytes; ${kind} files over ${maxBytes / (1024 * 1024)} MiB are refused`);
    }
    const data = Buffer.alloc(stat.size);
    let length = 0;
    while (length < data.length) {
      const { bytesRead } = await handle.read(data, length, data.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    return { data: data.subarray(0, length), totalBytes: stat.size };
  } catch (error) {
    throw fsError(error, op, file.path);
  } finally {
    await handle.close();
  }
}
