/**
 * Names inside a folder the journal takes whole, as its records keep them (JSON, so text): a
 * name that is not UTF-8 (entry-bytes.ts) is kept as its bytes in base64, beside the string
 * shown to the owner.
 */
import { asEntryName, entriesOf, type EntryName, type FsPath } from '../entry-bytes.js';

export interface RecordedName {
  name: string;
  /** The name's bytes (base64), only when it is not UTF-8. */
  raw?: string;
}

/** A folder's entries in the order of their names as text (as the journal always sorted them), bytes breaking ties. */
export async function namesIn(dir: FsPath): Promise<EntryName[]> {
  return (await entriesOf(dir)).sort((a, b) => {
    const x = String(a);
    const y = String(b);
    return x < y ? -1 : x > y ? 1 : Buffer.compare(Buffer.from(a), Buffer.from(b));
  });
}

/** namesIn's order for recorded names. */
export function byRecordedName(a: RecordedName, b: RecordedName): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : Buffer.compare(bytesOf(a), bytesOf(b));
}

const bytesOf = (recorded: RecordedName) => (recorded.raw !== undefined ? Buffer.from(recorded.raw, 'base64') : Buffer.from(recorded.name));

export function recordedName(name: EntryName): RecordedName {
  return typeof name === 'string' ? { name } : { name: name.toString('utf8'), raw: name.toString('base64') };
}

export function nameOf(recorded: RecordedName): EntryName {
  return recorded.raw !== undefined ? asEntryName(Buffer.from(recorded.raw, 'base64')) : recorded.name;
}
