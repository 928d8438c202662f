/**
 * Office files (a ZIP container whose parts say which): the container is opened with zip-bomb
 * bounds (office-zip.ts), then the format's reader, and its library, loads on first use.
 */
import { adapterError } from '../../contract/errors.js';
import type { GuardedPath, OfficeFileRead, ReadAsOptions } from '../../contract/files.js';
import { openOfficeZip } from './office-zip.js';
import { readWhole } from './read-whole.js';

export const MAX_OFFICE_BYTES = 64 * 1024 * 1024;

export async function readOffice(file: GuardedPath, options: ReadAsOptions): Promise<OfficeFileRead> {
  const { data, totalBytes } = await readWhole(file, MAX_OFFICE_BYTES, 'Office');
  const zip = openOfficeZip(data, file.path);
  switch (zip.kind) {
    case 'docx': {
      const { readDocx } = await import('./read-docx.js');
      return readDocx(zip, file.path, options, totalBytes);
    }
    case 'xlsx': {
      const { readXlsx } = await import('./read-xlsx.js');
      return readXlsx(zip, file.path, options, totalBytes);
    }
    case 'pptx': {
      const { readPptx } = await import('./read-pptx.js');
      return readPptx(zip, file.path, options, totalBytes);
    }
    default:
      throw adapterError(
        'INVALID_INPUT',
        'fs.read',
        `${file.path} is a ZIP archive, not a Word, Excel or PowerPoint file, which fs.read cannot read; it reads UTF-8 text, PDF, images, DOCX, XLSX and PPTX`,
      );
  }
}
