/** audit.*: the lasting record of every tool call (main/audit/). */
import * as z from 'zod';

const MIB = 1024 * 1024;

export const AUDIT_DEFAULT_FILE_BYTES = 8 * MIB;
export const AUDIT_DEFAULT_KEEP_FILES = 4;

export const auditSchema = z.strictObject({
  /** Append one line per tool call to the audit log in the app folder. */
  enabled: z.boolean().default(true),
  /** The current file is rotated once it passes this size. */
  maxFileBytes: z
    .number()
    .int()
    .min(64 * 1024)
    .max(1024 * MIB)
    .default(AUDIT_DEFAULT_FILE_BYTES),
  /** Rotated files kept besides the current one: the log never takes more than (keepFiles + 1) × maxFileBytes. */
  keepFiles: z.number().int().min(1).max(100).default(AUDIT_DEFAULT_KEEP_FILES),
  /** audit_recent and audit_search: a model may read the audit log (its redacted lines). */
  tools: z.boolean().default(false),
});
