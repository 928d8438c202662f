/**
 * How the sandbox plan's entries are ordered and trimmed: each entry decides for its path and
 * everything below it over the entries before it, so the order is the plan (see sandbox.ts for
 * the steps). Pure functions over paths; nothing here looks at the computer.
 */
import nodePath from 'node:path';
import type { SandboxAccess, SandboxEntry } from '../../adapter/contract/sandbox.js';

const posix = nodePath.posix;

/**
 * Where a candidate stands in the plan: steps 1 and 2 ('system'), 3 ('exposed'), 4 ('root' and
 * the roots' 'git' code), 5 ('after'); the last two in the order made.
 */
export type Layer = 'system' | 'exposed' | 'root' | 'git' | 'after';

export interface Candidate {
  path: string;
  access: SandboxAccess;
  layer: Layer;
  pinned?: boolean;
  /** Kept even when nothing is there yet, as this kind (its mount point is created). */
  absent?: 'directory' | 'file';
  /** A home of another user: dropped when it holds the owner's own home. */
  otherHome?: boolean;
  /** Hidden for what it holds (this app's files, secrets, deny paths): its real path stays hidden in later plans. */
  remember?: boolean;
}

export interface Placed {
  entry: SandboxEntry;
  layer: Layer;
}

/**
 * Steps 1 to 4 in the order they are mounted: shallow first, so the deeper of a system folder
 * and a root decides what lies below it. A root inside /tmp, /run/media or another user's home
 * shows through; a root at /, /home or /var does not uncover the private temp folder, /run or
 * the other homes; at the same path the root wins. A re-exposure is kept only strictly inside
 * the hidden or (private) temp folder that decides its path: anywhere else (HOME=/, a working folder in
 * a root) it would cover what it lies over. A repository's pinned .git goes the same way, so a
 * root inside it keeps its own access. What comes after keeps its order.
 */
export function layered(placed: readonly Placed[], privateTemp: boolean): SandboxEntry[] {
  const base = placed.filter(isBase);
  const needed = (p: Placed) => {
    if (p.layer !== 'exposed') return isBase(p);
    const holder = decider(base, p.entry.path);
    return holder?.layer === 'system' && holder.entry.path !== p.entry.path && (holder.entry.access === 'hidden' || privateTemp);
  };
  // Each goes before the first one already placed inside it; otherwise the order stays. At the
  // same path they come in the order of the steps, so the root is last.
  const pinnedGit = (p: Placed) => p.layer === 'git' && p.entry.pinned === true;
  const ordered: Placed[] = [];
  for (const p of placed.filter((p) => needed(p) || pinnedGit(p))) {
    const below = ordered.findIndex((q) => q.entry.path !== p.entry.path && inside(q.entry.path, p.entry.path));
    ordered.splice(below < 0 ? ordered.length : below, 0, p);
  }
  const rest = (layer: Layer) => placed.filter((p) => p.layer === layer && !pinnedGit(p));
  return [...ordered, ...rest('git'), ...rest('after')].map((p) => p.entry);
}

export function isBase(p: Placed): boolean {
  return p.layer === 'system' || p.layer === 'root';
}

/** Of the system folders and roots holding a path, the deepest; at the same path, the root. */
export function decider(base: readonly Placed[], path: string): Placed | undefined {
  return base.reduce<Placed | undefined>((best, p) => {
    if (!inside(path, p.entry.path)) return best;
    const deeper = best ? depth(p.entry.path) - depth(best.entry.path) : 1;
    return deeper > 0 || (deeper === 0 && p.layer === 'root') ? p : best;
  }, undefined);
}

/**
 * The sandbox's own /dev and /proc stay: a root or a re-exposure at or inside them would bring
 * back the host's devices and every process (their environment, their open files).
 */
export function ownDevicesAndProcesses(entries: readonly SandboxEntry[]): SandboxEntry[] {
  return entries.filter((entry) => entry.access === 'hidden' || !['/dev', '/proc'].some((system) => inside(entry.path, system)));
}

