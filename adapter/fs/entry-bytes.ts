/**
 * Entry names as the system has them. A name need not be UTF-8 on Linux (an archive from
 * another system): read as a string it comes back with U+FFFD in it, a name no entry has, and
 * deleting, copying or keeping the folder for undo would fail on it or lose it. Tree walks read
 * names as bytes and keep a name that is not UTF-8 as its bytes; paths become bytes below it.
 */
import { isUtf8 } from 'node:buffer';
import fs from 'node:fs';
import path from 'node:path';

/** An entry's name: a string, or its bytes when it is not UTF-8. */
export type EntryName = string | Buffer;
/** A path as fs calls take it: bytes once a name on the way is not UTF-8. */
export type FsPath = string | Buffer;

export function asEntryName(bytes: Buffer): EntryName {
  return isUtf8(bytes) ? bytes.toString('utf8') : bytes;
}

export async function entriesOf(dir: FsPath): Promise<EntryName[]> {
  return (await fs.promises.readdir(dir, { encoding: 'buffer' })).map(asEntryName);
}

/** `dir`/`name`: a string while both are, else bytes. */
export function childPath(dir: FsPath, name: EntryName): FsPath {
  if (typeof dir === 'string' && typeof name === 'string') return path.join(dir, name);
  return Buffer.concat([Buffer.from(dir), Buffer.from(path.sep), Buffer.from(name)]);
}
