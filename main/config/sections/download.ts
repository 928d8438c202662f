/** download.*: fs.download, one URL fetched into a writable root (docs/TOOLS.md says what it refuses). */
import * as z from 'zod';
import { loopbackOriginProblem } from '../../policy/download.js';
import { text } from './fields.js';

const MIB = 1024 * 1024;

export const downloadSchema = z.strictObject({
  /** fs.download itself; also needs filesystem.write and a writable root. */
  enabled: z.boolean().default(false),
  /** Plain http:// URLs (and redirects from https to http); off: https only. */
  allowHttp: z.boolean().default(false),
  /** The largest body saved; a larger one is stopped and nothing is left behind. The body is held in memory until written. */
  maxBytes: z
    .number()
    .int()
    .min(1)
    .max(512 * MIB)
    .default(50 * MIB),
  /** The longest one download may take, redirects included. */
  timeoutMs: z
    .number()
    .int()
    .min(1000)
    .max(3600 * 1000)
    .default(120_000),
  /** The longest the server may send nothing (connecting, headers, body). */
  stallMs: z.number().int().min(500).max(600_000).default(30_000),
  /**
   * For tests only: one loopback origin ("https://127.0.0.1:8443") that downloads may reach
   * despite the address rules. `config check` warns while it is set.
   */
  testLoopbackOrigin: text
    .max(100)
    .superRefine((value, ctx) => {
      const problem = loopbackOriginProblem(value);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .optional(),
});
export type DownloadSettings = z.output<typeof downloadSchema>;
