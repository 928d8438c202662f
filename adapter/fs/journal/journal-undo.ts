/**
 * Showing a group (what changed, and what undo would do, as diffs) and undoing it: every path
 * whose state is still exactly what the model's last change left is put back, deepest removals
 * first and then shallowest restorations; a path changed since is a conflict and stays as it is;
 * then each repository's refs and index, each only where they have not moved since.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ChangedPath, GroupDetail, PathChange, UndoGuards, UndoOutcome } from '../../contract/journal.js';
import { inParent } from '../in-parent.js';
import { diffSummary } from '../patch/diff-summary.js';
import { hashEntry } from '../write-text.js';
import { READ_FLAGS } from '../read-text.js';
import { asBefore } from './as-before.js';
import { contentPrint, fullyKept, missingFolders, imageKind, sameStamp, shallowStamp, stamp, type Image, type Stamp } from './images.js';
import { replacesFolder, summarize, type FoldedGroup, type RecordedPath } from './folded-group.js';
import { CHANGED_AFTER, stillSealed } from './linked-image.js';
import { NotEmpty, restorePath, UndoConflict, type Judged } from './restore.js';

/** Text files up to this size get a diff in the journal's view. */
const MAX_DIFF_FILE = 512 * 1024;

export async function describeGroup(group: FoldedGroup, blobs: string): Promise<GroupDetail> {
  const changes: ChangedPath[] = [];
  for (const [target, info] of changed(group)) {
    const kept = await keptIntact(group, target, info, blobs);
    const change = changeOf(info.pre, info.post!);
    const since = (await judge(target, info)).why !== undefined;
    const entry: ChangedPath = {
      path: target,
      change,
      was: imageKind(info.pre),
      kept: kept.kept,
      ...(kept.why ? { why: kept.why } : {}),
      ...(kept.missing ? { partly: kept.missing } : {}),
      ...modeChange(info.pre, info.post!),
      ...(since ? { changedSince: true as const } : {}),
    };
    // Only where undo would put the path back: one changed since is left as it is (its content is not the model's to show).
    const diff = kept.kept && !since ? await undoDiff(target, info.pre, info.post!, blobs) : undefined;
    if (diff) entry.diff = diff;
    changes.push(entry);
  }
  const repositoryChanges = [...group.repositories].map(([repo, info]) => ({ path: repo, ...info }));
  return { ...summarize(group), changes, repositoryChanges, ...(group.undo ? { undo: group.undo } : {}) };
}

