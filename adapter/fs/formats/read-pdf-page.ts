/**
 * One PDF page as an image: pdf.js renders it on @napi-rs/canvas (both loaded in a worker thread
 * on first use), within the screen captures' limits and MAX_PAGE_PIXELS whatever the caller asks.
 * The same bounds as the text path: file size, stream bombs refused before parsing, heap, time.
 */
import path from 'node:path';
import { createRequire } from 'node:module';
import { adapterError } from '../../contract/errors.js';
import type { GuardedPath, ImageFileRead, ImageReadOptions } from '../../contract/files.js';
import { isFailure, moduleUrl, runFormatWorker } from './format-worker.js';
import { PDF_RENDER_WORKER } from './pdf-render-worker.js';
import { checkStreams, HEAP_MB, MAX_PDF_BYTES, PDF_SECONDS, PDFJS } from './read-pdf.js';
import { readWhole } from './read-whole.js';

/** 16 megapixels (4096 x 4096): the most a rendered page may have. */
export const MAX_PAGE_PIXELS = 16_000_000;
const op = 'fs.read';

interface Rendered {
  total: number;
  width?: number;
  height?: number;
  pageWidth?: number;
  pageHeight?: number;
  png?: Uint8Array;
}

export async function readPdfPage(file: GuardedPath, page: number, image: ImageReadOptions): Promise<ImageFileRead> {
  const { data, totalBytes } = await readWhole(file, MAX_PDF_BYTES, 'PDF');
  checkStreams(data, file.path);
  const require = createRequire(import.meta.url);
  const assets = `${path.dirname(require.resolve('pdfjs-dist/package.json'))}/`;
  const workerData = {
    module: moduleUrl(PDFJS),
    canvas: require.resolve('@napi-rs/canvas'),
    assets,
    data,
    page,
    maxWidth: image.maxWidth,
    maxHeight: image.maxHeight,
    maxPixels: Math.min(image.maxPixels, MAX_PAGE_PIXELS),
  };
  const bounds = { seconds: PDF_SECONDS, heapMb: HEAP_MB, path: file.path, what: 'a PDF file', signal: image.signal };
  const result = await runFormatWorker<Rendered>(PDF_RENDER_WORKER, workerData, bounds);
  if (isFailure(result)) {
    const why = result.name === 'PasswordException' ? 'it is encrypted with a password' : result.error;
    throw adapterError('INVALID_INPUT', op, `${file.path} is a PDF file whose page ${page} could not be rendered (${why}); nothing was returned`);
  }
  const { total, width, height, pageWidth, pageHeight, png } = result;
  if (!png || !width || !height || !pageWidth || !pageHeight) {
    throw adapterError('INVALID_INPUT', op, `${file.path} has ${total} page${total === 1 ? '' : 's'}; page ${page} is past the end`);
  }
  return {
    kind: 'image',
    sourceFormat: 'pdf',
    page: { page, totalPages: total },
    data: Buffer.from(png),
    mimeType: 'image/png',
    format: 'png',
    width,
    height,
    originalWidth: pageWidth,
    originalHeight: pageHeight,
    area: { x: 0, y: 0, width: pageWidth, height: pageHeight },
    totalBytes,
  };
}
