/**
 * fs.read's one entry: the file's first bytes decide how it is read. Text keeps its fast path
 * (read-text.ts reads the first bytes anyway and says when they name another format); each
 * other format's parser, and its library, loads on first use.
 */
import type { FileReadAs, GuardedPath, ReadAsOptions } from '../../contract/files.js';
import { readTextOrKind, withRegularFile } from '../read-text.js';
import { fileKind, SNIFF_BYTES, type FileKind } from './file-kind.js';

export async function readFileAs(file: GuardedPath, options: ReadAsOptions): Promise<FileReadAs> {
  const ranged = options.startLine !== undefined || options.endLine !== undefined || options.range !== undefined;
  const sniffed = ranged ? await sniff(file) : 'text';
  if (sniffed === 'text' && options.range !== undefined) {
    const { readCsv } = await import('./read-csv.js');
    return readCsv(file, options);
  }
  const kind = sniffed === 'text' ? await readTextOrKind(file, options) : sniffed;
  if (typeof kind !== 'string') return { kind: 'text', ...kind };
  switch (kind) {
    case 'png':
    case 'jpeg':
    case 'gif':
    case 'webp':
    case 'heif': {
      const { readImage } = await import('./read-image.js');
      return readImage(file, kind, { ...options.image, ...(options.signal ? { signal: options.signal } : {}) });
    }
    case 'pdf': {
      if (options.pdfAs === 'image') {
        const { readPdfPage } = await import('./read-pdf-page.js');
        return readPdfPage(file, options.pages?.first ?? 1, { ...options.image, ...(options.signal ? { signal: options.signal } : {}) });
      }
      const { readPdf } = await import('./read-pdf.js');
      return readPdf(file, options.pages ?? { first: 1 }, options.maxBytes, options.signal);
    }
    case 'zip': {
      const { readOffice } = await import('./read-office.js');
      return readOffice(file, options);
    }
  }
}

/** The first bytes, through a descriptor confirmed like every read: for a line range, whose read is text-only. */
function sniff(file: GuardedPath): Promise<FileKind> {
  return withRegularFile(file, async (handle) => {
    const head = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await handle.read(head, 0, SNIFF_BYTES, 0);
    return fileKind(head.subarray(0, bytesRead));
  });
}
