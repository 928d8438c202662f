import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { adapterError } from '../errors.js';
import { fsError } from './fs-errors.js';
import type { GuardedPath, ReadOptions, TextFileRead } from './file-ops.js';
import { realPathOfOpened } from './opened-path.js';

// No-follow for the last component; non-blocking so a FIFO cannot hang the thread pool (no effect on files).
export const READ_FLAGS = fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0);
const CHUNK = 256 * 1024;
const utf8 = new TextDecoder('utf-8', { fatal: true });
const op = 'fs.read';

/**
 * Reads at most `maxBytes` of a UTF-8 text file through one descriptor: open, confirm where it
 * really is, fstat, read. The work is bounded by what is returned: a file larger than
 * `maxBytes` is not read to its end, so its sha256 is only known (and given) when the whole
 * file was read. A cancelled request stops between chunks.
 */
export async function readTextFile(file: GuardedPath, { maxBytes, signal }: ReadOptions): Promise<TextFileRead> {
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
    // One byte past the limit tells whether there is more, without reading the rest.
    const wanted = maxBytes + 1;
    const buffer = Buffer.allocUnsafe(Math.min(wanted, stat.size + 1));
    let length = 0;
    while (length < buffer.length) {
      if (signal?.aborted) throw cancelled();
      const { bytesRead } = await handle.read(buffer, length, Math.min(CHUNK, buffer.length - length), null);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    // Filled to the fstat size plus one: the file grew while being read, so this is not all of it.
    const truncated = length > maxBytes || (length === buffer.length && buffer.length < wanted);
    const shown = buffer.subarray(0, Math.min(length, maxBytes));
    const content = decodeText(shown, truncated, file.path);
    const totalBytes = truncated ? Math.max(stat.size, length) : length;
    const result: TextFileRead = { content, bytes: Buffer.byteLength(content), totalBytes, truncated };
    if (!truncated) result.sha256 = createHash('sha256').update(shown).digest('hex');
    return result;
  } catch (error) {
    throw fsError(error, op, file.path);
  } finally {
    await handle.close();
  }
}

export function cancelled(): Error {
  return adapterError('PRECONDITION_FAILED', op, 'the request was cancelled');
}

/** Decodes UTF-8; a cut in the middle of a character at the end is dropped, anything else binary is refused. */
function decodeText(bytes: Buffer, truncated: boolean, path: string): string {
  if (bytes.includes(0)) throw binary(path);
  let end = bytes.length;
  if (truncated) end = completeCharacterEnd(bytes);
  try {
    return utf8.decode(bytes.subarray(0, end));
  } catch {
    throw binary(path);
  }
}

function completeCharacterEnd(bytes: Buffer): number {
  // Walk back over at most 3 continuation bytes to the start of the last character.
  let i = bytes.length - 1;
  let continuation = 0;
  while (i >= 0 && continuation < 3 && (bytes[i]! & 0xc0) === 0x80) {
    i--;
    continuation++;
  }
  if (i < 0) return bytes.length;
  const lead = bytes[i]!;
  const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return bytes.length - i >= need ? bytes.length : i;
}

function binary(path: string): Error {
  return adapterError('INVALID_INPUT', op, `${path} is not a UTF-8 text file (it looks binary); fs.read returns text only`);
}
