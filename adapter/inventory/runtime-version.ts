/**
 * A runtime's version, read from what its install leaves on disk, never by running it (running
 * a program from PATH is a command, not an inventory): the version file of its install prefix
 * (Node's node_version.h, Go's VERSION, a JDK's release), the global version of a pyenv or rbenv
 * shim (the `version` file beside `shims/`), else a version in the name it is
 * reached by (python3.11, gcc-12) or in a folder on its path (nvm's v20.11.1, pyenv's 3.12.1,
 * rustup's 1.75.0-x86_64-…). Undefined when none of them says.
 */
import { constants } from 'node:fs';
import { open, readlink, realpath } from 'node:fs/promises';
import path from 'node:path';

/** A version file is small; more than this is not one. */
const MAX_FILE_BYTES = 8 * 1024;

type FileReader = (text: string) => string | undefined;

/** Files an install prefix (the folder above bin/) holds, per runtime. */
const PREFIX_FILES: Record<string, Array<[string, FileReader]>> = {
  node: [['include/node/node_version.h', nodeHeader]],
  go: [['VERSION', (text) => /^go(\d+(?:\.\d+)+)/.exec(text)?.[1]]],
  java: [['release', (text) => /^JAVA_VERSION="([^"\n]{1,40})"/m.exec(text)?.[1]]],
};

function nodeHeader(text: string): string | undefined {
  const part = (name: string) => new RegExp(`#define NODE_${name}_VERSION (\\d+)`).exec(text)?.[1];
  const [major, minor, patch] = [part('MAJOR'), part('MINOR'), part('PATCH')];
  return major && minor && patch ? `${major}.${minor}.${patch}` : undefined;
}

export async function runtimeVersion(name: string, found: string): Promise<string | undefined> {
  const real = await realpath(found).catch(() => found);
  const prefix = path.dirname(path.dirname(real));
  for (const [file, read] of PREFIX_FILES[name] ?? []) {
    const version = read((await smallFile(path.join(prefix, file))) ?? '');
    if (version) return version;
  }
  if (path.basename(path.dirname(found)) === 'shims') {
    const global = /^v?(\d+\.\d+(?:\.\d+)*)\s*$/.exec(((await smallFile(path.join(path.dirname(found), '..', 'version'))) ?? '').split('\n')[0]!)?.[1];
    if (global) return global;
  }
  const names = [found, ...(await symlinkHops(found)), real];
  return names.map((p) => versionInName(name, path.basename(p))).find(Boolean) ?? names.map(versionInFolders).find(Boolean);
}

/** python3.11 → 3.11, gcc-12 → 12, x86_64-linux-gnu-gcc-12 → 12; python3 itself says nothing. */
export function versionInName(name: string, base: string): string | undefined {
  const stem = name.replace(/\d+$/, '');
  const match = new RegExp(`(?:^|-)${stem}-?v?(\\d+(?:\\.\\d+)*)$`).exec(base);
  return match && `${stem}${match[1]}` !== name ? match[1] : undefined;
}

/** The nearest folder on the path named like a version: v20.11.1, 3.12.1, 1.75.0-x86_64-unknown-linux-gnu. */
export function versionInFolders(file: string): string | undefined {
  const folders = path.dirname(file).split(/[\\/]/).reverse();
  for (const folder of folders) {
    const match = /^v?(\d+\.\d+(?:\.\d+)*)(?:[-+][\w.-]*)?$/.exec(folder);
    if (match) return match[1];
  }
  return undefined;
}

/** Each link on the way from the name on PATH to the file (python3 → python3.11 → …), at most 8. */
async function symlinkHops(file: string): Promise<string[]> {
  const hops: string[] = [];
  let at = file;
  for (let i = 0; i < 8; i++) {
    const target = await readlink(at).catch(() => null);
    if (target === null) break;
    at = path.resolve(path.dirname(at), target);
    hops.push(at);
  }
  return hops;
}

async function smallFile(file: string): Promise<string | undefined> {
  // Non-blocking: a FIFO planted where a version file belongs must not hold the read.
  const handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK).catch(() => null);
  if (!handle) return undefined;
  try {
    if (!(await handle.stat()).isFile()) return undefined;
    const buffer = Buffer.alloc(MAX_FILE_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, MAX_FILE_BYTES, 0);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
}
