/**
 * A PDF's text, page by page, with pdf.js (pdfjs-dist, loaded in a worker thread on first use).
 * Bounds, before and while parsing: the file's size; every Flate stream's inflated size, checked
 * with zlib's own output limit before pdf.js sees the file (a stream bomb is refused, not
 * inflated); the worker's heap; and its time (terminated past PDF_SECONDS).
 */
import zlib from 'node:zlib';
import { adapterError } from '../../contract/errors.js';
import type { GuardedPath, PdfFileRead } from '../../contract/files.js';
import { readWhole } from './read-whole.js';
import { PDF_TEXT_WORKER } from './pdf-text-worker.js';
import { moduleUrl, runFormatWorker, type WorkerFailure } from './format-worker.js';

export const MAX_PDF_BYTES = 128 * 1024 * 1024;
/** Inflated size of any one stream, and of all of them together. */
export const MAX_STREAM_BYTES = 64 * 1024 * 1024;
export const MAX_INFLATED_BYTES = 512 * 1024 * 1024;
export const PDF_SECONDS = 30;
export const HEAP_MB = 512;
export const PDFJS = 'pdfjs-dist/legacy/build/pdf.mjs';
const op = 'fs.read';

export interface PdfRange {
  first: number;
  /** Inclusive; absent: to the end. */
  last?: number;
}

export async function readPdf(file: GuardedPath, range: PdfRange, maxBytes: number, signal?: AbortSignal): Promise<PdfFileRead> {
  const { data, totalBytes } = await readWhole(file, MAX_PDF_BYTES, 'PDF');
  checkStreams(data, file.path);
  const parsed = await inWorker(data, range, maxBytes, file.path, signal);
  if ('error' in parsed) {
    const why = parsed.name === 'PasswordException' ? 'it is encrypted with a password' : parsed.error;
    throw adapterError('INVALID_INPUT', op, `${file.path} is a PDF file that could not be read (${why}); nothing was returned`);
  }
  if (range.first > parsed.total) {
    throw adapterError('INVALID_INPUT', op, `${file.path} has ${parsed.total} page${parsed.total === 1 ? '' : 's'}; page ${range.first} is past the end`);
  }
  const last = parsed.pages.at(-1)?.page ?? range.first;
  const wanted = Math.min(range.last ?? parsed.total, parsed.total);
  return {
    kind: 'pdf',
    totalPages: parsed.total,
    pages: parsed.pages,
    firstPage: range.first,
    lastPage: last,
    ...(last < wanted ? { nextPage: last + 1 } : {}),
    totalBytes,
  };
}

interface Parsed {
  total: number;
  pages: Array<{ page: number; text: string }>;
}

function inWorker(data: Buffer, range: PdfRange, maxBytes: number, path: string, signal?: AbortSignal): Promise<Parsed | WorkerFailure> {
  const workerData = { module: moduleUrl(PDFJS), data, first: range.first, last: range.last ?? 0, maxBytes };
  return runFormatWorker<Parsed>(PDF_TEXT_WORKER, workerData, { seconds: PDF_SECONDS, heapMb: HEAP_MB, path, what: 'a PDF file', signal });
}

/**
 * Every `stream ... endstream` span inflated with an output limit: more than MAX_STREAM_BYTES from
 * one, or MAX_INFLATED_BYTES from all, refuses the file. Spans that are not zlib data (images in
 * other codecs, encrypted streams) fail at once and are passed on.
 */
export function checkStreams(data: Buffer, path: string): void {
  let total = 0;
  for (let at = data.indexOf('stream'); at !== -1; at = data.indexOf('stream', at + 6)) {
    if (data[at - 3] === 0x65 && data.toString('latin1', at - 3, at) === 'end') continue;
    let start = at + 6;
    if (data[start] === 0x0d) start++;
    if (data[start] === 0x0a) start++;
    const end = data.indexOf('endstream', start);
    if (end === -1) break;
    total += inflatedSize(data.subarray(start, end), path);
    if (total > MAX_INFLATED_BYTES) throw bomb(path, `its streams inflate to over ${MAX_INFLATED_BYTES / (1024 * 1024)} MiB`);
    at = end + 3;
  }
}

function inflatedSize(span: Buffer, path: string): number {
  for (const inflate of [zlib.inflateSync, zlib.inflateRawSync]) {
    try {
      return inflate(span, { maxOutputLength: MAX_STREAM_BYTES, finishFlush: zlib.constants.Z_SYNC_FLUSH }).length;
    } catch (error) {
      if (error instanceof RangeError) throw bomb(path, `a stream inflates to over ${MAX_STREAM_BYTES / (1024 * 1024)} MiB`);
    }
  }
  return 0;
}

function bomb(path: string, why: string): Error {
  return adapterError('INVALID_INPUT', op, `${path} is refused: ${why} (a decompression bomb, or too large to read)`);
}
