/** shell.*: the commands a model may run, their bounds and their sandbox. */
import * as z from 'zod';
import { ABSOLUTE_PATH, byteSize, MiB, text } from './fields.js';

/** How commands are isolated (main/policy/sandbox-mode.ts says what "auto" means on each OS). */
export const SANDBOX_MODES = ['auto', 'private-home', 'workspace', 'read-only', 'off'] as const;
export type SandboxSetting = (typeof SANDBOX_MODES)[number];
/** The network commands get inside the sandbox; "auto" is "off" when sandboxed. */
export const NETWORK_MODES = ['auto', 'on', 'off', 'loopback'] as const;
export type NetworkSetting = (typeof NETWORK_MODES)[number];
export const shellSchema = z.strictObject({
  enabled: z.boolean().default(false),
  allowedCommands: z.array(text).default([]),
  /** The longest one call waits for a command (then it is killed, or moved to a handle); not a bound on handles. */
  maxRuntimeMs: z
    .number()
    .int()
    .positive()
    .max(24 * 3600 * 1000)
    .default(120_000),
  maxOutputBytes: byteSize(256 * MiB).default(1 * MiB),
  allowEnv: z.boolean().default(false),
  /** Processes kept under handles at once (process.start, and shell.exec commands moved to a handle); they hold no maxConcurrent slot. */
  maxProcesses: z.number().int().min(1).max(64).default(8),
  /** A process handle nobody asked about for this long is stopped and forgotten. */
  processIdleMs: z
    .number()
    .int()
    .min(1000)
    .max(7 * 24 * 3600 * 1000)
    .default(15 * 60 * 1000),
  allowPathEnv: z.boolean().default(false),
  /** With allowEnv: names callers may set besides the built-in harmless ones (LANG, TZ, TERM...). */
  allowedEnv: z.array(text).default([]),
  /** Commands running inside calls at once (not handles); more calls wait in a queue of 4x this many, then fail with TIMEOUT. */
  maxConcurrent: z.number().int().positive().max(256).default(8),
  /**
   * OS isolation of every command: "private-home" (as "workspace", and the owner's home folder
   * hidden too, except the roots, the toolchain folders and shell.homeVisible), "workspace" (writes
   * only in writable roots and a private temp folder; secrets, this app's folders and other users'
   * homes hidden), "read-only" (no writes but
   * the private temp folder), "off" (the owner's full rights), "auto" (workspace on Linux, off on
   * macOS and Windows). A sandbox that cannot be set up stops the server at start.
   */
  sandbox: z.enum(SANDBOX_MODES).default('auto'),
  /** Inside the sandbox: "on" (this computer's network), "off" (none), "loopback" (macOS only), "auto" (off when sandboxed). */
  network: z.enum(NETWORK_MODES).default('auto'),
  /** With shell.sandbox "private-home": more folders of the home that commands may read (~/.gradle, or an absolute path). */
  homeVisible: z.array(text.refine((s) => s.startsWith('~/') || ABSOLUTE_PATH.test(s), { message: 'expected ~/folder or an absolute path' })).default([]),
});
