/** GitOps on this computer: every operation runs the git the policy planned (adapter/git/*-ops.ts). */
import type { GitOps } from '../contract/git.js';
import { clone, pull, push } from './network-ops.js';
import { branches, diff, log, show, status } from './read-ops.js';
import { add, changedPaths, commit, createBranch, currentBranch, restore, restoreState, state, switchBranch, unstage } from './write-ops.js';

export const localGitOps: GitOps = {
  status,
  diff,
  log,
  show,
  branches,
  add,
  unstage,
  commit,
  createBranch,
  switchBranch,
  restore,
  push,
  pull,
  clone,
  state,
  restoreState,
  changedPaths,
  currentBranch,
};
