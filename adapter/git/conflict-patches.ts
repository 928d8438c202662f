/**
 * The patches of a working tree's conflicted files. `git diff --raw --numstat --patch` lists
 * an unmerged file as a combined record and prints neither counts nor a patch for it; without
 * --raw, git prints its combined diff (`diff --cc`: both sides, and the conflict markers in the
 * file), which a model needs to resolve the conflict. Asked in one run, within what is left of
 * the caller's byte budget.
 */
import type { GitDiff, GitRun } from '../contract/git.js';
import { splitPatches } from './parse/diff.js';
import { runGit } from './run-git.js';

export async function addConflictPatches(run: GitRun, diff: GitDiff, flags: readonly string[], maxBytes: number): Promise<void> {
  const wanted = diff.files.filter((f) => f.conflicted && f.patch === undefined);
  if (wanted.length === 0) return;
  let room = maxBytes - diff.files.reduce((n, f) => n + (f.patch === undefined ? 0 : Buffer.byteLength(f.patch)), 0);
  if (room <= 0) {
    diff.truncated = true;
    return;
  }
  const out = await runGit(run, [...flags, '--cc', '--', ...wanted.map((f) => f.path)], { operation: 'git.diff', maxBytes: room });
  const patches = splitPatches(out.stdout.toString('utf8'));
  wanted.forEach((file, i) => {
    const patch = patches[i];
    // In git's order (the index's, as listed); one cut with the output, or not this file's, is left out.
    const whole = patch !== undefined && !(out.truncated && i === patches.length - 1) && patch.startsWith(`diff --cc ${file.path}\n`);
    if (whole && Buffer.byteLength(patch) <= room) {
      room -= Buffer.byteLength(patch);
      file.patch = patch;
    } else diff.truncated = true;
  });
}