/** Puts the group back; `only`: just these paths (those an earlier undo of it failed to put back, with what it left), its repositories not again. */
export async function applyUndo(
  group: FoldedGroup,
  blobs: string,
  guards: UndoGuards,
  appliedAt: string,
  only?: ReadonlyMap<string, Stamp | undefined>,
): Promise<UndoOutcome> {
  const outcome: UndoOutcome = { appliedAt, restored: [], conflicts: [], skipped: [], repositories: [] };
  const todo: Array<[string, RecordedPath, Stamp]> = [];
  const notWhole: string[] = [];
  // Every path is judged before any is touched: putting one back changes the folders around it.
  for (const [target, info] of changed(group)) {
    if (only && !only.has(target)) continue;
    const { now, why } = await judge(target, info, only?.get(target));
    if (why !== undefined && (await asBefore(target, info.pre, blobs, () => stillSealed(info.pre, info.seal, blobs)))) {
      outcome.restored.push(target);
      (outcome.notes ??= []).push({ path: target, why: `${ALREADY}${await leftBeside(target)}` });
      continue;
    }
    if (why !== undefined) {
      outcome.conflicts.push({ path: target, why: why + (await leftBeside(target)) });
      // Taken away by the model and made again by someone else: where the model put it (a move's destination) may be its only copy.
      if (info.pre.type !== 'absent' && info.post?.type === 'absent') notWhole.push(target);
      continue;
    }
    const kept = await keptIntact(group, target, info, blobs);
    if (!kept.kept || kept.missing) notWhole.push(target);
    if (!kept.kept) outcome.skipped.push({ path: target, why: `its earlier state was not kept: ${kept.why}` });
    else todo.push([target, info, now]);
  }
  // A change never recorded as done: where it is as before, or nothing is there now, there is nothing of anyone's to keep.
  for (const [target, info] of cutShort(group, only)) {
    const now = shallowStamp(target);
    const kept = now.type === 'absent' ? await keptIntact(group, target, info, blobs) : null;
    if (await asBefore(target, info.pre, blobs, () => stillSealed(info.pre, info.seal, blobs))) {
      // Not changed after all (or not yet: the call still runs), as a call that failed before changing anything.
      const beside = await leftBeside(target);
      if (beside) (outcome.notes ??= []).push({ path: target, why: `${CUT_SHORT}, and it is as it was before${beside}` });
    } else if (kept?.kept) {
      todo.push([target, info, now]);
      if (kept.missing) notWhole.push(target);
      (outcome.notes ??= []).push({ path: target, why: `${CUT_SHORT}; nothing is there now, so it is put back as it was${await leftBeside(target)}` });
    } else {
      outcome.skipped.push({ path: target, why: await cutShortWhy(target) });
      notWhole.push(target);
    }
  }
  // Something put back without all it held, or not at all (not kept: too large, a fifo; a conflict): that may
  // exist only where the model moved it, so nothing the group made is taken away then, but files
  // holding only what the model sent (fs.write last wrote them, its sha256 checked by judge; a
  // patch can move a file, so not fs.patch), and folders holding no file by then.
  const partly = notWhole.length > 0;
  const made = ([, info, now]: (typeof todo)[number]) =>
    info.pre.type === 'absent' && now.type !== 'absent' && !(now.type === 'file' && info.sha !== undefined && info.by === 'fs.write');
  const emptyOnly = (item: (typeof todo)[number]) => partly && made(item) && item[2].type === 'directory';
  const leftWhole = (item: (typeof todo)[number]) => partly && made(item) && !emptyOnly(item);
  const shown = notWhole.slice(0, 3).join(', ') + (notWhole.length > 3 ? ` and ${notWhole.length - 3} more` : '');
  const leftWhy = (what: string) => `${shown} cannot be put back whole, and ${what}, which the model made, may hold the only copy of it, so it is left`;
  for (const [target] of todo.filter(leftWhole)) outcome.skipped.push({ path: target, why: leftWhy('this') });
  const depth = (p: string) => p.split('/').length;
  const removals = todo.filter((item) => item[1].pre.type === 'absent' && !leftWhole(item)).sort((a, b) => depth(b[0]) - depth(a[0]));
  const restorations = todo.filter(([, info]) => info.pre.type !== 'absent').sort((a, b) => depth(a[0]) - depth(b[0]));
  // What a folder undo takes away holds once undo's own removals in it are done: looked at again just before it goes.
  const removed = removals.map(([target]) => target);
  const judged = new Map<string, Judged>();
  for (const item of todo) {
    const [target, info, now] = item;
    const content = now.type === 'directory' && replacesFolder(info.pre) ? { content: await contentPrint(target, inside(target, removed)) } : {};
    judged.set(target, { stamp: now, ...content, ...(emptyOnly(item) ? { emptyOnly: true } : {}) });
  }
  const gone: string[] = [];
  for (const [target, info] of [...removals, ...restorations]) {
    // Inside a folder the model made and undo took away, what was there earlier was there only during the group: gone with it is as before.
    if (info.pre.type !== 'absent' && gone.some((folder) => target.startsWith(`${folder}/`))) {
      outcome.restored.push(target);
      continue;
    }
    const made: string[] = [];
    try {
      if (info.pre.type !== 'absent') await remakeFolders(target, guards, blobs, made);
      const notes = made.length ? [`the folder it was in was gone, and was made again (${made.join(', ')})`] : [];
      notes.push(...(await restorePath(await guards.resolve(target), info.pre, blobs, judged.get(target)!)));
      outcome.restored.push(target);
      if (info.pre.type === 'absent') gone.push(target);
      for (const why of notes) (outcome.notes ??= []).push({ path: target, why });
    } catch (error) {
      // Folders made for a path not put back after all go again (while still empty), through their
      // confirmed parent: a program may have swapped one for a link to a folder outside.
      for (const folder of made.reverse())
        await guards
          .resolve(folder)
          .then((guard) => inParent(guard, 'undo', (dir, name) => fs.promises.rmdir(dir.entry(name))))
          .catch(() => undefined);
      const why = failureWhy(error);
      // Anything else left it as it was (removals go whole or not at all): the owner may fix it and undo again.
      if (error instanceof NotEmpty) outcome.skipped.push({ path: target, why: leftWhy('this folder, not empty') });
      else if (error instanceof UndoConflict) outcome.conflicts.push({ path: target, why: why + (await leftBeside(target)) });
      else outcome.skipped.push({ path: target, why, retry: true, left: await stampNow(target, info).catch(() => undefined) });
    }
  }
  if (only) return outcome;
  for (const [repo, info] of group.repositories) {
    const left = await guards.repository(repo, info.before, info.after).catch((error: Error) => [error.message]);
    outcome.repositories.push({ path: repo, left });
  }
  return outcome;
}