/** What the path shows at this point of the list: the last entry holding it decides. */
function effective(path: string, entries: readonly SandboxEntry[]): SandboxAccess {
  for (let i = entries.length - 1; i >= 0; i--) if (inside(path, entries[i]!.path)) return entries[i]!.access;
  return 'read';
}

/**
 * Drops entries that change nothing: a read entry where everything is readable anyway, a hidden
 * one where the real content is already out of sight (hidden, or in a private temp folder: not
 * macOS's, which is the shared one), a root nested in another of the same
 * access, and whatever a kept hidden entry lies over. An entry with earlier ones below it is kept
 * (mounting it again would cover them).
 */
export function prune(entries: readonly SandboxEntry[], privateTemp = true): SandboxEntry[] {
  let kept: SandboxEntry[] = [];
  for (const entry of entries) {
    const now = effective(entry.path, kept);
    const same = entry.access === 'temp' ? false : entry.access === 'hidden' ? now === 'hidden' || (now === 'temp' && privateTemp) : now === entry.access;
    const covers = kept.some((earlier) => earlier.path !== entry.path && inside(earlier.path, entry.path));
    if (same && !covers && !entry.pinned) continue;
    // Hidden, it hides whatever earlier entries put at or below its path, so they go: bwrap would
    // otherwise seal a hidden folder that is no longer there (deny ~/.config/** with a browser
    // profile in it) and refuse to start. Only a hidden entry does this: a read or write one over
    // earlier hidden ones would uncover them.
    if (entry.access === 'hidden') kept = kept.filter((earlier) => !inside(earlier.path, entry.path));
    kept.push(entry);
  }
  return kept;
}

/**
 * Write entries other than the writable roots (a repository's pinned .git, submodules' folders)
 * are kept only where their real path lies in a writable root: a `.git` or a module folder that a
 * command made a link to /etc must not make /etc writable.
 */
export function withinWritableRoots(entries: readonly SandboxEntry[], writableRoots: readonly string[]): SandboxEntry[] {
  return entries.filter((entry) => entry.access !== 'write' || writableRoots.some((root) => inside(entry.path, root)));
}

/**
 * A hidden or read-only entry inside a writable one is a mount point, which a command can neither
 * rename nor remove; the folders between it and the writable entry are not. Renaming one (mv
 * root/conf root/conf2) would carry the cover along to a path the next command's plan, made by
 * path, no longer finds, and uncover what it held. So each of those folders is pinned too, right
 * after the writable entry, before anything mounted below it. The same holds for a pinned
 * writable entry (a repository's .git, whose hooks are covered): moving its repository deeper than
 * the next plan looks (sandbox-repos.ts) would leave them open to that command.
 */
export function pinAncestors(entries: readonly SandboxEntry[]): SandboxEntry[] {
  const pins = new Map<number, Set<string>>();
  const pinned = new Set(entries.filter((entry) => entry.pinned).map((entry) => entry.path));
  entries.forEach((entry, i) => {
    if (entry.access !== 'hidden' && entry.access !== 'read' && !(entry.access === 'write' && entry.pinned)) return;
    let holder = i - 1;
    while (holder >= 0 && !inside(entry.path, entries[holder]!.path)) holder--;
    if (holder < 0 || entries[holder]!.access !== 'write') return;
    const top = entries[holder]!.path;
    const folders = pins.get(holder) ?? new Set<string>();
    for (let folder = posix.dirname(entry.path); folder !== top && inside(folder, top); folder = posix.dirname(folder))
      if (!pinned.has(folder)) folders.add(folder);
    pins.set(holder, folders);
  });
  if (pins.size === 0) return [...entries];
  return entries.flatMap((entry, i) => {
    const folders = [...(pins.get(i) ?? [])].sort((a, b) => depth(a) - depth(b));
    return [entry, ...folders.map((path): SandboxEntry => ({ path, access: 'write', kind: 'directory', pinned: true }))];
  });
}

export function inside(child: string, parent: string): boolean {
  return child === parent || child.startsWith(parent === '/' ? '/' : `${parent}/`);
}

export function depth(path: string): number {
  return path.split('/').filter(Boolean).length;
}
