import { describe, expect, it } from 'vitest';
import { diffSummary } from '../../../../adapter/fs/patch/diff-summary.js';

describe('diffSummary', () => {
  it('is a unified diff with two lines of context, without the Index/=== header', () => {
    const before = 'a\nb\nc\nd\ne\nf\ng\n';
    const after = 'a\nb\nc\nD\ne\nf\ng\n';
    expect(diffSummary('/r/f.txt', before, after)).toBe('--- /r/f.txt\n+++ /r/f.txt\n@@ -2,5 +2,5 @@\n b\n c\n-d\n+D\n e\n f');
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
});
