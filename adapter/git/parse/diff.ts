/**
 * `git diff --raw --numstat --patch -z`: every changed file's raw record (status, paths), then
 * its line counts, an empty field, then the patches in the same order. The file list is whole
 * however large the patches are; patches are taken in order while they fit `maxBytes`.
 */
import type { FileChange, GitDiff } from '../../contract/git.js';

const CHANGE: Readonly<Record<string, FileChange>> = { A: 'added', M: 'modified', D: 'deleted', R: 'renamed', C: 'copied', T: 'type-changed' };

interface Listed {
  path: string;
  from?: string;
  change: FileChange;
  added: number | null;
  removed: number | null;
  conflicted?: true;
  /** A conflicted file of the working tree: a combined record, for which git prints no counts and no patch here (its patch is asked for apart: `git diff --cc`). */
  combined?: true;
}

export function parseDiff(output: Buffer, visible: (path: string) => boolean, maxBytes: number, cut: boolean): GitDiff {
  const { files, patchStart } = listFiles(output);
  const patches = splitPatches(patchStart < 0 ? '' : output.subarray(patchStart).toString('utf8'));
  const result: GitDiff = { files: [], truncated: cut, withheld: 0 };
  let bytes = 0;
  let spent = false;
  // Counts and patches come in the order of the files that have them: every file but a combined record.
  let nth = 0;
  files.forEach(({ combined, ...file }) => {
    const i = combined ? -1 : nth++;
    if (!visible(file.path) || (file.from !== undefined && !visible(file.from))) {
      result.withheld++;
      return;
    }
    if (combined) {
      result.files.push(file);
      return;
    }
    const patch = patches[i];
    const size = patch === undefined ? 0 : Buffer.byteLength(patch);
    // The last patch git printed may have been cut with its output: it is not shown half.
    const whole = patch !== undefined && !(cut && i === patches.length - 1);
    if (!spent && whole && bytes + size <= maxBytes) {
      bytes += size;
      result.files.push({ ...file, patch });
    } else {
      if (patch !== undefined || cut) result.truncated = true;
      spent = true;
      result.files.push(file);
    }
  });
  return result;
}

/** The raw and numstat records; where the patch text begins (-1: no patch, or output cut before it). */
function listFiles(output: Buffer): { files: Listed[]; patchStart: number } {
  const files: Listed[] = [];
  let at = 0;
  let numstat = 0;
  const next = () => {
    const end = output.indexOf(0, at);
    if (end < 0) return null;
    const field = output.subarray(at, end).toString('utf8');
    at = end + 1;
    return field;
  };
  for (;;) {
    const field = next();
    if (field === null) return { files, patchStart: -1 };
    if (field === '') return { files, patchStart: at };
    if (field.startsWith('::')) {
      // A conflicted file against its stages (`::mode mode mode id id id XY`): one path, nothing more here.
      files.push({ path: next() ?? '', change: 'modified', added: null, removed: null, conflicted: true, combined: true });
      continue;
    }
    if (field.startsWith(':')) {
      const status = field.split(' ')[4] ?? '';
      const change = CHANGE[status[0] ?? ''] ?? 'modified';
      const first = next() ?? '';
      const two = change === 'renamed' || change === 'copied';
      const second = two ? (next() ?? '') : undefined;
      // `U`: conflicted, as the index sees it (staged: `* Unmerged path`).
      const conflicted = status[0] === 'U' ? { conflicted: true as const } : {};
      files.push({ path: second ?? first, ...(two ? { from: first } : {}), change, added: null, removed: null, ...conflicted });
      continue;
    }
    // numstat: added TAB removed TAB path, or (a rename) added TAB removed TAB, then both paths.
    const [added = '-', removed = '-', path = ''] = field.split('\t');
    if (path === '') {
      next();
      next();
    }
    while (files[numstat]?.combined) numstat++;
    const file = files[numstat++];
    if (file) {
      file.added = added === '-' ? null : Number(added);
      file.removed = removed === '-' ? null : Number(removed);
    }
  }
}

/**
 * Where a file's part begins: its `diff --git` (`diff --cc` for a combined diff) header, or
 * `* Unmerged path` where git prints no diff for a conflicted file. Content lines always start
 * with a space, + or -.
 */
const HEADER = /^(?:diff --(?:git|cc|combined) |\* Unmerged path )/gm;

/** Patch text split at each file's header. */
export function splitPatches(text: string): string[] {
  const starts = [...text.matchAll(HEADER)].map((m) => m.index);
  return starts.map((start, n) => text.slice(start, starts[n + 1] ?? text.length));
}
