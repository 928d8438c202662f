/**
 * Unified diffs (`diff -u`, `git diff`) in the same shape as apply_patch operations, parsed by
 * jsdiff's parsePatch: `/dev/null` on one side is an add or a delete, differing names are a
 * move, each hunk is a chunk (its line numbers are only a hint; context decides, as for
 * apply_patch). "\ No newline at end of file" decides how the file ends.
 */
import { parsePatch } from 'diff';
import { addContext, PatchSyntaxError } from './patch-syntax.js';
import type { FinalNewline, PatchChunk, PatchOp } from '../../contract/files.js';

export function isUnifiedDiff(text: string): boolean {
  return /^--- .*\n\+\+\+ .*\n@@ /m.test(text.replace(/\r\n/g, '\n'));
}

export function parseUnifiedDiff(text: string): PatchOp[] {
  const normalized = text.replace(/\r\n/g, '\n');
  let files;
  try {
    files = parsePatch(normalized);
  } catch (error) {
    throw new PatchSyntaxError(`not a valid unified diff (${(error as Error).message})`, 1);
  }
  // Where each hunk starts in the text, for messages: a line starting "@@" is always a hunk header.
  const hunkLines = normalized.split('\n').flatMap((line, i) => (line.startsWith('@@') ? [i + 1] : []));
  let hunkIndex = 0;
  const ops: PatchOp[] = [];
  for (const file of files) {
    const from = clean(file.oldFileName);
    const to = clean(file.newFileName);
    if (from === null && to === null) continue;
    if (from === null) {
      hunkIndex += file.hunks.length;
      const content = file.hunks.flatMap((h) => h.lines.filter((l) => l.startsWith('+')).map((l) => l.slice(1)));
      ops.push({ kind: 'add', path: to!, content: content.length ? content.join('\n') + (endsWithoutNewline(file.hunks) ? '' : '\n') : '' });
      continue;
    }
    if (to === null) {
      hunkIndex += file.hunks.length;
      ops.push({ kind: 'delete', path: from });
      continue;
    }
    const chunks = file.hunks.map((hunk): PatchChunk => {
      const chunk: PatchChunk = { anchors: [], oldLines: [], newLines: [], context: [], endOfFile: false, patchLine: hunkLines[hunkIndex++] ?? 1 };
      for (const line of hunk.lines) {
        const body = line.slice(1);
        if (line.startsWith(' ') || line === '') {
          addContext(chunk, body);
        } else if (line.startsWith('-')) chunk.oldLines.push(body);
        else if (line.startsWith('+')) chunk.newLines.push(body);
      }
      return chunk;
    });
    const finalNewline = finalNewlineOf(file.hunks);
    ops.push(from === to ? { kind: 'update', path: from, chunks, finalNewline } : { kind: 'update', path: from, moveTo: to, chunks, finalNewline });
  }
  if (ops.length === 0) throw new PatchSyntaxError('the diff changes no file', 1);
  return ops;
}

/** `a/x` and `b/x` are git's prefixes; `/dev/null` is no file; a tab may separate a timestamp. */
function clean(name: string | undefined): string | null {
  if (name === undefined) return null;
  const bare = name.split('\t')[0]!.trim();
  if (bare === '/dev/null' || bare === '') return null;
  return bare.replace(/^[ab]\//, '');
}

/** "\ No newline at end of file" after a line of the new side (context or added) or only after a removed one; else the end is untouched. */
function finalNewlineOf(hunks: Array<{ lines: string[] }>): FinalNewline {
  let oldSide = false;
  let newSide = false;
  for (const { lines } of hunks) {
    lines.forEach((line, i) => {
      if (!line.startsWith('\\') || i === 0) return;
      const mark = lines[i - 1]![0];
      if (mark === '+' || mark === ' ') newSide = true;
      if (mark === '-' || mark === ' ') oldSide = true;
    });
  }
  return newSide ? 'remove' : oldSide ? 'add' : 'keep';
}

function endsWithoutNewline(hunks: Array<{ lines: string[] }>): boolean {
  return hunks.at(-1)?.lines.at(-1)?.startsWith('\\') ?? false;
}