/** A path found as it was before the model changed it: nothing to do (an undo that stopped part way, or someone, put it back). */
const ALREADY =
  'it was already as it was before the model changed it (an undo that stopped part way, or someone else, had put it back), so it is left as it is';

/** The paths an undo failed to put back and left as they were, for another apply to try again. */
export function toRetry(outcome: UndoOutcome): Map<string, Stamp | undefined> {
  return new Map(outcome.skipped.filter((s) => s.retry).map((s) => [s.path, s.left as Stamp | undefined]));
}

/** An undo's outcome after `again` tried its `retried` paths once more: theirs replace what it said of them. */
export function withRetry(earlier: UndoOutcome, retried: ReadonlyMap<string, unknown>, again: UndoOutcome): UndoOutcome {
  const notes = [...(earlier.notes ?? []), ...(again.notes ?? [])];
  return {
    ...earlier,
    restored: [...earlier.restored, ...again.restored],
    conflicts: [...earlier.conflicts, ...again.conflicts],
    skipped: [...earlier.skipped.filter((s) => !retried.has(s.path)), ...again.skipped],
    ...(notes.length ? { notes } : {}),
    retriedAt: again.appliedAt,
  };
}

const REFUSED: Record<string, string> = {
  EACCES: 'this user may not change the folder it is in (or, for a folder, what it holds)',
  EPERM: 'the system does not let this user change the folder it is in (or, for a folder, what it holds)',
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  EROFS: 'the filesystem is read-only',
  EBUSY: 'it is in use (a mount point?)',
};

/** Why putting a path back failed, in words (a system call's own message names /proc/self/fd paths). */
function failureWhy(error: unknown): string {
  const { code, syscall, leftAs } = (error ?? {}) as NodeJS.ErrnoException & { leftAs?: string };
  const why = code && syscall ? `${REFUSED[code] ?? 'the system refused it'} (${code} on ${syscall})` : error instanceof Error ? error.message : String(error);
  return leftAs ? `${why}; what undo had made of it is left beside it as ${leftAs}` : why;
}

/**
 * What is at a recorded path now, and why undo must leave it as it is, if it must (changed since
 * the model's last change). `left`: its stamp when an earlier undo failed on it and left it
 * (what it is compared with then, that undo's own removals inside done).
 */
async function judge(target: string, info: RecordedPath, left?: Stamp): Promise<{ now: Stamp; why?: string }> {
  const now = await stampNow(target, info);
  if (!sameStamp(now, left ?? info.post!)) return { now, why: conflictWhy(now, left ?? info.post!) };
  // Same size and times can hide an edit made in the same clock tick (coarse times: FAT, HFS+, network shares): the bytes decide.
  if (!left && info.sha !== undefined && now.type === 'file' && (await hashEntry(target).catch(() => null)) !== info.sha)
    return { now, why: 'it was changed after the model changed it' };
  // A folder undo would take away, recorded without what it held (an older journal): it may hold the owner's work since.
  if (now.type === 'directory' && replacesFolder(info.pre) && now.tree === undefined)
    return { now, why: 'a folder is there now, and what it held after the model changed it was not recorded, so it is left as it is' };
  return { now };
}

/** A recorded path's stamp now, with what it holds where the model's was recorded so. */
function stampNow(target: string, info: RecordedPath): Promise<Stamp> {
  return stamp(target, info.tree === true && info.post!.type === 'directory');
}

/** The paths among `paths` inside `folder`, relative to it. */
function inside(folder: string, paths: readonly string[]): Set<string> {
  const prefix = folder.endsWith(path.sep) ? folder : folder + path.sep;
  return new Set(paths.filter((p) => p.startsWith(prefix)).map((p) => p.slice(prefix.length).split(path.sep).join('/')));
}

/**
 * Paths the group changed (a call that failed before changing anything leaves its path as it
 * was), but those a folder taken whole later holds (put back with it).
 */
function changed(group: FoldedGroup): Array<[string, RecordedPath]> {
  return [...group.paths].filter(
    ([, info]) =>
      info.post !== null && info.within === undefined && !sameStamp(info.was, info.post) && !(info.pre.type === 'absent' && info.post.type === 'absent'),
  );
}

/** Paths whose change began (a pre-image) but was never recorded done: the server stopped in the middle. */
function cutShort(group: FoldedGroup, only?: ReadonlyMap<string, unknown>): Array<[string, RecordedPath]> {
  return [...group.paths].filter(([target, info]) => info.post === null && info.within === undefined && (!only || only.has(target)));
}

const CUT_SHORT = 'its change was never recorded as done (the server stopped in the middle of it, or the call still runs)';

/** Why a change cut short is left. */
async function cutShortWhy(target: string): Promise<string> {
  return `${CUT_SHORT}, so undo cannot tell whether what is there now is the model's; it is left as it is, its earlier state still kept in the journal${await leftBeside(target)}`;
}

