/** Schema pieces and text for process output shared by shell.exec and the process.* handle tools. */
import * as z from 'zod';

export const processHandle = z
  .string()
  .regex(/^proc_[A-Za-z0-9_-]{24}$/, 'a processHandle from shell.exec or process.start')
  .describe('The processHandle returned by shell.exec or process.start');

/** Why the sandbox stopped a command or a handle (cover-watch.ts), shared by shell.exec and the process.* answers. */
export const sandboxStopped = z
  .string()
  .optional()
  .describe(
    'Set when the sandbox stopped it (signal SIGKILL): something outside replaced a read-only file it covers, such as .git/config; says which and what to check',
  );

export const binaryOutput = z
  .object({ bytes: z.number(), previewBase64: z.string() })
  .describe('Output that is not text: its size and the first bytes (base64)');

/** "stdout:\n..." for text, a line for binary output, nothing for none. */
export function describeStream(name: string, text: string, binary: { bytes: number } | undefined, truncated: boolean): string | null {
  if (binary) return `${name}: ${binary.bytes} bytes of binary output${truncated ? ' (truncated)' : ''} (not shown as text)`;
  if (!text) return null;
  return `${name}${truncated ? ' (truncated)' : ''}:\n${text}`;
}
