/**
 * Exact text replacements for fs.edit, all or nothing: each edit applies to the text the
 * previous ones produced; one that finds nothing, or finds several places without
 * `replaceAll`, fails the whole call with the line numbers a model needs to make it precise.
 */
import { adapterError } from '../contract/errors.js';
import type { TextEdit } from '../contract/files.js';

const op = 'fs.edit';
const MAX_LINES_LISTED = 20;

/**
 * `bound.maxBytes` bounds the text after every edit, not only the last: each edit can multiply the text
 * (replaceAll of a short oldText), and a hundred of them would build gigabytes before the final
 * size check.
 */
export function applyEdits(
  text: string,
  edits: readonly TextEdit[],
  bound: { maxBytes: number; path: string } = { maxBytes: Infinity, path: 'the file' },
): { text: string; replacements: number } {
  let current = text;
  let bytes = Buffer.byteLength(text);
  let replacements = 0;
  edits.forEach((edit, index) => {
    const which = edits.length > 1 ? `edit ${index + 1}: ` : '';
    if (edit.oldText === '') throw adapterError('INVALID_INPUT', op, `${which}oldText must not be empty (use fs.write to create content)`);
    const positions = occurrences(current, edit.oldText);
    if (positions.length === 0) throw adapterError('NO_MATCH', op, `${which}oldText was not found${hint(current, edit.oldText)}`, { edit: index + 1 });
    if (positions.length > 1 && !edit.replaceAll) {
      const lines = positions.slice(0, MAX_LINES_LISTED).map((at) => lineOf(current, at));
      const more = positions.length > MAX_LINES_LISTED ? `, ...` : '';
      throw adapterError(
        'AMBIGUOUS_MATCH',
        op,
        `${which}oldText occurs ${positions.length} times (lines ${lines.join(', ')}${more}); add surrounding lines to make it unique, or set replaceAll: true`,
        { edit: index + 1, lines },
      );
    }
    bytes += positions.length * (Buffer.byteLength(edit.newText) - Buffer.byteLength(edit.oldText));
    if (bytes > bound.maxBytes) {
      const after = edits.length > 1 ? `edit ${index + 1}` : 'the change';
      throw adapterError(
        'INVALID_INPUT',
        op,
        `${bound.path} would be ${bytes} bytes after ${after}; the limit is ${bound.maxBytes} (filesystem.maxWriteBytes); nothing was changed`,
        { edit: index + 1 },
      );
    }
    current = current.split(edit.oldText).join(edit.newText);
    replacements += positions.length;
  });
  return { text: current, replacements };
}

/** Start offsets of non-overlapping occurrences, left to right (what split/join replaces). */
function occurrences(text: string, needle: string): number[] {
  const found: number[] = [];
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) found.push(at);
  return found;
}

function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/** When the text differs only in whitespace or line endings, say so: the usual cause. */
function hint(text: string, needle: string): string {
  const squash = (s: string) => s.replace(/\s+/g, ' ').trim();
  if (needle.includes('\r\n') !== text.includes('\r\n')) return ' (the file and oldText use different line endings)';
  if (squash(needle) && squash(text).includes(squash(needle)))
    return ' exactly, but it matches when whitespace is ignored: copy the indentation and line breaks exactly';
  return '; read the file again and copy oldText exactly';
}
