/**
 * fs.edit: exact replacements in one file, all or nothing. The file is read whole through its
 * checked descriptor, edited in memory, and written back atomically only if it still has the
 * content that was edited (another program changing it meanwhile is PRECONDITION_FAILED).
 * A file with CRLF line endings throughout is edited as LF text when the edits use LF, and
 * keeps CRLF; a file with mixed endings is edited as it is.
 */
import { createHash } from 'node:crypto';
import { adapterError } from '../contract/errors.js';
import type { EditResult, GuardedPath, TextEdit, WriteOptions } from '../contract/files.js';
import { isCrlfThroughout } from './line-endings.js';
import { diffSummary } from './patch/diff-summary.js';
import { readTextFile } from './read-text.js';
import { applyEdits } from './text-edits.js';
import { writeTextFile } from './write-text.js';

export async function editTextFile(file: GuardedPath, edits: readonly TextEdit[], options: WriteOptions & { maxBytes: number }): Promise<EditResult> {
  const current = await readWhole(file, options.maxBytes, 'fs.edit', options.signal);
  if (options.expectedSha256 !== undefined && options.expectedSha256.toLowerCase() !== current.sha256) {
    throw adapterError(
      'PRECONDITION_FAILED',
      'fs.edit',
      options.revealHash ? `${file.path} changed since it was read (sha256 is ${current.sha256}); read it again` : `${file.path} does not match expectedSha256`,
    );
  }
  const crlf = isCrlfThroughout(current.content) && !edits.some((e) => e.oldText.includes('\r') || e.newText.includes('\r'));
  const before = crlf ? current.content.replace(/\r\n/g, '\n') : current.content;
  const edited = applyEdits(before, edits, { maxBytes: options.maxBytes, path: file.path });
  const after = crlf ? edited.text.replace(/\n/g, '\r\n') : edited.text;
  refuseTooLarge(file.path, after, options.maxBytes, 'fs.edit');
  const diff = diffSummary(file.path, before, edited.text);
  if (options.dryRun) return { sha256: sha256Of(after), replacements: edited.replacements, bytesWritten: 0, diff };
  const written = await writeTextFile(file, after, 'overwrite', { ...options, expectedSha256: current.sha256 });
  // An overwrite always answers its hash (only an append may not).
  return { sha256: written.sha256!, replacements: edited.replacements, bytesWritten: written.bytesWritten, diff };
}

/** What a change would write is held to the same limit as fs.write's content. */
export function refuseTooLarge(path: string, content: string, maxBytes: number, operation: string): void {
  const bytes = Buffer.byteLength(content);
  if (bytes > maxBytes) {
    throw adapterError('INVALID_INPUT', operation, `${path} would be ${bytes} bytes after the change; the limit is ${maxBytes} (filesystem.maxWriteBytes)`);
  }
}

/** The whole text of a file no larger than `maxBytes`, with its sha256. */
export async function readWhole(file: GuardedPath, maxBytes: number, operation: string, signal?: AbortSignal): Promise<{ content: string; sha256: string }> {
  const read = await readTextFile(file, { maxBytes, ...(signal ? { signal } : {}) });
  if (read.truncated || read.sha256 === undefined) {
    throw adapterError(
      'INVALID_INPUT',
      operation,
      `${file.path} is ${read.totalBytes} bytes; ${operation} works on files up to ${maxBytes} bytes (filesystem.maxWriteBytes)`,
    );
  }
  return { content: read.content, sha256: read.sha256 };
}

/** The sha256 a write of `text` (UTF-8) would give the file. */
export function sha256Of(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
