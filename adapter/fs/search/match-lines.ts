/**
 * Finds matching lines in one file's content, with context, the same way for both engines
 * (ripgrep only picks the candidate files). Binary content (a NUL byte) is skipped, as
 * ripgrep does; invalid UTF-8 is read leniently.
 */
import type { LineMatch } from '../../contract/files.js';

const MAX_LINE_CHARS = 400;
const decoder = new TextDecoder('utf-8');

export function isBinary(content: Buffer): boolean {
  return content.includes(0);
}

export function compileMatcher(pattern: string, regex: boolean, caseSensitive: boolean): RegExp {
  const source = regex ? pattern : pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(source, caseSensitive ? 'u' : 'iu');
}

/** At most `limit` matching lines; `more` tells whether there were others. */
export function matchLines(content: Buffer, matcher: RegExp, contextLines: number, limit: number): { matches: LineMatch[]; more: boolean } {
  const lines = decoder.decode(content).split(/\r?\n/);
  if (lines.at(-1) === '') lines.pop();
  const matches: LineMatch[] = [];
  for (let i = 0; i < lines.length; i++) {
    const found = matcher.exec(lines[i]!);
    if (!found) continue;
    if (matches.length === limit) return { matches, more: true };
    const match: LineMatch = { line: i + 1, column: found.index + 1, text: cut(lines[i]!) };
    if (contextLines > 0) {
      match.before = lines.slice(Math.max(0, i - contextLines), i).map(cut);
      match.after = lines.slice(i + 1, i + 1 + contextLines).map(cut);
    }
    matches.push(match);
  }
  return { matches, more: false };
}

function cut(line: string): string {
  return line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}…` : line;
}
