/**
 * A short unified diff of a change, for the model to see what it did (bounded; says when cut).
 *
 * jsdiff's Myers diff is synchronous and O(lines x differences): an edit that touches every
 * line of a 1 MiB file took two minutes of the server's only thread. So the lines both sides
 * share at the start and the end are set aside first (cheap, and all a typical edit leaves),
 * the rest is diffed within a bound, and a change too large for that is shown as its old lines
 * removed and its new lines added.
 */
import { structuredPatch, type StructuredPatchHunk } from 'diff';

const MAX_LINES = 120;
const MAX_CHARS = 8192;
const CONTEXT = 2;
const MARGIN = 16;
/** Beyond this many line edits (or this long), the minimal diff is not worth the wait. */
const MAX_EDIT_LENGTH = 1000;
const MAX_DIFF_MS = 100;

export function diffSummary(path: string, before: string, after: string): string {
  if (before === after) return '';
  const named = headerPath(path);
  const full = [`--- ${named}`, `+++ ${named}`, ...hunks(before, after).flatMap(formatHunk)];
  let lines = full.slice(0, MAX_LINES);
  let text = lines.join('\n');
  if (text.length > MAX_CHARS) {
    text = text.slice(0, MAX_CHARS);
    lines = text.split('\n').slice(0, -1);
    text = lines.join('\n');
  }
  const cut = full.length - lines.length;
  // Not trimmed: no diff line holds a line break, and the last one's end is part of what differs
  // (a CRLF line's \r, blanks at its end, a context line that is an empty line: " ").
  return cut > 0 ? `${text}\n... (${cut} more diff lines)` : text;
}

/**
 * The path as the header shows it: quoted with its control characters escaped when it has any,
 * as git quotes such a name. A newline in a file's name would otherwise end the header line and
 * start one of the diff's own (`+++`, `@@`, a line added) that is not there.
 */
function headerPath(path: string): string {
  return /[\u0000-\u001f\u007f]/.test(path) ? JSON.stringify(path) : path;
}

function hunks(before: string, after: string): StructuredPatchHunk[] {
  const a = linesOf(before);
  const b = linesOf(after);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  // The changed middle, with room around it: where a line repeats, the diff may place the change
  // a little earlier or later than the trimming did, and it still gets its context lines.
  const keep = CONTEXT + MARGIN;
  const from = Math.max(0, head - keep);
  const oldMiddle = a.slice(from, a.length - Math.max(0, tail - keep));
  const newMiddle = b.slice(from, b.length - Math.max(0, tail - keep));
  const patch = structuredPatch('', '', oldMiddle.join(''), newMiddle.join(''), '', '', {
    context: CONTEXT,
    maxEditLength: MAX_EDIT_LENGTH,
    timeout: MAX_DIFF_MS,
  });
  const found = patch?.hunks ?? [wholeHunk(oldMiddle, newMiddle, head - from, a.length - from - tail, b.length - from - tail)];
  return found.map((hunk) => ({ ...hunk, oldStart: hunk.oldStart + from, newStart: hunk.newStart + from }));
}

/** Lines with their line breaks, so a last line without one stays different from one with. */
function linesOf(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/** The change as one hunk: context, every old line removed, every new line added, context. */
function wholeHunk(a: string[], b: string[], start: number, oldEnd: number, newEnd: number): StructuredPatchHunk {
  const body = (prefix: string, lines: string[]) =>
    lines.flatMap((line) => (line.endsWith('\n') ? [prefix + line.slice(0, -1)] : [prefix + line, '\\ No newline at end of file']));
  const lead = Math.max(0, start - CONTEXT);
  const [before, removed, added, after] = [a.slice(lead, start), a.slice(start, oldEnd), b.slice(start, newEnd), a.slice(oldEnd, oldEnd + CONTEXT)];
  return {
    oldStart: lead + 1,
    oldLines: before.length + removed.length + after.length,
    newStart: lead + 1,
    newLines: before.length + added.length + after.length,
    lines: [...body(' ', before), ...body('-', removed), ...body('+', added), ...body(' ', after)],
  };
}

function formatHunk(hunk: StructuredPatchHunk): string[] {
  // An empty range names the line before it, as diff -u does.
  const oldStart = hunk.oldLines === 0 ? hunk.oldStart - 1 : hunk.oldStart;
  const newStart = hunk.newLines === 0 ? hunk.newStart - 1 : hunk.newStart;
  return [`@@ -${oldStart},${hunk.oldLines} +${newStart},${hunk.newLines} @@`, ...hunk.lines];
}
