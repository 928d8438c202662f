/**
 * The questions `config init` asks on a terminal. Each answer is checked as it is given: a
 * wrong one is explained and asked again, the answers before it kept. `~` means the home
 * folder. Programs that run any code they are given are named with the same warning `config
 * check` prints, and kept only when the owner says so.
 */
import os from 'node:os';
import path from 'node:path';
import { createInterface, type Interface } from 'node:readline/promises';
import { configSchema } from '../config/schema.js';
import { configWarnings } from '../config/warnings.js';

export interface InitAnswers {
  roots: string[];
  readOnlyRoots: string[];
  commands: string[];
}

export interface QuestionIo {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  /** What is at a path (the CLI asks the disk). */
  kind(target: string): 'directory' | 'other' | 'missing';
  home?: string;
  platform?: string;
}

type Checked<T> = { ok: T } | { error: string };

export async function askInitAnswers(io: QuestionIo): Promise<InitAnswers> {
  const rl = createInterface({ input: io.input, output: io.output, terminal: false });
  const home = io.home ?? os.homedir();
  const folders = (answer: string) => checkFolders(split(answer), home, io.kind);
  try {
    const roots = await askUntil(rl, io, 'Folders to share, read and write (absolute or ~/..., comma-separated, empty for none): ', folders);
    const readOnlyRoots = await askUntil(rl, io, 'Folders to share read-only: ', folders);
    let commands: string[];
    for (;;) {
      commands = await askUntil(rl, io, 'Programs the model may run (names, comma-separated, empty for none): ', (answer) => checkPrograms(split(answer)));
      const warning = programsWarning(commands, io.platform ?? process.platform);
      if (!warning) break;
      io.output.write(`warning: ${warning}\n`);
      if (/^y(es)?$/i.test((await rl.question('Allow them anyway? [y/N] ')).trim())) break;
    }
    return { roots, readOnlyRoots, commands };
  } finally {
    rl.close();
  }
}

/** The warning `config check` prints for these programs (its own words, from the same list), or null. */
export function programsWarning(commands: readonly string[], platform: string): string | null {
  const parsed = configSchema.safeParse({ shell: { enabled: true, allowedCommands: commands } });
  if (!parsed.success) return null;
  const warnings = configWarnings(parsed.data, { kind: () => 'directory', platform }).filter((w) => w.startsWith('shell.allowedCommands'));
  return warnings.length ? warnings.join('; ') : null;
}

/** `~` and `~/x` as the home folder; then an absolute path, or why not. */
export function checkFolders(entries: string[], home: string, kind: QuestionIo['kind']): Checked<string[]> {
  const out: string[] = [];
  for (const entry of entries) {
    const expanded = entry === '~' ? home : /^~[\\/]/.test(entry) ? path.join(home, entry.slice(2)) : entry;
    if (!path.isAbsolute(expanded)) return { error: `${entry}: give the whole path, like ${path.join(home, 'projects')} (or ~/projects)` };
    const what = kind(expanded);
    if (what === 'missing') return { error: `${expanded} does not exist: create it first, or name another folder` };
    if (what === 'other') return { error: `${expanded} is a file, not a folder` };
    out.push(path.normalize(expanded));
  }
  return { ok: out };
}

export function checkPrograms(entries: string[]): Checked<string[]> {
  for (const entry of entries) {
    if (/\s/.test(entry)) return { error: `"${entry}": one program name per entry, without arguments (the model passes arguments itself)` };
  }
  return { ok: entries };
}

function split(answer: string): string[] {
  return answer
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

async function askUntil<T>(rl: Interface, io: QuestionIo, question: string, check: (answer: string) => Checked<T>): Promise<T> {
  for (;;) {
    const result = check(await rl.question(question));
    if ('ok' in result) return result.ok;
    io.output.write(`${result.error}\n`);
  }
}
