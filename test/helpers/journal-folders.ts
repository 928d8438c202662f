/**
 * The change journal's tests on real files: per test, a temp folder holding the work folder (the
 * files the model changes) and the app's journal folder, removed after; and undo guards that
 * allow every path.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import type { GuardedPath } from '../../adapter/contract/files.js';
import type { UndoGuards } from '../../adapter/contract/journal.js';
import { makeTempDir, removeDir } from './temp.js';

/** Registers the per-test folders; `at()` is a path in the work folder (the folder itself without parts). */
export function useJournalFolders(): { at: (...parts: string[]) => string; journalDir: () => string } {
  let base = '';
  beforeEach(() => {
    base = makeTempDir();
    fs.mkdirSync(path.join(base, 'work'));
  });
  afterEach(() => removeDir(base));
  return { at: (...parts) => path.join(base, 'work', ...parts), journalDir: () => path.join(base, 'app', 'journal') };
}

/** Guards allowing every path; `during` runs as each path is about to be put back (after every path was judged). */
export function allowingAll(during: (p: string) => void = () => {}): UndoGuards {
  return {
    resolve: async (p): Promise<GuardedPath> => {
      during(p);
      return { path: p, confirm: () => {} };
    },
    repository: async () => [],
  };
}
