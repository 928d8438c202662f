/**
 * Finding a chunk's lines in a file, as apply_patch does: strictly first, then with growing
 * tolerance (trailing whitespace ignored, then surrounding whitespace, then typographic
 * punctuation such as smart quotes, dashes and non-breaking spaces read as ASCII). The first
 * place that matches at the strictest level wins.
 *
 * Each level reads every line once into a number (equal lines, equal numbers) and looks for the
 * chunk with KMP, so a search is linear in the file and the chunk. Comparing line by line at
 * every place took minutes for a long chunk of repeated lines in a large file (20,000 lines
 * "x" and a 500-line chunk of "x" ending in "y": 7 s), on the server's only thread.
 */

const LEVELS: ReadonlyArray<(line: string) => string> = [(line) => line, (line) => line.trimEnd(), (line) => line.trim(), ascii];

/** Typographic characters models and editors swap in, read as their ASCII forms. */
function ascii(line: string): string {
  return line
    .trim()
    .replace(/[\u2018\u2019\u201a\u201b]/g, "'")
    .replace(/[\u201c\u201d\u201e\u201f]/g, '"')
    .replace(/[\u2010-\u2015\u2212]/g, '-')
    .replace(/[\u00a0\u2002-\u200a\u202f\u205f\u3000]/g, ' ');
}

/** One file's lines, read at each level only when a search needs that level. */
export class LineSeeker {
  private readonly ids = new Map<string, number>();
  private readonly levels: Array<Int32Array | undefined> = [];

  constructor(private readonly lines: readonly string[]) {}

  /** Where `pattern` starts at or after `start` (at the end first when `atEnd`), or -1. */
  seek(pattern: readonly string[], start: number, atEnd = false): number {
    if (pattern.length === 0) return start;
    if (pattern.length > this.lines.length) return -1;
    const last = this.lines.length - pattern.length;
    for (let level = 0; level < LEVELS.length; level++) {
      const text = this.read(level);
      const want = Int32Array.from(pattern, (line) => this.id(LEVELS[level]!(line)));
      if (atEnd && last >= start && want.every((id, k) => text[last + k] === id)) return last;
      const found = find(text, want, start);
      if (found >= 0) return found;
    }
    return -1;
  }

  private read(level: number): Int32Array {
    return (this.levels[level] ??= Int32Array.from(this.lines, (line) => this.id(LEVELS[level]!(line))));
  }

  private id(text: string): number {
    let id = this.ids.get(text);
    if (id === undefined) {
      id = this.ids.size;
      this.ids.set(text, id);
    }
    return id;
  }
}

/** Where `lines` are in the file `text` at or after `start` (both as line numbers), or -1. */
export function seek(text: readonly string[], lines: readonly string[], start: number, atEnd = false): number {
  return new LineSeeker(text).seek(lines, start, atEnd);
}

/** Knuth-Morris-Pratt: the first index >= start where `pattern` occurs in `text`, or -1. */
function find(text: Int32Array, pattern: Int32Array, start: number): number {
  const fallback = new Int32Array(pattern.length);
  for (let i = 1, k = 0; i < pattern.length; i++) {
    while (k > 0 && pattern[i] !== pattern[k]) k = fallback[k - 1]!;
    if (pattern[i] === pattern[k]) k++;
    fallback[i] = k;
  }
  for (let i = start, k = 0; i < text.length; i++) {
    while (k > 0 && text[i] !== pattern[k]) k = fallback[k - 1]!;
    if (text[i] === pattern[k]) k++;
    if (k === pattern.length) return i - pattern.length + 1;
  }
  return -1;
}
