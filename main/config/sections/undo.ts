/** undo.*: the change journal behind "undo what the model changed" (docs/GIT.md). */
import * as z from 'zod';
import { byteSize, MiB } from './fields.js';

export const undoSchema = z.strictObject({
  /** Record what file and git tools are about to change, so the owner can put it back. */
  enabled: z.boolean().default(true),
  /** The journal's size on disk; past it the oldest groups are dropped (and the list says so). */
  maxBytes: byteSize(64 * 1024 * MiB).default(256 * MiB),
  /** A client's changes with less than this between them form one group ("these changes"). */
  groupIdleMs: z
    .number()
    .int()
    .min(1000)
    .max(24 * 3600 * 1000)
    .default(10 * 60 * 1000),
});
