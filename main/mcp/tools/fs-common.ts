/** Schema pieces shared by the fs.* tools. */
import type { ChangeRecorder } from '../change-recorder.js';
import * as z from 'zod';
import type { Config } from '../../config/schema.js';
import type { SizeLimits } from '../../policy/size-limits.js';

export const pathInput = z.string().min(1).describe('Absolute path, or a path relative to the first allowed root');
export const sha256Input = z.string().regex(/^[0-9a-fA-F]{64}$/, 'a sha256 hex digest');
export const entryTypeOutput = z.enum(['file', 'directory', 'symlink', 'other']);
export const dryRunInput = z.boolean().default(false).describe('Check everything and answer what would change, but change nothing');

export const pathTarget = (args: { path: string }) => ({ path: args.path });

/** Path lock claims (main/policy/path-lock.ts), held from after the check to the end of the operation. */
export const shared = (path: string) => ({ path, exclusive: false });
export const exclusive = (path: string) => ({ path, exclusive: true });

/** Write options every writing tool passes the same way; the size cap is the policy's. */
export function writeOptions(config: Readonly<Config>, sizes: SizeLimits, signal: AbortSignal) {
  return { revealHash: config.filesystem.read, allowHardLinks: config.filesystem.allowHardLinkWrites, signal, maxBytes: sizes.writeBytes };
}

/** The writer tells the undo journal the sha256 of each file it writes (undo compares bytes where times could hide an edit). */
export function recorded(changes: ChangeRecorder): { wrote?: ChangeRecorder['wrote'] } {
  return changes.wrote ? { wrote: changes.wrote } : {};
}
