/** Field types shared by the config sections (this folder stays free of Node imports: the settings window uses it). */
import * as z from 'zod';

export const KiB = 1024;
export const MiB = 1024 * KiB;

/** POSIX absolute (`/x`), Windows drive (`C:\x`, `C:/x`) or UNC (`\\server\share`). */
export const ABSOLUTE_PATH = /^(\/|[A-Za-z]:[\\/]|\\\\)/;

export const text = z
  .string()
  .min(1, 'must not be empty')
  .refine((s) => !s.includes('\0'), 'must not contain NUL');

export const absolutePath = text.refine((s) => ABSOLUTE_PATH.test(s), {
  message: 'expected an absolute path (like /home/me/projects or C:\\Users\\me\\projects)',
});

export const byteSize = (max: number) => z.number().int().positive().max(max);
