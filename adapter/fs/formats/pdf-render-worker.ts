/**
 * The worker thread's code that renders one PDF page to a PNG with pdf.js on @napi-rs/canvas
 * (run by format-worker.ts). The page is drawn at the largest scale (at most MAX_SCALE, 4x:
 * 288 dpi) whose size keeps within the caller's width, height and pixel limits, so a page with
 * an absurd media box is drawn small, never allocated huge.
 */
export const PDF_RENDER_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
(async () => {
  const pdfjs = await import(workerData.module);
  const { createCanvas } = require(workerData.canvas);
  const doc = await pdfjs.getDocument({
    data: workerData.data, isEvalSupported: false, useSystemFonts: false, useWorkerFetch: false,
    disableAutoFetch: true, verbosity: 0, standardFontDataUrl: workerData.assets + 'standard_fonts/',
    cMapUrl: workerData.assets + 'cmaps/', cMapPacked: true, wasmUrl: workerData.assets + 'wasm/',
  }).promise;
  const total = doc.numPages;
  if (workerData.page > total) return parentPort.postMessage({ total });
  const page = await doc.getPage(workerData.page);
  const base = page.getViewport({ scale: 1 });
  const { maxWidth, maxHeight, maxPixels } = workerData;
  const scale = Math.min(4, maxWidth / base.width, maxHeight / base.height, Math.sqrt(maxPixels / (base.width * base.height)));
  const viewport = page.getViewport({ scale });
  const width = Math.max(1, Math.floor(viewport.width));
  const height = Math.max(1, Math.floor(viewport.height));
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, width, height);
  await page.render({ canvas, canvasContext: context, viewport }).promise;
  const png = await canvas.encode('png');
  parentPort.postMessage({
    total, width, height, pageWidth: Math.round(base.width), pageHeight: Math.round(base.height), png,
  });
  await doc.destroy();
})().catch((error) => parentPort.postMessage({ error: String((error && error.message) || error), name: error && error.name }));
`;
