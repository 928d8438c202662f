/** filesystem.*: the roots tools may use, and the rules inside them. */
import * as z from 'zod';
import { absolutePath, byteSize, MiB, text } from './fields.js';

export const rootSchema = z.union([absolutePath, z.strictObject({ path: absolutePath, readOnly: z.boolean().default(false) })]);

export const filesystemSchema = z.strictObject({
  read: z.boolean().default(true),
  write: z.boolean().default(false),
  roots: z.array(rootSchema).default([]),
  maxReadBytes: byteSize(256 * MiB).default(1 * MiB),
  maxWriteBytes: byteSize(256 * MiB).default(4 * MiB),
  /** The built-in denylist of secret locations (.ssh, .env, keys...) inside roots. */
  protectSecrets: z.boolean().default(true),
  /** Extra deny patterns (globs matched against path segments). */
  deny: z.array(text).default([]),
  /** Let tools write .git/hooks/ and .git/config, which run code on the owner's next git command. */
  allowGitHookWrites: z.boolean().default(false),
  /** Let tools write files that have other hard links (the change shows under every name, possibly outside the roots). */
  allowHardLinkWrites: z.boolean().default(false),
});
