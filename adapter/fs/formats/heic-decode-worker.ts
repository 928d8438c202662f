/**
 * The worker thread's code that decodes the first image of a HEIC file to RGBA with heic-decode
 * (libheif compiled to WebAssembly; run by format-worker.ts): sharp's libvips has no HEVC
 * decoder. The dimensions are checked against the pixel bound before a pixel is decoded, and
 * the pixels come back as a transferred buffer, never copied.
 */
export const HEIC_DECODE_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
(async () => {
  const decode = require(workerData.module);
  const images = await decode.all({ buffer: new Uint8Array(workerData.data) });
  try {
    const first = images[0];
    if (!first) throw new Error('it holds no image');
    if (first.width * first.height > workerData.maxPixels || !(first.width > 0 && first.height > 0)) {
      return parentPort.postMessage({ claims: { width: first.width, height: first.height } });
    }
    const { width, height, data } = await first.decode();
    parentPort.postMessage({ width, height, data }, [data.buffer]);
  } finally {
    images.dispose();
  }
})().catch((error) => parentPort.postMessage({ error: String((error && error.message) || error), name: error && error.name }));
`;
