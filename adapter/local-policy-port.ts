/** The PolicyPort answered from this computer's own filesystem, PATH and environment. */
import fs from 'node:fs';
import { entryType } from './fs/entry-type.js';
import { holdPlace } from './fs/place-hold.js';
import type { EntryFacts, PolicyPort } from './contract/policy-port.js';
import { shortEnvironment } from './process/child-env.js';
import { ownProcess, processIdentity } from './process/identity.js';
import type { ProcessOps } from './contract/processes.js';
import { sandboxSupport } from './process/sandbox/support.js';
import { probeRepository } from './git/probe.js';
import { ProbeCache } from './git/probe-cache.js';

const MISSING = new Set(['ENOENT', 'ENOTDIR']);

export function localPolicyPort(processes: Pick<ProcessOps, 'findExecutable'>, platform: NodeJS.Platform, env: NodeJS.ProcessEnv): PolicyPort {
  const base = Object.freeze(shortEnvironment(env));
  const probes = new ProbeCache();
  return {
    platform,
    // Synchronous on purpose: one realpath(3) or lstat(2) of microseconds, instead of a
    // thread-pool hop that costs more than the call (every path check does one or two).
    realpath: async (path) => fs.realpathSync.native(path),
    async lstat(path) {
      try {
        return facts(fs.lstatSync(path));
      } catch (error) {
        if (MISSING.has((error as NodeJS.ErrnoException).code ?? '')) return null;
        throw error;
      }
    },
    // Synchronous on purpose: a few dozen lstat calls cost far less in one go than as as many thread-pool round trips.
    locateAll: async (paths) => paths.map(locate),
    listNames: (path, limit) => (limit === undefined ? fs.promises.readdir(path).catch(() => null) : namesUpTo(path, limit)),
    // Synchronous on purpose, as locateAll: the sandbox's plan reads many small folders in a row.
    listFolders: async (path, limit) => foldersUpTo(path, limit),
    readStart: async (path, maxBytes) => readStart(path, maxBytes),
    holdPlace: (path) => holdPlace(path, platform),
    findExecutable: (name, searchPath) => processes.findExecutable(name, searchPath),
    baseEnvironment: () => base,
    processIdentity: (id) => processIdentity(id, platform),
    ownProcess,
    sandboxSupport: () => sandboxSupport(platform, base),
    gitRepository: (dir, git, options) => probeRepository(dir, git, options, probes),
  };
}

/** A folder's names, read no further than `limit` (a folder a program filled with a million names is not read whole). */
async function namesUpTo(path: string, limit: number): Promise<string[] | null> {
  const names: string[] = [];
  try {
    const dir = await fs.promises.opendir(path);
    try {
      for (let entry = await dir.read(); entry !== null; entry = await dir.read()) {
        if (names.length === limit) return null;
        names.push(entry.name);
      }
    } finally {
      await dir.close().catch(() => {});
    }
  } catch {
    return null;
  }
  return names;
}

/** The folders among a directory's first `limit` names, by the type the directory records (links are not folders). */
function foldersUpTo(path: string, limit: number): { folders: string[]; read: number; gitFile: boolean } | null {
  const folders: string[] = [];
  let read = 0;
  let gitFile = false;
  let dir: fs.Dir;
  try {
    dir = fs.opendirSync(path);
  } catch {
    return null;
  }
  try {
    for (let entry = dir.readSync(); entry !== null && read < limit; entry = dir.readSync()) {
      read += 1;
      if (entry.isDirectory()) folders.push(entry.name);
      else if (entry.name === '.git' && entry.isFile()) gitFile = true;
    }
  } catch {
    return null;
  } finally {
    dir.closeSync();
  }
  return { folders, read, gitFile };
}

/** Synchronous, as listFolders: a .git file is a line. O_NONBLOCK: a FIFO planted as one (or a link to one) does not hold the plan. */
function readStart(path: string, maxBytes: number): string | null {
  let fd: number;
  try {
    fd = fs.openSync(path, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
  } catch {
    return null;
  }
  try {
    if (!fs.fstatSync(fd).isFile()) return null;
    const buffer = Buffer.allocUnsafe(maxBytes); // only what is read is shown
    return buffer.subarray(0, fs.readSync(fd, buffer, 0, maxBytes, 0)).toString('utf8');
  } catch {
    return null;
  } finally {
    fs.closeSync(fd);
  }
}

function locate(path: string): { real: string; type: EntryFacts['type'] } | null {
  try {
    // throwIfNoEntry: a missing path (the usual case) costs no exception.
    if (!fs.lstatSync(path, { throwIfNoEntry: false })) return null;
    const real = fs.realpathSync.native(path);
    const stat = fs.lstatSync(real, { throwIfNoEntry: false });
    return stat ? { real, type: entryType(stat) } : null;
  } catch {
    return null;
  }
}

export function facts(stat: fs.Stats): EntryFacts {
  return { type: entryType(stat), dev: stat.dev, ino: stat.ino, nlink: stat.nlink, mode: stat.mode, uid: stat.uid, size: stat.size };
}
