/** fs.edit and fs.patch: precise, all-or-nothing changes through the one filesystem policy. */
import * as z from 'zod';
import { adapterError } from '../../../adapter/contract/errors.js';
import type { PatchOp, PatchTarget } from '../../../adapter/contract/files.js';
import type { Policies } from '../tool.js';
import { defineTool, DESTRUCTIVE } from '../tool.js';
import { GRANT } from '../../policy/grants.js';
import { dryRunInput, exclusive, pathInput, pathTarget, recorded, sha256Input, writeOptions } from './fs-common.js';

const MAX_EDITS = 100;

export const fsEdit = defineTool({
  name: 'fs.edit',
  title: 'Edit a file by exact replacements',
  description:
    'Replace exact text in one file inside a writable root, all or nothing: each edit replaces oldText (which must occur exactly once, unless replaceAll) with newText, applied in order. NO_MATCH or AMBIGUOUS_MATCH (with line numbers) change nothing. The file is written atomically; returns its new sha256 and a short unified diff.',
  input: z.object({
    path: pathInput,
    edits: z
      .array(
        z.object({
          oldText: z.string().min(1).describe('Text to find, exactly (whitespace and line breaks included)'),
          newText: z.string(),
          replaceAll: z.boolean().default(false).describe('Replace every occurrence instead of requiring exactly one'),
        }),
      )
      .min(1)
      .max(MAX_EDITS),
    expectedSha256: sha256Input.optional().describe('Edit only if the current file has this sha256'),
    dryRun: dryRunInput,
  }),
  output: z.object({
    path: z.string(),
    sha256: z.string(),
    replacements: z.number(),
    bytesWritten: z.number(),
    diff: z.string(),
    dryRun: z.boolean().optional(),
  }),
  payload: ['diff'],
  annotations: DESTRUCTIVE,
  grant: GRANT.filesEdit,
  target: (args) => ({ ...pathTarget(args), edits: args.edits.length }),
  async run(args, { adapter, policy, config, changes }, signal) {
    const file = await policy.filesystem.resolve(args.path, 'write', 'fs.edit');
    // The undo journal takes the file's pre-image when the writer is about to replace it (by a hard link).
    const beforeChange = changes.beforeChange?.(file.path);
    const options = {
      ...writeOptions(config, policy.sizes, signal),
      ...(args.expectedSha256 === undefined ? {} : { expectedSha256: args.expectedSha256 }),
      ...(args.dryRun ? { dryRun: true } : {}),
      ...(beforeChange ? { beforeChange } : {}),
      ...recorded(changes),
    };
    const result = await policy.fsLock.run([exclusive(file.path)], () => adapter.files.editTextFile(file, args.edits, options));
    const did = args.dryRun ? `Dry run, nothing changed: would edit ${file.path} with` : `Edited ${file.path}:`;
    const text = `${did} ${result.replacements} replacement${result.replacements === 1 ? '' : 's'}\n${result.diff}`;
    return { structured: { path: file.path, ...result, ...(args.dryRun ? { dryRun: true } : {}) }, text };
  },
});

export const fsPatch = defineTool({
  name: 'fs.patch',
  title: 'Apply a patch to files',
  description:
    'Apply a patch across files inside writable roots, all or nothing: nothing changes unless every file and chunk applies. Accepts the apply_patch format ("*** Begin Patch", "*** Add File: p", "*** Update File: p" with optional "*** Move to: q", "@@" chunks of " context", "-old", "+new" lines, "*** Delete File: p", "*** End Patch") and unified diffs. Context is matched exactly, then ignoring trailing and surrounding whitespace; context lines keep the file\'s text. Missing folders of new files are created. Paths are relative to the first root, or absolute.',
  input: z.object({ patch: z.string().min(1).describe('The patch text'), dryRun: dryRunInput }),
  output: z.object({
    dryRun: z.boolean().optional(),
    files: z.array(
      z.object({
        path: z.string(),
        action: z.enum(['added', 'updated', 'moved', 'deleted']),
        destination: z.string().optional(),
        sha256: z.string().optional(),
        diff: z.string(),
      }),
    ),
  }),
  payload: ['files[].diff'],
  annotations: DESTRUCTIVE,
  grant: GRANT.filesEdit,
  target: (args) => ({ bytes: Buffer.byteLength(args.patch) }),
  async run(args, { adapter, policy, config, changes }, signal) {
    // The adapter parses the patch and asks the policy for every path before it touches one.
    const lock = (targets: readonly PatchTarget[], apply: () => Promise<void>) =>
      policy.fsLock.run(
        targets.flatMap((t) => [exclusive(t.file.path), ...(t.moveTo ? [exclusive(t.moveTo.path)] : [])]),
        apply,
      );
    const options = { ...writeOptions(config, policy.sizes, signal), ...(args.dryRun ? { dryRun: true } : {}), ...recorded(changes) };
    const files = await adapter.files.applyPatch(args.patch, { resolve: (ops) => resolvePatch(ops, policy), lock }, options);
    const text = files.map((f) => `${f.action} ${f.path}${f.destination ? ` -> ${f.destination}` : ''}${f.diff ? `\n${f.diff}` : ''}`).join('\n');
    return args.dryRun
      ? { structured: { files, dryRun: true }, text: `Dry run, nothing changed; the patch would apply:\n${text}` }
      : { structured: { files }, text };
  },
});

export const fileEditTools = [fsEdit, fsPatch];

/** Every path through the policy for writing; one file may appear once. */
async function resolvePatch(ops: PatchOp[], policy: Policies): Promise<PatchTarget[]> {
  policy.sizes.checkPatchFiles(ops.length);
  const targets: PatchTarget[] = [];
  const seen = new Set<string>();
  const once = (path: string) => {
    if (seen.has(path)) throw adapterError('INVALID_INPUT', 'fs.patch', `${path} appears twice in the patch; combine its changes into one section`);
    seen.add(path);
  };
  for (const op of ops) {
    const file =
      op.kind === 'delete' ? await policy.filesystem.resolveEntry(op.path, 'write', 'fs.patch') : await policy.filesystem.resolve(op.path, 'write', 'fs.patch');
    once(file.path);
    if (op.kind === 'update' && op.moveTo !== undefined) {
      const moveTo = await policy.filesystem.resolve(op.moveTo, 'write', 'fs.patch');
      once(moveTo.path);
      targets.push({ op, file, moveTo });
    } else {
      targets.push({ op, file });
    }
  }
  return targets;
}
