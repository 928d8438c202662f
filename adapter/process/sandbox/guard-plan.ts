/**
 * What the sandbox guard (native/sandbox-guard.c) checks inside a bubblewrap sandbox before the
 * command runs: that every place the plan mounted is a mount point in the very folder the server
 * opened (bind-sources.ts) right before the start, that folder still where the plan saw it, and
 * a place mounted from somewhere (read or write) still holding, and showing, what the server
 * opened there. bwrap finds where to mount by path; a folder moved in between (by fs_move, or by
 * a program the model started earlier) would have it make the old place anew and mount there,
 * leaving a repository's hooks uncovered where the folder went.
 *
 * Descriptors, after stdin, stdout and stderr: the sources bwrap mounts from (it closes them),
 * the folders, the sources again (for the guard), then the guard program.
 *
 * Checked: every place in a folder the command may write (inside a `write` entry): nothing
 * elsewhere can be moved by the model, through fs_move or a command. Not checked: a place inside a
 * folder bwrap itself made (a `temp` or hidden folder is a fresh tmpfs, with nothing of the
 * owner's in it), and a place a later entry mounts over (a later folder hides it whole).
 */
import path from 'node:path';
import type { SandboxEntry, SandboxPlan } from '../../contract/sandbox.js';

export interface GuardPlan {
  /** The folders to open and hand on, once each. */
  folders: string[];
  /** Each checked place with the index (in `folders`) of the folder it is in, and of what it mounts from (in mountSources(plan)). */
  checks: { folder: number; source?: number; place: string }[];
}

/** The first descriptor handed on (after stdin, stdout and stderr). */
const FIRST_FD = 3;

export function guardPlan(plan: SandboxPlan): GuardPlan {
  const at = new Map<string, number[]>();
  plan.entries.forEach((entry, i) => at.set(entry.path, [...(at.get(entry.path) ?? []), i]));
  const folders: string[] = [];
  const index = new Map<string, number>();
  const checks: GuardPlan['checks'] = [];
  let sources = 0;
  plan.entries.forEach((entry, i) => {
    const source = entry.access === 'read' || entry.access === 'write' ? sources++ : undefined;
    let nearest: SandboxEntry | undefined;
    let writable = false;
    for (const above of ancestors(entry.path)) {
      const mounts = at.get(above) ?? [];
      if (mounts.some((j) => j > i)) return;
      const earlier = plan.entries[mounts.filter((j) => j < i).at(-1) ?? -1];
      nearest ??= earlier;
      writable ||= earlier?.access === 'write';
    }
    if (!writable || !nearest || madeByBwrap(nearest)) return;
    const folder = path.posix.dirname(entry.path);
    if (!index.has(folder)) index.set(folder, folders.push(folder) - 1);
    checks.push({ folder: index.get(folder)!, ...(source === undefined ? {} : { source }), place: entry.path });
  });
  return { folders, checks };
}

/**
 * The guard's command line, with `sources` places mounted from: the guard (through its
 * descriptor), the start mark after it (start-mark.ts), its checks with their descriptors, then
 * the command.
 */
export function guardArgs(guard: GuardPlan, sources: number, command: string, args: readonly string[]): string[] {
  const folders = FIRST_FD + sources;
  const again = folders + guard.folders.length;
  const checks = guard.checks.flatMap((check) => [
    String(folders + check.folder),
    check.source === undefined ? '-' : String(again + check.source),
    check.place,
  ]);
  const program = again + sources;
  return [`/proc/self/fd/${program}`, '--started', String(program + 1), String(guard.checks.length), ...checks, command, ...args];
}

/** A tmpfs: a `temp` folder, or a hidden folder. */
function madeByBwrap(entry: SandboxEntry): boolean {
  return entry.access === 'temp' || (entry.access === 'hidden' && entry.kind === 'directory');
}

/** The folders above `place`, nearest first, `/` excluded (nothing mounts there but the read-only root). */
function ancestors(place: string): string[] {
  const out: string[] = [];
  for (let above = path.posix.dirname(place); above !== '/'; above = path.posix.dirname(above)) out.push(above);
  return out;
}

/** How the guard refuses: this exit status, and one line on stderr that starts with this. */
const REFUSED = 125;
const PREFIX = 'chatgpt-mcp sandbox: ';

/** What the guard said when it refused to start the command, or undefined when the command ran. */
export function guardRefusal(exitCode: number | null, stderr: string): string | undefined {
  if (exitCode !== REFUSED || !stderr.startsWith(PREFIX)) return undefined;
  return stderr.slice(PREFIX.length).split('\n', 1)[0];
}
