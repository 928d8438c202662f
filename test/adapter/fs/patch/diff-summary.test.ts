import { createTwoFilesPatch } from 'diff';
import { describe, expect, it } from 'vitest';
import { diffSummary } from '../../../../adapter/fs/patch/diff-summary.js';

describe('diffSummary', () => {
  it('is a unified diff with two lines of context, without the Index/=== header', () => {
    const before = 'a\nb\nc\nd\ne\nf\ng\n';
    const after = 'a\nb\nc\nD\ne\nf\ng\n';
    expect(diffSummary('/r/f.txt', before, after)).toBe('--- /r/f.txt\n+++ /r/f.txt\n@@ -2,5 +2,5 @@\n b\n c\n-d\n+D\n e\n f');
  });

  it('quotes a path with a control character in it, so a newline in a name cannot forge a diff line', () => {
    const diff = diffSummary('/r/a\n+++ /etc/passwd\n@@ -1 +1 @@', 'x\n', 'y\n');
    expect(diff.split('\n').slice(0, 2)).toEqual(['--- "/r/a\\n+++ /etc/passwd\\n@@ -1 +1 @@"', '+++ "/r/a\\n+++ /etc/passwd\\n@@ -1 +1 @@"']);
    expect(diff.split('\n')).toHaveLength(5);
    expect(diffSummary('/r/plain name.txt', 'x\n', 'y\n').split('\n')[0]).toBe('--- /r/plain name.txt');
  });

  it('keeps every byte of the last diff line: a CRLF line keeps its \\r, a line its trailing blanks', () => {
    // Undo of a CRLF file whose last line the model changed: from now (CRLF) back to before (CRLF).
    expect(diffSummary('/r/f', 'a\r\nb\r\nC\r\n', 'a\r\nb\r\nc\r\n')).toBe('--- /r/f\n+++ /r/f\n@@ -1,3 +1,3 @@\n a\r\n b\r\n-C\r\n+c\r');
    // Only the last line's ending differs (CRLF -> LF, and back): the \r is what differs, and it shows on either side.
    expect(diffSummary('/r/f', 'a\r\nb\n', 'a\r\nb\r\n').split('\n').slice(-2)).toEqual(['-b', '+b\r']);
    expect(diffSummary('/r/f', 'a\r\nb\r\n', 'a\r\nb\n').split('\n').slice(-2)).toEqual(['-b\r', '+b']);
    // A CRLF file whose last line has no line break: its last line holds no \r, and the diff says there is no newline.
    expect(diffSummary('/r/f', 'a\r\nb\r\nc', 'a\r\nb\r\nC')).toBe(
      '--- /r/f\n+++ /r/f\n@@ -1,3 +1,3 @@\n a\r\n b\r\n-c\n\\ No newline at end of file\n+C\n\\ No newline at end of file',
    );
    expect(diffSummary('/r/f', 'a\r\nb\r\nc', 'a\r\nB\r\nc').split('\n').slice(-4)).toEqual(['-b\r', '+B\r', ' c', '\\ No newline at end of file']);
    // Blanks at the end of the last line, and an empty line as the last context line (" ", as diff -u writes it).
    expect(diffSummary('/r/f', 'a\nb\n', 'a\nb  \n').split('\n').slice(-2)).toEqual(['-b', '+b  ']);
    expect(diffSummary('/r/f', 'x\n\n', 'y\n\n').split('\n').slice(-3)).toEqual(['-x', '+y', ' ']);
  });

  it('reads as before for an ordinary LF file', () => {
    expect(diffSummary('/r/f', 'a\nb\nc\n', 'a\nb\nC\n')).toBe('--- /r/f\n+++ /r/f\n@@ -1,3 +1,3 @@\n a\n b\n-c\n+C');
    expect(diffSummary('/r/f', 'a\nb\nc', 'a\nb\nc\n')).toBe('--- /r/f\n+++ /r/f\n@@ -1,3 +1,3 @@\n a\n b\n-c\n\\ No newline at end of file\n+c');
  });

  it('is empty when nothing changed', () => {
    expect(diffSummary('/r/f', 'same\n', 'same\n')).toBe('');
  });

  it('is bounded, and says how many diff lines it left out', () => {
    const before = Array.from({ length: 500 }, (_, i) => `line ${i}`).join('\n') + '\n';
    const after = Array.from({ length: 500 }, (_, i) => `LINE ${i}`).join('\n') + '\n';
    const summary = diffSummary('/r/f', before, after);
    const lines = summary.split('\n');
    expect(lines.length).toBe(121);
    expect(lines.at(-1)).toMatch(/^\.\.\. \((\d+) more diff lines\)$/);
    const shown = lines.length - 1;
    expect(Number(/\d+/.exec(lines.at(-1)!)![0]) + shown).toBe(3 + 1000); // header lines + every - and + line
  });

  it('cuts very long lines at a line boundary, within 8 KiB', () => {
    const summary = diffSummary('/r/f', 'x\n', `${'y'.repeat(3000)}\n${'z'.repeat(3000)}\n${'w'.repeat(3000)}\n`);
    expect(summary.length).toBeLessThan(8192 + 100);
    expect(summary).toMatch(/\n\.\.\. \(\d+ more diff lines\)$/);
    for (const line of summary.split('\n').slice(0, -1))
      expect(['-', '+', ' ', '@'].includes(line[0]!) || line.startsWith('---') || line.startsWith('+++')).toBe(true);
  });

  it('is the same diff jsdiff computes on the whole texts, for small edits anywhere (generated cases)', () => {
    const whole = (before: string, after: string) => {
      const lines = createTwoFilesPatch('/f', '/f', before, after, '', '', { context: 2 })
        .split('\n')
        .filter((line) => !line.startsWith('=====') && !line.startsWith('Index: '));
      if (lines.at(-1) === '') lines.pop();
      return lines.join('\n').trimEnd();
    };
    let seed = 11;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let n = 0; n < 500; n++) {
      const lines = Array.from({ length: Math.floor(random() * 40) }, () => 'abcd'[Math.floor(random() * 4)]!);
      const changed = [...lines];
      for (let k = 0; k < 1 + Math.floor(random() * 3); k++) {
        const at = Math.floor(random() * (changed.length + 1));
        const what = random();
        if (what < 0.33) changed.splice(at, 0, 'new');
        else if (what < 0.66) changed.splice(at, 1);
        else changed[at] = 'changed';
      }
      const before = lines.join('\n') + (random() < 0.5 ? '\n' : '');
      const after = changed.join('\n') + (random() < 0.5 ? '\n' : '');
      if (before !== after) expect(diffSummary('/f', before, after), JSON.stringify([before, after])).toBe(whole(before, after));
    }
  });

  it('an edit of every line of a large file is summarised quickly, as old lines removed and new lines added', () => {
    const before = Array.from({ length: 15_000 }, (_, i) => `line ${i}: the quick brown fox\n`).join('');
    const started = performance.now();
    const summary = diffSummary('/r/f', before, before.replace(/o/g, '0'));
    expect(performance.now() - started).toBeLessThan(2000); // the full Myers diff took about two minutes
    expect(summary.split('\n').slice(0, 4)).toEqual(['--- /r/f', '+++ /r/f', '@@ -1,15000 +1,15000 @@', '-line 0: the quick brown fox']);
    expect(summary).toMatch(/\n\.\.\. \(\d+ more diff lines\)$/);
  });
});
