/** checks.*: the project checks verify_changes runs (tests, lint, typecheck), named per project by the owner. */
import * as z from 'zod';
import { absolutePath, text } from './fields.js';

/** fast: quick gates (lint, typecheck); normal: adds the tests; strict: everything. */
export const CHECK_LEVELS = ['fast', 'normal', 'strict'] as const;
export type CheckLevel = (typeof CHECK_LEVELS)[number];

export const CHECK_NAME = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,39}$/;

/** A program and its arguments, run without a shell. */
const argv = z.array(text).min(1, 'give the program and its arguments, like ["npm", "test"]').max(64);

export const checkSchema = z.union([argv, z.strictObject({ command: argv, level: z.enum(CHECK_LEVELS) })]);

export const projectChecksSchema = z.strictObject({
  /** The project's folder, inside a root; checks run there. */
  path: absolutePath,
  checks: z.record(z.string().regex(CHECK_NAME, 'check names use letters, digits, _ . : - (up to 40)'), checkSchema),
});

export const checksSchema = z.strictObject({
  projects: z.array(projectChecksSchema).default([]),
  /** The longest one check may run before it is stopped and reported as failed. */
  maxRuntimeMs: z
    .number()
    .int()
    .min(1000)
    .max(3600 * 1000)
    .default(600_000),
});

export type ProjectChecks = z.output<typeof projectChecksSchema>;
export type CheckEntry = z.output<typeof checkSchema>;
