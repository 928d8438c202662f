/** A short unified diff of a change, for the model to see what it did (bounded; says when cut). */
import { createTwoFilesPatch } from 'diff';

const MAX_LINES = 120;
const MAX_CHARS = 8192;

export function diffSummary(path: string, before: string, after: string): string {
  if (before === after) return '';
  const full = createTwoFilesPatch(path, path, before, after, '', '', { context: 2 })
    .split('\n')
    .filter((line) => !line.startsWith('=====') && !line.startsWith('Index: '));
  if (full.at(-1) === '') full.pop(); // the patch text's final newline is not a diff line
  let lines = full.slice(0, MAX_LINES);
  let text = lines.join('\n');
  if (text.length > MAX_CHARS) {
    text = text.slice(0, MAX_CHARS);
    lines = text.split('\n').slice(0, -1);
    text = lines.join('\n');
  }
  const cut = full.length - lines.length;
  return cut > 0 ? `${text}\n... (${cut} more diff lines)` : text.trimEnd();
}
