/**
 * An Office file's ZIP container, opened with bounds before any parser sees it (fflate, loaded
 * on first use). The central directory is walked without inflating anything and the file is
 * refused when it has too many entries, or entries whose declared sizes or ratios are those of a
 * zip bomb. fflate inflates an entry into a buffer of its declared size and never grows it, so
 * an entry that lies about its size yields cut, unparsable XML (a clear error), not memory.
 */
import { unzipSync } from 'fflate';
import { adapterError, isComputerAdapterError } from '../../contract/errors.js';

export const MAX_ENTRIES = 10_000;
/** Declared uncompressed size of all entries together, and of one. */
export const MAX_UNZIPPED_BYTES = 256 * 1024 * 1024;
export const MAX_ENTRY_BYTES = 64 * 1024 * 1024;
/** Inflated:compressed ratio refused for an entry over RATIO_FLOOR bytes (XML rarely passes 100). */
export const MAX_RATIO = 500;
const RATIO_FLOOR = 1024 * 1024;
const op = 'fs.read';

export type OfficeKind = 'docx' | 'xlsx' | 'pptx';

export interface OfficeZip {
  kind: OfficeKind | undefined;
  /** Entry name -> declared uncompressed size. */
  sizes: Map<string, number>;
  /** The named entries' bytes (absent names are left out). */
  read(names: readonly string[]): Record<string, Uint8Array>;
  /** One entry as UTF-8 text, or undefined when absent. */
  text(name: string): string | undefined;
}

export function openOfficeZip(data: Uint8Array, path: string): OfficeZip {
  const sizes = new Map<string, number>();
  let total = 0;
  try {
    unzipSync(data, {
      filter: (entry) => {
        if (sizes.size >= MAX_ENTRIES) throw bomb(path, `it has over ${MAX_ENTRIES} entries`);
        if (entry.originalSize > MAX_ENTRY_BYTES)
          throw bomb(path, `${entry.name} inflates to ${entry.originalSize} bytes (at most ${MAX_ENTRY_BYTES / MIB} MiB an entry)`);
        if (entry.originalSize > RATIO_FLOOR && entry.originalSize > entry.size * MAX_RATIO) {
          throw bomb(path, `${entry.name} inflates ${Math.round(entry.originalSize / Math.max(1, entry.size))} times (at most ${MAX_RATIO})`);
        }
        total += entry.originalSize;
        if (total > MAX_UNZIPPED_BYTES) throw bomb(path, `its entries inflate to over ${MAX_UNZIPPED_BYTES / MIB} MiB`);
        sizes.set(entry.name, entry.originalSize);
        return false;
      },
    });
  } catch (error) {
    if (isRefusal(error)) throw error;
    throw unreadable(path, 'an Office document (ZIP)', error);
  }
  const read = (names: readonly string[]) => {
    const wanted = new Set(names.filter((name) => sizes.has(name)));
    if (wanted.size === 0) return {};
    try {
      return unzipSync(data, { filter: (entry) => wanted.has(entry.name) });
    } catch (error) {
      throw unreadable(path, kindName(kind), error);
    }
  };
  const kind = sizes.has('word/document.xml') ? 'docx' : sizes.has('xl/workbook.xml') ? 'xlsx' : sizes.has('ppt/presentation.xml') ? 'pptx' : undefined;
  return {
    kind,
    sizes,
    read,
    text: (name) => {
      const bytes = read([name])[name];
      return bytes && new TextDecoder().decode(bytes);
    },
  };
}

const MIB = 1024 * 1024;
const REFUSED = Symbol('refused');

function bomb(path: string, why: string): Error {
  return Object.assign(adapterError('INVALID_INPUT', op, `${path} is refused: ${why} (a zip bomb, or too large to read); nothing was parsed`), {
    [REFUSED]: true,
  });
}

function isRefusal(error: unknown): boolean {
  return typeof error === 'object' && error !== null && REFUSED in error;
}

export function kindName(kind: OfficeKind | undefined): string {
  return kind === 'docx'
    ? 'a Word document (DOCX)'
    : kind === 'xlsx'
      ? 'an Excel workbook (XLSX)'
      : kind === 'pptx'
        ? 'a PowerPoint presentation (PPTX)'
        : 'a ZIP archive';
}

/** A file that failed to parse: the format named, and nothing returned. */
export function unreadable(path: string, what: string, error: unknown): Error {
  const why = (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
  return adapterError('INVALID_INPUT', op, `${path} is ${what} that could not be read (${why || 'it is damaged'}); nothing was returned`);
}

/** Runs a reader over the parts: its own refusals pass, anything a parser throws names the format. */
export async function parsedOrRefused<T>(path: string, kind: OfficeKind, parse: () => Promise<T>): Promise<T> {
  try {
    return await parse();
  } catch (error) {
    if (isComputerAdapterError(error)) throw error;
    throw unreadable(path, kindName(kind), error);
  }
}
