/**
 * A Word document as Markdown-ish text: mammoth (the docx-to-HTML converter most used on npm,
 * maintained, pure JS) runs in a worker thread over a re-packed copy of the document that holds
 * only the XML entries fflate inflated within their declared sizes (media left out: images are
 * named, not read), so jszip inside mammoth never inflates anything. Then HTML to Markdown, then lines.
 */
import { zipSync } from 'fflate';
import type { DocxFileRead, ReadAsOptions } from '../../contract/files.js';
import { adapterError } from '../../contract/errors.js';
import { htmlToMarkdown } from './docx-markdown.js';
import { isFailure, runFormatWorker } from './format-worker.js';
import { unreadable, type OfficeZip } from './office-zip.js';
import { createRequire } from 'node:module';

const DOCX_SECONDS = 30;
const HEAP_MB = 512;

const DOCX_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const mammoth = require(workerData.module);
const blank = mammoth.images.imgElement(async () => ({ src: '' }));
mammoth
  .convertToHtml({ buffer: Buffer.from(workerData.data) }, { convertImage: blank, ignoreEmptyParagraphs: true })
  .then((result) => parentPort.postMessage({ html: result.value, warnings: result.messages.map((m) => m.message) }))
  .catch((error) => parentPort.postMessage({ error: String((error && error.message) || error) }));
`;

export async function readDocx(zip: OfficeZip, path: string, options: ReadAsOptions, totalBytes: number): Promise<DocxFileRead> {
  // mammoth reads XML parts and their relationships; media, fonts and embedded objects stay packed.
  const names = [...zip.sizes.keys()].filter((name) => /\.(xml|rels)$/i.test(name));
  const packed = zipSync(zip.read(names), { level: 0 });
  const module = createRequire(import.meta.url).resolve('mammoth');
  const bounds = { seconds: DOCX_SECONDS, heapMb: HEAP_MB, path, what: 'a Word document (DOCX)', signal: options.signal };
  const result = await runFormatWorker<{ html: string; warnings: string[] }>(DOCX_WORKER, { module, data: packed }, bounds);
  if (isFailure(result)) throw unreadable(path, 'a Word document (DOCX)', new Error(result.error));
  const lines = htmlToMarkdown(result.html).split('\n');
  const startLine = options.startLine ?? 1;
  if (startLine > lines.length) {
    throw adapterError('INVALID_INPUT', 'fs.read', `${path} converts to ${lines.length} lines of text; startLine ${startLine} is past the end`);
  }
  const last = Math.min(options.endLine ?? lines.length, lines.length);
  const taken: string[] = [];
  let bytes = 0;
  for (let n = startLine; n <= last; n++) {
    const line = lines[n - 1] ?? '';
    bytes += Buffer.byteLength(line) + 1;
    if (bytes > options.maxBytes && taken.length > 0) break;
    taken.push(line);
  }
  const endLine = startLine + taken.length - 1;
  return {
    kind: 'docx',
    content: taken.join('\n'),
    startLine,
    endLine,
    totalLines: lines.length,
    ...(endLine < last ? { nextLine: endLine + 1 } : {}),
    warnings: [...new Set(result.warnings)].slice(0, 10),
    totalBytes,
  };
}
