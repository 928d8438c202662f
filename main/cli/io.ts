/** How CLI commands talk to the person: results on stdout, everything else on stderr, exit codes. */
import { cliName } from '../command-name.js';
import { ConfigError, loadConfig, type CliOverrides, type LoadedConfig } from '../config/load.js';
import { escaped, HIDING, readableJson } from '../readable-json.js';

export const EXIT = { ok: 0, listen: 1, config: 2, usage: 64 } as const;

export function print(text: string): number {
  process.stdout.write(text + '\n');
  return EXIT.ok;
}

/** C0 control characters (with `lines`, newline and tab stay), and what hides or reorders text (readable-json.ts). */
const UNSAFE = new RegExp(`[\\u0000-\\u001f${HIDING}]`, 'gu');
const UNSAFE_BUT_LINES = new RegExp(`[\\u0000-\\u0008\\u000b-\\u001f${HIDING}]`, 'gu');

/**
 * Text from files or clients (names, contents) made safe for a terminal. C0 and C1 control
 * characters and DEL, which could move the cursor, recolour or retitle it, are shown as \xNN.
 * Bidirectional formatting characters, which make a terminal show text in another order than it
 * holds ("Trojan Source": `invoice\u202egpj.exe` shows as `invoiceexe.jpg`), are shown as
 * \uNNNN, so a name reads as what it is; so are characters shown as nothing (zero-width, tags),
 * which could carry words nobody sees. `lines`: text of several lines, whose newlines (and tabs)
 * stay.
 */
export function visible(text: string, lines = false): string {
  return text.replace(lines ? UNSAFE_BUT_LINES : UNSAFE, (c) => {
    const code = c.charCodeAt(0);
    return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : escaped(c);
  });
}

/** JSON on stdout, with what could reorder or hide text on a terminal escaped (readable-json.ts). */
export function printJson(value: unknown): number {
  return print(readableJson(value));
}

export function say(text: string): void {
  process.stderr.write(`chatgpt-mcp: ${text}\n`);
}

export function usageError(message: string): number {
  process.stderr.write(`chatgpt-mcp: ${message}\nRun "${cliName()} --help" for usage.\n`);
  return EXIT.usage;
}

/** Loads the config once, or explains why it cannot be used and exits 2. */
export function withConfig(
  cli: CliOverrides,
  run: (loaded: LoadedConfig) => number | Promise<number>,
  settings?: Record<string, unknown>,
): number | Promise<number> {
  let loaded;
  try {
    loaded = loadConfig({ cli, ...(settings ? { settings } : {}) });
  } catch (error) {
    if (error instanceof ConfigError) {
      say(error.message);
      return EXIT.config;
    }
    throw error;
  }
  return run(loaded);
}

/** A secret or key read from stdin is far shorter than this. */
export const MAX_SECRET_BYTES = 64 * 1024;

/** Everything piped into stdin, as text; StdinTooLong, without reading the rest, once it is over `maxBytes`. */
export async function readStdin(maxBytes = Infinity): Promise<string> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of process.stdin) {
    bytes += (chunk as Buffer).length;
    // Stopped as soon as it is too long: a file piped by mistake, or a stream that never ends, is not read whole into memory.
    if (bytes > maxBytes) throw new StdinTooLong(maxBytes);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export class StdinTooLong extends Error {
  constructor(readonly maxBytes: number) {
    super(`what came on stdin is over ${maxBytes} bytes, far more than it should hold; nothing was read past that`);
  }
}

/** Resolves on the first SIGINT or SIGTERM. */
export function untilSignal(): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      process.off('SIGINT', done);
      process.off('SIGTERM', done);
      resolve();
    };
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
  });
}
