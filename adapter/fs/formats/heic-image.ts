/** A HEVC-coded HEIF image (HEIC) to RGBA pixels, in a worker within a heap and a time bound (heic-decode-worker.ts). */
import { adapterError } from '../../contract/errors.js';
import { isFailure, moduleUrl, runFormatWorker } from './format-worker.js';
import { HEIC_DECODE_WORKER } from './heic-decode-worker.js';
import { fileURLToPath } from 'node:url';

/** The JavaScript heap of the worker; the decoded pixels live outside it (at most 4 bytes a pixel of the bound). */
const HEAP_MB = 256;
const op = 'fs.read';

export type HeicPixels = { width: number; height: number; data: Uint8Array } | { claims: { width: number; height: number } };

export async function decodeHeic(
  input: Buffer,
  bounds: { path: string; maxPixels: number; seconds: number; signal?: AbortSignal | undefined },
): Promise<HeicPixels> {
  // A copy the worker owns: the file's bytes are not shared with another thread.
  const data = new Uint8Array(input);
  const workerData = { module: fileURLToPath(moduleUrl('heic-decode')), data, maxPixels: bounds.maxPixels };
  const result = await runFormatWorker<HeicPixels>(HEIC_DECODE_WORKER, workerData, {
    seconds: bounds.seconds,
    heapMb: HEAP_MB,
    path: bounds.path,
    what: 'a HEIC image',
    signal: bounds.signal,
  });
  if (isFailure(result)) {
    throw adapterError('INVALID_INPUT', op, `${bounds.path} is a HEIC file that could not be read as an image (${result.error}); nothing was returned`);
  }
  return 'claims' in result ? result : { ...result, data: new Uint8Array(result.data.buffer, result.data.byteOffset, result.data.byteLength) };
}
