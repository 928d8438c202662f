/**
 * A presentation's slide text in slide order: the order is presentation.xml's slide list (not
 * the part names), each slide's paragraphs (<a:p>, text in <a:t>, line breaks <a:br>) one a
 * line. Read with fflate and fast-xml-parser; bounded by the container's limits, MAX_PART_BYTES
 * a slide, and maxBytes an answer (nextSlide reads on).
 */
import { adapterError } from '../../contract/errors.js';
import type { PptxFileRead, ReadAsOptions } from '../../contract/files.js';
import { parsedOrRefused, type OfficeZip } from './office-zip.js';
import { attribute, children, findAll, localName, parseXml, relationships, type XNode } from './ooxml-xml.js';
import { MAX_PART_BYTES } from './read-xlsx.js';

const op = 'fs.read';

export function readPptx(zip: OfficeZip, path: string, options: ReadAsOptions, totalBytes: number): Promise<PptxFileRead> {
  return parsedOrRefused(path, 'pptx', () => read(zip, path, options, totalBytes));
}

function read(zip: OfficeZip, path: string, options: ReadAsOptions, totalBytes: number): PptxFileRead {
  const rels = relationships(zip.text('ppt/_rels/presentation.xml.rels'), 'ppt/_rels/presentation.xml.rels', 'ppt');
  const slides = findAll(parseXml(zip.text('ppt/presentation.xml') ?? '', 'ppt/presentation.xml'), 'sldId').map(
    (node) => rels.get(attribute(node, 'r:id') ?? '') ?? '',
  );
  const first = options.pages?.first ?? 1;
  if (first > slides.length) {
    throw adapterError('INVALID_INPUT', op, `${path} has ${slides.length} slide${slides.length === 1 ? '' : 's'}; slide ${first} is past the end`);
  }
  const last = Math.min(options.pages?.last ?? slides.length, slides.length);
  const read: PptxFileRead['slides'] = [];
  let bytes = 0;
  for (let n = first; n <= last && (read.length === 0 || bytes < options.maxBytes); n++) {
    const target = slides[n - 1] ?? '';
    const size = zip.sizes.get(target);
    if (size === undefined) throw new Error(`slide ${n} (${target || 'no part'}) is missing`);
    if (size > MAX_PART_BYTES)
      throw adapterError('INVALID_INPUT', op, `${path} is refused: slide ${n} is ${size} bytes (at most ${MAX_PART_BYTES / (1024 * 1024)} MiB)`);
    const text = paragraphs(parseXml(zip.text(target) ?? '', target)).join('\n');
    read.push({ slide: n, text });
    bytes += Buffer.byteLength(text);
  }
  const lastSlide = first + read.length - 1;
  return {
    kind: 'pptx',
    totalSlides: slides.length,
    slides: read,
    firstSlide: first,
    lastSlide,
    ...(lastSlide < last ? { nextSlide: lastSlide + 1 } : {}),
    totalBytes,
  };
}

/** Each <a:p>'s text, in document order, empty ones left out. */
function paragraphs(nodes: readonly XNode[]): string[] {
  return findAll(nodes, 'p')
    .map((p) => runs(children(p)).trim())
    .filter((text) => text !== '');
}

function runs(nodes: readonly XNode[]): string {
  let text = '';
  for (const node of nodes) {
    const name = localName(node);
    if (name === 't')
      text += children(node)
        .map((t) => String(t['#text'] ?? ''))
        .join('');
    else if (name === 'br') text += '\n';
    else if (name !== 'rPr' && name !== 'pPr') text += runs(children(node));
  }
  return text;
}