/** What a removal or an undo that was stopped in the middle left beside a path (removeWhole's `.removing-…`, restore.ts's `.undo-…`), said after why it is left. */
async function leftBeside(target: string): Promise<string> {
  const beside = await fs.promises.readdir(path.dirname(target)).catch(() => []);
  const left = beside.filter((name) => /^\.(?:removing|undo|undo-old)-[0-9a-f]{16}$/.test(name)).map((name) => path.join(path.dirname(target), name));
  if (left.length === 0) return '';
  return `; what a removal or an undo stopped in the middle left may be in ${left.slice(0, 3).join(', ')}${left.length > 3 ? ` and ${left.length - 3} more` : ''}`;
}

/** Whether what is needed to put it back was kept, and its linked pre-images (its own, and those of paths it holds) are still as sealed. */
async function keptIntact(group: FoldedGroup, target: string, info: RecordedPath, blobs: string): Promise<ReturnType<typeof fullyKept>> {
  const kept = fullyKept(info.pre);
  if (!kept.kept) return kept;
  if (!(await stillSealed(info.pre, info.seal, blobs))) return { kept: false, why: CHANGED_AFTER };
  for (const [p, inner] of group.paths)
    if (inner.within === target && !(await stillSealed(inner.pre, inner.seal, blobs))) return { kept: false, why: `${p}: ${CHANGED_AFTER}` };
  return kept;
}

/**
 * Makes again the folders above a path that are gone (git_switch removes a folder it emptied),
 * outermost first, each with the mode of the folder it is made in; `made` gets each as it is made.
 */
async function remakeFolders(target: string, guards: UndoGuards, blobs: string, made: string[]): Promise<void> {
  for (const folder of missingFolders(target)) {
    // The mode and owner of the folder it is made in (given back to that owner when run as root).
    const { mode, uid, gid } = fs.statSync(path.dirname(folder));
    await restorePath(await guards.resolve(folder), { type: 'directory', mode: mode & 0o777, uid, gid }, blobs, { stamp: { type: 'absent' } });
    made.push(folder);
  }
}

function changeOf(pre: Image, post: Stamp): PathChange {
  if (pre.type === 'absent') return 'created';
  if (post.type === 'absent') return 'deleted';
  return imageKind(pre) === (post.type === 'other' ? 'nothing' : post.type) ? 'modified' : 'replaced';
}

/** The mode a file or folder had and the one the model's change left it, where they differ (not where it became another kind of thing). */
function modeChange(pre: Image, post: Stamp): Pick<ChangedPath, 'mode'> {
  if ((pre.type !== 'file' && pre.type !== 'directory') || post.type !== pre.type || pre.mode === post.mode) return {};
  const octal = (mode: number) => (mode & 0o7777).toString(8).padStart(3, '0');
  return { mode: { before: octal(pre.mode), after: octal(post.mode) } };
}

function conflictWhy(now: Stamp, post: Stamp): string {
  if (post.type === 'directory' && post.tree?.startsWith('unchecked:')) return 'it holds too much to check whether it changed since, so it is left as it is';
  if (now.type === 'absent') return 'it was removed after the model changed it';
  if (post.type === 'absent') return 'something was put there after the model removed it';
  return 'it was changed after the model changed it';
}

/** From now back to the pre-image, for text files: what undo would change. */
async function undoDiff(target: string, pre: Image, post: Stamp, blobs: string): Promise<string | undefined> {
  const before = pre.type === 'absent' ? '' : pre.type === 'file' && pre.blob ? await text(path.join(blobs, pre.blob)) : null;
  // Only the file the model left (its inode): not one a folder swapped for a link since leads to.
  const current = post.type === 'absent' ? '' : post.type === 'file' ? await text(target, post.ino) : null;
  if (before === null || current === null) return undefined;
  return diffSummary(target, current, before) || undefined;
}

/**
 * A text file's content, read through one descriptor that follows no link and never waits on a
 * FIFO (a file swapped for one hung "undo show" for good); null when it is not a regular file,
 * not the inode `ino`, too large, or holds NUL bytes.
 */
async function text(file: string, ino?: number): Promise<string | null> {
  const handle = await fs.promises.open(file, READ_FLAGS).catch(() => null);
  if (!handle) return null;
  try {
    const stat = await handle.stat();
    if (!stat.isFile() || stat.size > MAX_DIFF_FILE || (ino !== undefined && stat.ino !== ino)) return null;
    const bytes = await handle.readFile();
    return bytes.includes(0) ? null : bytes.toString('utf8');
  } finally {
    await handle.close();
  }
}
