/**
 * Parses the apply_patch format (the file-oriented "V4A" diff OpenAI models are trained to
 * emit):
 *
 *   *** Begin Patch
 *   *** Add File: path        then "+line" for every line of the new file
 *   *** Delete File: path
 *   *** Update File: path     optionally "*** Move to: new/path", then chunks:
 *   @@ [anchor text]          one or more; then " context", "-old", "+new" lines,
 *                             optionally "*** End of File"
 *   *** End Patch
 *
 * Lenient where models commonly drift: markers may carry surrounding whitespace, a heredoc
 * wrapper (<<'EOF' ... EOF) is dropped, an empty line inside a chunk is an empty context
 * line, and the first chunk of a file may omit its "@@".
 */
import { addContext, PatchSyntaxError } from './patch-syntax.js';
import type { PatchChunk, PatchOp } from '../../contract/files.js';

const BEGIN = '*** Begin Patch';
const END = '*** End Patch';
const ADD = '*** Add File: ';
const DELETE = '*** Delete File: ';
const UPDATE = '*** Update File: ';
const MOVE = '*** Move to: ';
const EOF_MARK = '*** End of File';

export function isApplyPatchFormat(text: string): boolean {
  return unwrap(text.split(/\r?\n/)).some((line) => line.trim() === BEGIN);
}

export function parseApplyPatch(text: string): PatchOp[] {
  const lines = unwrap(text.split(/\r?\n/));
  const first = lines.findIndex((line) => line.trim() !== '');
  let last = lines.length - 1;
  while (last >= 0 && lines[last]!.trim() === '') last--;
  if (first < 0 || lines[first]!.trim() !== BEGIN) throw new PatchSyntaxError(`a patch starts with "${BEGIN}"`, first + 1);
  if (lines[last]!.trim() !== END) throw new PatchSyntaxError(`a patch ends with "${END}"`, last + 1);

  const ops: PatchOp[] = [];
  let i = first + 1;
  const header = (prefix: string) => (lines[i]!.trimStart().startsWith(prefix) ? lines[i]!.trimStart().slice(prefix.length).trim() : null);
  while (i < last) {
    const line = lines[i]!;
    if (line.trim() === '') {
      i++;
      continue;
    }
    const add = header(ADD);
    const del = header(DELETE);
    const update = header(UPDATE);
    if (add !== null) {
      const content: string[] = [];
      for (i++; i < last && !isFileHeader(lines[i]!); i++) {
        if (!lines[i]!.startsWith('+')) throw new PatchSyntaxError(`every line of an added file starts with "+"; got ${JSON.stringify(lines[i])}`, i + 1);
        content.push(lines[i]!.slice(1));
      }
      ops.push({ kind: 'add', path: need(add, i), content: content.length ? content.join('\n') + '\n' : '' });
    } else if (del !== null) {
      ops.push({ kind: 'delete', path: need(del, i + 1) });
      i++;
    } else if (update !== null) {
      const path = need(update, i + 1);
      i++;
      let moveTo: string | undefined;
      const move = i < last ? header(MOVE) : null;
      if (move !== null) {
        moveTo = need(move, i + 1);
        i++;
      }
      const parsed = parseChunks(lines, i, last);
      i = parsed.next;
      if (parsed.chunks.length === 0 && moveTo === undefined) throw new PatchSyntaxError(`"${UPDATE}${path}" has no changes`, i);
      ops.push(moveTo === undefined ? { kind: 'update', path, chunks: parsed.chunks } : { kind: 'update', path, moveTo, chunks: parsed.chunks });
    } else {
      throw new PatchSyntaxError(`expected "${ADD}", "${DELETE}" or "${UPDATE}"; got ${JSON.stringify(line)}`, i + 1);
    }
  }
  if (ops.length === 0) throw new PatchSyntaxError('the patch changes no file', first + 1);
  return ops;
}

function parseChunks(lines: string[], start: number, end: number): { chunks: PatchChunk[]; next: number } {
  const chunks: PatchChunk[] = [];
  let i = start;
  while (i < end && !isFileHeader(lines[i]!)) {
    const chunk: PatchChunk = { anchors: [], oldLines: [], newLines: [], context: [], endOfFile: false, patchLine: i + 1 };
    // One or more "@@" lines (each may name a line to find first); the first chunk may have none.
    while (i < end && isChunkHeader(lines[i]!)) {
      const anchor = lines[i]!.slice(2).trim();
      if (anchor) chunk.anchors.push(anchor);
      i++;
    }
    if (chunks.length > 0 && chunk.patchLine === i + 1) throw new PatchSyntaxError('each chunk after the first starts with "@@"', i + 1);
    let changes = 0;
    for (; i < end && !isFileHeader(lines[i]!) && !isChunkHeader(lines[i]!); i++) {
      const line = lines[i]!;
      if (line.trim() === EOF_MARK) {
        chunk.endOfFile = true;
        i++;
        break;
      }
      const mark = line[0];
      const body = line.slice(1);
      if (line === '' || mark === ' ') {
        addContext(chunk, body);
      } else if (mark === '-') {
        chunk.oldLines.push(body);
        changes++;
      } else if (mark === '+') {
        chunk.newLines.push(body);
        changes++;
      } else {
        throw new PatchSyntaxError(`chunk lines start with " ", "-" or "+"; got ${JSON.stringify(line)}`, i + 1);
      }
    }
    if (changes === 0) throw new PatchSyntaxError('a chunk without "-" or "+" lines changes nothing', chunk.patchLine);
    chunks.push(chunk);
  }
  return { chunks, next: i };
}

/** "@@" at the start of the line: one starting with a space is a context line, whatever follows (" @@ -1 +1 @@" in a .diff file). */
function isChunkHeader(line: string): boolean {
  return line.startsWith('@@');
}

function isFileHeader(line: string): boolean {
  const t = line.trimStart();
  return t.startsWith(ADD) || t.startsWith(DELETE) || t.startsWith(UPDATE) || t.trim() === END;
}

function need(path: string, line: number): string {
  if (!path) throw new PatchSyntaxError('a file header needs a path', line);
  return path;
}

/**
 * Blanks a shell heredoc wrapper (`apply_patch <<'EOF'` ... `EOF`) models sometimes keep; the
 * lines stay in place so error messages count lines of the text as sent.
 */
function unwrap(lines: string[]): string[] {
  const first = lines.findIndex((line) => line.trim() !== '');
  if (first < 0 || !/<<\s*['"]?EOF['"]?\s*$/.test(lines[first]!)) return lines;
  let last = lines.length - 1;
  while (last > first && lines[last]!.trim() === '') last--;
  const closing = lines[last]!.trim() === 'EOF' ? last : -1;
  return lines.map((line, i) => (i === first || i === closing ? '' : line));
}
