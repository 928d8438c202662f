/**
 * Applies a parsed patch across files, all or nothing: every file is read and every chunk
 * applied in memory first; only when all of them apply are files written (each atomically, and
 * only if it still has the content the patch was applied to). A new file's missing folders are
 * created. If a write fails midway, the files already changed are put back as they were and
 * the folders made are removed.
 */
import nodePath from 'node:path';
import { adapterError } from '../../contract/errors.js';
import type { GuardedPath, PatchFileResult, PatchGuards, PatchOp, PatchTarget, WriteOptions } from '../../contract/files.js';
import { readWhole, refuseTooLarge } from '../edit-text.js';
import { makeDirectories } from '../make-directory.js';
import { removeEntry } from '../remove-entry.js';
import { writeTextFile } from '../write-text.js';
import { sha256Of } from '../edit-text.js';
import { applyChunks } from './apply-chunks.js';
import { diffSummary } from './diff-summary.js';
import { isApplyPatchFormat, parseApplyPatch } from './parse-apply-patch.js';
import { isUnifiedDiff, parseUnifiedDiff } from './parse-unified.js';
import { PatchSyntaxError } from './patch-syntax.js';

interface Prepared {
  target: PatchTarget;
  /** Content before, when the file existed (what an undo restores). */
  before: { content: string; sha256: string } | null;
  /** For a move: what was at the destination before. */
  destinationBefore: { content: string; sha256: string } | null;
  after: string | null;
}

type Undo = () => Promise<unknown>;

/** Parses `text` (apply_patch format or a unified diff), resolves every path, then applies it all or nothing. */
export async function applyPatchText(text: string, guards: PatchGuards, options: WriteOptions & { maxBytes: number }): Promise<PatchFileResult[]> {
  const targets = await guards.resolve(parsePatch(text));
  let results: PatchFileResult[] = [];
  await guards.lock(targets, async () => {
    results = await commitPatch(targets, options);
  });
  return results;
}

function parsePatch(text: string): PatchOp[] {
  try {
    if (isApplyPatchFormat(text)) return parseApplyPatch(text);
    if (isUnifiedDiff(text)) return parseUnifiedDiff(text);
  } catch (error) {
    if (error instanceof PatchSyntaxError) throw adapterError('INVALID_INPUT', 'fs.patch', `the patch is malformed at ${error.message}`);
    throw error;
  }
  throw adapterError(
    'INVALID_INPUT',
    'fs.patch',
    'not a patch: expected the apply_patch format ("*** Begin Patch" ... "*** End Patch") or a unified diff ("--- a/x", "+++ b/x", "@@")',
  );
}

export async function commitPatch(targets: readonly PatchTarget[], options: WriteOptions & { maxBytes: number }): Promise<PatchFileResult[]> {
  const op = 'fs.patch';
  const prepared: Prepared[] = [];
  for (const target of targets) {
    const existing = await readIfExists(target.file, options);
    if (target.op.kind !== 'add' && !existing) throw adapterError('NOT_FOUND', op, `${target.op.path} does not exist (patch line: ${target.op.kind} of it)`);
    const after =
      target.op.kind === 'add'
        ? target.op.content
        : target.op.kind === 'update'
          ? applyChunks(target.op.path, existing!.content, target.op.chunks, target.op.finalNewline)
          : null;
    if (after !== null) refuseTooLarge((target.moveTo ?? target.file).path, after, options.maxBytes, op);
    const destinationBefore = target.moveTo ? await readIfExists(target.moveTo, options) : null;
    prepared.push({ target, before: existing, destinationBefore, after });
  }

  // A dry run stops here: every path resolved, every chunk applied in memory, nothing written.
  if (options.dryRun) return prepared.map((item) => outcome(item, item.after === null ? undefined : sha256Of(item.after)));
  const undo: Undo[] = [];
  const results: PatchFileResult[] = [];
  try {
    for (const item of prepared) results.push(await commitOne(item, options, undo));
  } catch (error) {
    for (const step of undo.reverse()) await step().catch(() => {});
    throw error;
  }
  return results;
}

async function commitOne({ target, before, destinationBefore, after }: Prepared, options: WriteOptions, undo: Undo[]): Promise<PatchFileResult> {
  const { op, file, moveTo } = target;
  const guarded = (expected: { sha256: string } | null): WriteOptions => ({ ...options, ...(expected ? { expectedSha256: expected.sha256 } : {}) });
  const restore = (path: GuardedPath, previous: { content: string } | null): Undo =>
    previous ? () => writeTextFile(path, previous.content, 'overwrite', options) : () => removeEntry(path, false);

  if (op.kind === 'delete') {
    await removeEntry(file, false);
    undo.push(restore(file, before));
    return outcome({ target, before, destinationBefore, after }, undefined);
  }
  const destination = moveTo ?? file;
  const previous = moveTo ? destinationBefore : before;
  if (!previous) await makeParents(destination, undo);
  const written = await writeTextFile(destination, after!, previous ? 'overwrite' : 'create', guarded(previous));
  undo.push(restore(destination, previous));
  if (moveTo) {
    await removeEntry(file, false);
    undo.push(restore(file, before));
  }
  return outcome({ target, before, destinationBefore, after }, written.sha256);
}

/** What a committed (or, in a dry run, a planned) file change is reported as. */
function outcome({ target, before, after }: Prepared, sha256: string | undefined): PatchFileResult {
  const { op, file, moveTo } = target;
  if (op.kind === 'delete') return { path: file.path, action: 'deleted', diff: '' };
  const diff = diffSummary((moveTo ?? file).path, before?.content ?? '', after!);
  if (op.kind === 'add') return { path: file.path, action: 'added', sha256, diff };
  return moveTo ? { path: file.path, action: 'moved', destination: moveTo.path, sha256, diff } : { path: file.path, action: 'updated', sha256, diff };
}

/**
 * A new file's missing folders are created, as apply_patch does; each is confirmed with the
 * policy like the file itself, and an undo removes the ones made here.
 */
async function makeParents(file: GuardedPath, undo: Undo[]): Promise<void> {
  const confirm = (real: string) => file.confirm(real);
  const made = await makeDirectories({ path: nodePath.dirname(file.path), confirm }, true);
  for (const dir of made) undo.push(() => removeEntry({ path: dir, confirm }, false));
}

async function readIfExists(file: GuardedPath, options: WriteOptions & { maxBytes: number }): Promise<{ content: string; sha256: string } | null> {
  try {
    return await readWhole(file, options.maxBytes, 'fs.patch', options.signal);
  } catch (error) {
    if ((error as { code?: string }).code === 'NOT_FOUND') return null;
    throw error;
  }
}
