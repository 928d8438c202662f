/**
 * A folder's entries as a tree walk needs them: a name that is not UTF-8 (an archive from
 * another system) stays as its bytes. Read as a string it would come back with U+FFFD in it,
 * a name no entry has, and deleting or copying the folder would fail on it.
 */
import { isUtf8 } from 'node:buffer';
import fs from 'node:fs';
import type { EntryName } from './dir-handle.js';

export async function entriesOf(dir: string): Promise<EntryName[]> {
  return (await fs.promises.readdir(dir, { encoding: 'buffer' })).map((name) => (isUtf8(name) ? name.toString('utf8') : name));
}
