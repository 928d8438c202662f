/**
 * Applies update chunks to a file's text by finding each chunk's old lines (context and
 * removed lines) after the previous chunk, never by trusting line numbers, with apply_patch's
 * growing tolerance (seek-lines.ts). Context lines keep the file's own text (its indentation,
 * its quotes): only "-" and "+" lines change the file.
 */
import { adapterError } from '../../contract/errors.js';
import { isCrlfThroughout } from '../line-endings.js';
import type { FinalNewline, PatchChunk } from '../../contract/files.js';
import { LineSeeker } from './seek-lines.js';

const op = 'fs.patch';

/** The new text, or NO_MATCH naming the chunk (its line in the patch and first old line). */
export function applyChunks(path: string, text: string, chunks: readonly PatchChunk[], finalNewline: FinalNewline = 'add'): string {
  // A CRLF file is patched as LF text (patches come with LF) and stays CRLF.
  const crlf = isCrlfThroughout(text);
  const lines = (crlf ? text.replace(/\r\n/g, '\n') : text).split('\n');
  // A final newline leaves an empty last element: it is not a line chunks can match or insert after.
  const hasFinalNewline = lines.at(-1) === '';
  if (hasFinalNewline) lines.pop();
  const seeker = new LineSeeker(lines);
  const replacements: Array<{ at: number; remove: number; insert: string[] }> = [];
  let cursor = 0;
  for (const chunk of chunks) {
    for (const anchor of chunk.anchors) {
      const found = seeker.seek([anchor], cursor);
      if (found < 0) throw noMatch(path, chunk, `the anchor "@@ ${anchor}"`);
      cursor = found + 1;
    }
    if (chunk.oldLines.length === 0) {
      // Pure addition: after its anchor, or at the end of the file.
      const at = chunk.anchors.length > 0 ? cursor : lines.length;
      replacements.push({ at, remove: 0, insert: chunk.newLines });
      cursor = at;
      continue;
    }
    let old = chunk.oldLines;
    let neu = chunk.newLines;
    let found = seeker.seek(old, cursor, chunk.endOfFile);
    // A trailing empty context line usually stands for the file's final newline.
    if (found < 0 && old.at(-1) === '') {
      old = old.slice(0, -1);
      neu = neu.at(-1) === '' ? neu.slice(0, -1) : neu;
      found = seeker.seek(old, cursor, chunk.endOfFile);
    }
    if (found < 0) throw noMatch(path, chunk, `the lines starting ${JSON.stringify(old[0])}`);
    // Context is unchanged by definition: keep the file's line where it matched only loosely.
    const insert = [...neu];
    for (const [o, n] of chunk.context) if (o < old.length && n < neu.length) insert[n] = lines[found + o]!;
    replacements.push({ at: found, remove: old.length, insert });
    cursor = found + old.length;
  }
  // From the end, so earlier places keep their index; at the same place the later chunk goes first
  // (an addition after an anchor, then a chunk replacing the line that follows it).
  for (const { at, remove, insert } of replacements.sort((a, b) => a.at - b.at).reverse()) lines.splice(at, remove, ...insert);
  // Like apply_patch, an updated file ends with a newline, unless a unified diff said otherwise.
  if (lines.length === 0) return '';
  const newline = finalNewline === 'add' || (finalNewline === 'keep' && hasFinalNewline);
  const result = lines.join('\n') + (newline ? '\n' : '');
  return crlf ? result.replace(/\n/g, '\r\n') : result;
}

function noMatch(path: string, chunk: PatchChunk, what: string): Error {
  return adapterError(
    'NO_MATCH',
    op,
    `${path}: the chunk at patch line ${chunk.patchLine} does not apply: ${what} were not found (after the previous chunk, even ignoring whitespace); read the file again and use its exact lines as context`,
    { patchLine: chunk.patchLine },
  );
}
