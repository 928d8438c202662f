/** A whole file through one confirmed descriptor, refused unread above `maxBytes` (images, PDF: parsers need all of it). */
import { adapterError } from '../../contract/errors.js';
import type { GuardedPath } from '../../contract/files.js';
import { withRegularFile } from '../read-text.js';

export function readWhole(file: GuardedPath, maxBytes: number, kind: string): Promise<{ data: Buffer; totalBytes: number }> {
  return withRegularFile(file, async (handle, size) => {
    if (size > maxBytes) {
      throw adapterError('INVALID_INPUT', 'fs.read', `${file.path} is ${size} bytes; ${kind} files over ${maxBytes / (1024 * 1024)} MiB are refused`);
    }
    const data = Buffer.alloc(size);
    let length = 0;
    while (length < data.length) {
      const { bytesRead } = await handle.read(data, length, data.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    return { data: data.subarray(0, length), totalBytes: size };
  });
}
