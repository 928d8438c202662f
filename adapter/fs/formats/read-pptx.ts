/**
 * A presentation's slide text in slide order: the order is presentation.xml's slide list (not
 * the part names), each slide's paragraphs (<a:p>, text in <a:t>, line breaks <a:br>) one a
 * line. Read with fflate and sax; bounded by the container's limits, MAX_PART_BYTES
 * a slide, and maxBytes an answer (nextSlide reads on).
 */
import { adapterError } from '../../contract/errors.js';
import type { PptxFileRead, ReadAsOptions } from '../../contract/files.js';
import { parsedOrRefused, type OfficeZip } from './office-zip.js';
import { relationships, scanXml } from './ooxml-xml.js';
import { MAX_PART_BYTES } from './read-xlsx.js';

const op = 'fs.read';

export function readPptx(zip: OfficeZip, path: string, options: ReadAsOptions, totalBytes: number): Promise<PptxFileRead> {
  return parsedOrRefused(path, 'pptx', () => read(zip, path, options, totalBytes));
}

async function read(zip: OfficeZip, path: string, options: ReadAsOptions, totalBytes: number): Promise<PptxFileRead> {
  const rels = await relationships(zip.text('ppt/_rels/presentation.xml.rels'), 'ppt/_rels/presentation.xml.rels', 'ppt');
  const slides: string[] = [];
  await scanXml(zip.text('ppt/presentation.xml') ?? '', 'ppt/presentation.xml', {
    open(name, attributes) {
      if (name === 'sldId') slides.push(rels.get(attributes['r:id'] ?? '') ?? '');
    },
  });
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
    const text = (await paragraphs(zip.text(target) ?? '', target)).join('\n');
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

/** Each <a:p>'s text (runs' <a:t>, <a:br> a line break), in document order, empty ones left out. */
async function paragraphs(xml: string, part: string): Promise<string[]> {
  const found: string[] = [];
  let current: string | undefined;
  let inText = false;
  await scanXml(xml, part, {
    open(name) {
      if (name === 'p') current = '';
      else if (name === 't') inText = current !== undefined;
      else if (name === 'br' && current !== undefined) current += '\n';
    },
    close(name) {
      if (name === 't') inText = false;
      else if (name === 'p' && current !== undefined) {
        if (current.trim()) found.push(current.trim());
        current = undefined;
      }
    },
    text(text) {
      if (inText && current !== undefined) current += text;
    },
  });
  return found;
}
