/**
 * The probe's two git runs (`rev-parse` and `config --list`), remembered per folder while nothing
 * they depend on has changed: each call stats every config file git read, every include target
 * (read or not yet there), the files git would read if they appeared (system, global, XDG, the
 * repository's and the worktree's config), HEAD (`onbranch:` includes), and `.git` in each folder
 * from the asked one up to the top level (where discovery stops). Any change of inode, size or
 * times runs git again. Nothing is remembered while a file it depends on changed in the last
 * two seconds (git may have read it half-way through a change): only settled state is reused.
 * The hooks and borrowed object folders are read fresh on every call (probe.ts), never from here.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { GitConfigEntry, GitProgram } from '../contract/git.js';

export interface ProbeRuns {
  located: string;
  listed: Buffer;
}

/** What the runs' answer rests on, worked out from it. */
export interface ProbeBasis {
  dir: string;
  topLevel: string | null;
  gitDir: string;
  commonDir: string;
  config: readonly GitConfigEntry[];
}

/** Folders remembered; past it the oldest is forgotten. */
const MAX_ENTRIES = 64;
/** A file changed this recently is not trusted to have been read whole. */
const SETTLED_MS = 2000;

interface Entry {
  runs: ProbeRuns;
  stamps: ReadonlyArray<readonly [string, string]>;
}

export class ProbeCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly settledMs = SETTLED_MS) {}

  /** The remembered runs for this folder and program, if everything they rest on is as it was. */
  get(dir: string, program: GitProgram): ProbeRuns | null {
    const key = keyOf(dir, program);
    const entry = this.entries.get(key);
    if (!entry) return null;
    if (entry.stamps.every(([file, was]) => stampOf(file).stamp === was)) return entry.runs;
    this.entries.delete(key);
    return null;
  }

  /** Remembers runs that started at `startedMs`, unless something they rest on was changing then. */
  set(program: GitProgram, runs: ProbeRuns, basis: ProbeBasis, startedMs: number): void {
    const stamps: Array<readonly [string, string]> = [];
    for (const file of dependencies(basis, program.env)) {
      const { stamp, changedMs } = stampOf(file);
      if (changedMs !== null && changedMs > startedMs - this.settledMs) return;
      stamps.push([file, stamp]);
    }
    const key = keyOf(basis.dir, program);
    this.entries.delete(key);
    this.entries.set(key, { runs, stamps });
    if (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
  }
}

function keyOf(dir: string, program: GitProgram): string {
  return JSON.stringify([dir, program.file, program.env]);
}

/** A file's inode, size, mode and times to the nanosecond; "-" for nothing there. `changedMs`: its status change time. */
function stampOf(file: string): { stamp: string; changedMs: number | null } {
  const stat = fs.lstatSync(file, { bigint: true, throwIfNoEntry: false });
  if (!stat) return { stamp: '-', changedMs: null };
  // A folder (a `.git` folder) counts by what it is, not by the files coming and going in it.
  if (stat.isDirectory()) return { stamp: `${stat.ino}:${stat.mode}`, changedMs: null };
  return { stamp: `${stat.ino}:${stat.size}:${stat.mode}:${stat.mtimeNs}:${stat.ctimeNs}`, changedMs: Number(stat.ctimeMs) };
}

/** Every file whose change (or appearance) could change what the probe's runs print. */
function dependencies(basis: ProbeBasis, env: Readonly<Record<string, string>>): string[] {
  const files = new Set<string>();
  const home = env.HOME ?? '';
  if (home) files.add(path.join(home, '.gitconfig'));
  files.add(path.join(env.XDG_CONFIG_HOME || path.join(home, '.config'), 'git', 'config'));
  files.add('/etc/gitconfig');
  files.add(path.join(basis.commonDir, 'config'));
  files.add(path.join(basis.gitDir, 'config.worktree'));
  files.add(path.join(basis.gitDir, 'HEAD'));
  // A linked worktree's pointer to the shared git folder.
  files.add(path.join(basis.gitDir, 'commondir'));
  // git prints a repository file's origin relative to where it works: the top level (a bare repository: its folder).
  const top = basis.topLevel ?? basis.gitDir;
  for (const entry of basis.config) {
    if (!entry.origin.startsWith('file:')) continue;
    const file = path.resolve(top, entry.origin.slice('file:'.length));
    files.add(file);
    const key = entry.key.toLowerCase();
    if (entry.value && (key === 'include.path' || (key.startsWith('includeif.') && key.endsWith('.path')))) {
      const target = entry.value.startsWith('~/') ? path.join(home, entry.value.slice(2)) : entry.value;
      files.add(path.resolve(path.dirname(file), target));
    }
  }
  // Discovery: a `.git` appearing in a folder between the asked one and the top level moves it.
  for (let folder = basis.dir; ; folder = path.dirname(folder)) {
    files.add(path.join(folder, '.git'));
    if (folder === top || folder === path.dirname(folder) || !folder.startsWith(top)) break;
  }
  return [...files];
}
