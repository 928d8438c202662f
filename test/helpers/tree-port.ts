/**
 * A policy port over a written-down filesystem, for plans that must not depend on this machine's
 * /home, /run or /etc (and for another OS's layout, such as macOS's /Users and /private). Only
 * what the sandbox and filesystem policies ask: realpath (symlinks followed), lstat, listNames,
 * the base environment and the probed sandbox support.
 */
import path from 'node:path';
import type { EntryFacts } from '../../adapter/contract/policy-port.js';
import type { SandboxSupport } from '../../adapter/contract/sandbox.js';
import type { SandboxPort } from '../../main/policy/sandbox.js';

/** `dir`, `file` (empty), `text:CONTENT` (a file holding it) or `-> /absolute/target` for a symlink. */
export type Tree = Record<string, 'dir' | 'file' | `text:${string}` | `-> /${string}`>;

export interface TreePortOptions {
  platform: 'linux' | 'darwin';
  tree: Tree;
  env: Record<string, string>;
  support: SandboxSupport;
  /** The server's uid (default 1000: an ordinary user). */
  uid?: number;
}

export type TreePort = SandboxPort & {
  /** Changes the tree underneath whatever holds this port. */
  put(path: string, node: Tree[string]): void;
  /** Takes a path and everything below it away. */
  remove(path: string): void;
  /** Renames a path and everything below it; holds on them follow (as the kernel's do). */
  move(from: string, to: string): void;
};

export function treePort({ platform, tree, env, support, uid = 1000 }: TreePortOptions): TreePort {
  const nodes = new Map<string, Tree[string]>([['/', 'dir']]);
  const holds = new Set<{ at: string | null }>();
  const put = (key: string, node: Tree[string]) => {
    nodes.set(key, node);
    // Every ancestor of a listed path is a directory.
    for (let dir = path.posix.dirname(key); dir !== '/'; dir = path.posix.dirname(dir)) if (!nodes.has(dir)) nodes.set(dir, 'dir');
  };
  for (const [key, node] of Object.entries(tree)) put(key, node);

  const missing = (p: string) => Object.assign(new Error(`ENOENT: ${p}`), { code: 'ENOENT' });
  function realpath(input: string): string {
    let rest = input.split('/').filter(Boolean);
    let current = '/';
    for (let hops = 0; rest.length > 0;) {
      const next = path.posix.join(current, rest.shift()!);
      const node = nodes.get(next);
      if (node === undefined) throw missing(input);
      if (node.startsWith('->')) {
        if (++hops > 40) throw Object.assign(new Error('ELOOP'), { code: 'ELOOP' });
        const target = node.slice(2).trim();
        rest = [...target.split('/').filter(Boolean), ...rest];
        current = '/';
        continue;
      }
      current = next;
    }
    return current;
  }
  const names = (dir: string) => [...nodes.keys()].filter((key) => key !== '/' && path.posix.dirname(key) === dir).map((key) => path.posix.basename(key));
  const facts = (type: EntryFacts['type'], size = 0): EntryFacts => ({ type, dev: 1, ino: 1, nlink: 1, mode: 0o755, uid: 1000, size });
  return {
    platform,
    realpath: async (p) => realpath(p),
    async lstat(p) {
      const node = nodes.get(path.posix.normalize(p));
      if (node === undefined) return null;
      if (node.startsWith('text:')) return facts('file', Buffer.byteLength(node.slice('text:'.length)));
      return facts(node === 'dir' ? 'directory' : node.startsWith('->') ? 'symlink' : 'file');
    },
    async locateAll(paths) {
      return paths.map((p) => {
        try {
          const real = realpath(p);
          const node = nodes.get(real)!;
          return { real, type: node === 'dir' ? 'directory' : 'file' };
        } catch {
          return null;
        }
      });
    },
    async listNames(dir, limit) {
      if (nodes.get(dir) !== 'dir') return null;
      const all = names(dir);
      return limit !== undefined && all.length > limit ? null : all;
    },
    async listFolders(dir, limit) {
      if (nodes.get(dir) !== 'dir') return null;
      const read = names(dir).slice(0, limit);
      const node = (name: string) => nodes.get(path.posix.join(dir, name))!;
      const gitFile = read.includes('.git') && node('.git') !== 'dir' && !node('.git').startsWith('->');
      return { folders: read.filter((name) => node(name) === 'dir'), read: read.length, gitFile };
    },
    async readStart(p, maxBytes) {
      let node: Tree[string] | undefined;
      try {
        node = nodes.get(realpath(p));
      } catch {
        return null;
      }
      if (node === undefined || node === 'dir') return null;
      return (node === 'file' ? '' : node.slice('text:'.length)).slice(0, maxBytes);
    },
    baseEnvironment: () => env,
    sandboxSupport: () => support,
    ownProcess: () => ({ pid: 4242, ppid: 4241, uid, user: uid === 0 ? 'root' : 'alex' }),
    holdPlace(path: string) {
      if (!nodes.has(path)) return null;
      const hold = { at: path as string | null };
      holds.add(hold);
      return { where: () => (hold.at !== null && nodes.has(hold.at) ? hold.at : null), release: () => holds.delete(hold) };
    },
    put,
    remove(gone: string) {
      for (const key of [...nodes.keys()]) if (key === gone || key.startsWith(`${gone}/`)) nodes.delete(key);
    },
    move(from: string, to: string) {
      const under = (key: string) => key === from || key.startsWith(`${from}/`);
      for (const [key, node] of [...nodes]) {
        if (!under(key)) continue;
        nodes.delete(key);
        put(to + key.slice(from.length), node);
      }
      for (const hold of holds) if (hold.at !== null && under(hold.at)) hold.at = to + hold.at.slice(from.length);
    },
  };
}
