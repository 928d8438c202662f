/**
 * The code of the worker thread that runs pdf.js over one document, as a string for
 * `new Worker(code, { eval: true })`: the worker needs no compiled file of its own (the CLI is
 * bundled), and the thread can be terminated, so a document that hangs or balloons pdf.js costs
 * one call, within a time and heap bound, never the server.
 */
export const PDF_TEXT_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
(async () => {
  const pdfjs = await import(workerData.module);
  const task = pdfjs.getDocument({
    data: workerData.data, isEvalSupported: false, disableFontFace: true, useSystemFonts: false,
    useWorkerFetch: false, disableAutoFetch: true, verbosity: 0,
  });
  const doc = await task.promise;
  const total = doc.numPages;
  if (workerData.first > total) return parentPort.postMessage({ total, pages: [] });
  const last = Math.min(workerData.last || total, total);
  const pages = [];
  let bytes = 0;
  for (let n = workerData.first; n <= last && bytes < workerData.maxBytes; n++) {
    const page = await doc.getPage(n);
    const content = await page.getTextContent();
    let text = '';
    for (const item of content.items) if (typeof item.str === 'string') text += item.str + (item.hasEOL ? '\\n' : '');
    pages.push({ page: n, text: text.trim() });
    bytes += Buffer.byteLength(text);
    page.cleanup();
  }
  parentPort.postMessage({ total, pages });
  await doc.destroy();
})().catch((error) => parentPort.postMessage({ error: String((error && error.message) || error), name: error && error.name }));
`;
