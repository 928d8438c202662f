/**
 * Names inside a folder the journal takes whole, byte for byte. A name need not be UTF-8 on
 * Linux (an archive from another system): read as a string it comes back with U+FFFD in it, a
 * name no file has, and the file would be lost to undo. Such a name is kept as its bytes
 * (base64), beside the string shown to the owner.
 */
import fs from 'node:fs';
import path from 'node:path';

export type FsPath = string | Buffer;

/** An entry's name as the journal records it: `raw` (base64 bytes) only when the name is not UTF-8. */
export interface EntryName {
  name: string;
  raw?: string;
}

/** A folder's entry names as bytes, in the order of their strings (as the journal always sorted them). */
export async function namesIn(dir: FsPath): Promise<Buffer[]> {
  const names = await fs.promises.readdir(dir, { encoding: 'buffer' });
  const text = new Map(names.map((n) => [n, n.toString('utf8')]));
  return names.sort((a, b) => {
    const x = text.get(a)!;
    const y = text.get(b)!;
    return x < y ? -1 : x > y ? 1 : Buffer.compare(a, b);
  });
}

export function entryName(bytes: Buffer): EntryName {
  const name = bytes.toString('utf8');
  return Buffer.from(name, 'utf8').equals(bytes) ? { name } : { name, raw: bytes.toString('base64') };
}

export function entryBytes(entry: EntryName): Buffer {
  return entry.raw !== undefined ? Buffer.from(entry.raw, 'base64') : Buffer.from(entry.name, 'utf8');
}

/** `dir`/`name`: a string while every name on the way is UTF-8, else bytes. */
export function childPath(dir: FsPath, name: Buffer): FsPath {
  const text = name.toString('utf8');
  if (typeof dir === 'string' && Buffer.from(text, 'utf8').equals(name)) return path.join(dir, text);
  return Buffer.concat([Buffer.from(dir), Buffer.from(path.sep), name]);
}
