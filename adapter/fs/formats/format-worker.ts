/**
 * Runs one parser over one file in a worker thread (code given as a string, `eval: true`: the
 * CLI is bundled, and the parser's library is loaded by its path inside the worker), within a
 * heap and a time bound. A document that hangs or balloons its parser costs one call, never the
 * server; the worker answers with one message, a result or `{ error, name }`.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { adapterError } from '../../contract/errors.js';

const op = 'fs.read';

export interface WorkerBounds {
  seconds: number;
  heapMb: number;
  /** The file, for errors. */
  path: string;
  /** "a PDF file", "a Word document": for errors. */
  what: string;
  signal?: AbortSignal | undefined;
}

export interface WorkerFailure {
  error: string;
  name?: string;
}

/** A package's entry file as a file: URL, for `import()` inside the worker. */
export function moduleUrl(specifier: string): string {
  return pathToFileURL(createRequire(import.meta.url).resolve(specifier)).href;
}

export function runFormatWorker<T>(code: string, workerData: unknown, bounds: WorkerBounds): Promise<T | WorkerFailure> {
  const { seconds, heapMb, path, what, signal } = bounds;
  const worker = new Worker(code, {
    eval: true,
    workerData,
    resourceLimits: { maxOldGenerationSizeMb: heapMb },
    env: {},
    stdout: true,
    stderr: true,
  });
  return new Promise((resolve, reject) => {
    const end = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', abort);
      void worker.terminate();
    };
    const stop = (error: Error) => {
      end();
      reject(error);
    };
    const timer = setTimeout(() => stop(adapterError('INVALID_INPUT', op, `${path}: reading ${what} took over ${seconds} s; it was stopped`)), seconds * 1000);
    const abort = () => stop(adapterError('PRECONDITION_FAILED', op, 'the request was cancelled'));
    if (signal?.aborted) return abort();
    signal?.addEventListener('abort', abort, { once: true });
    worker.once('message', (message: T | WorkerFailure) => {
      end();
      resolve(message);
    });
    worker.once('error', (error) => {
      const heap = /memory|ERR_WORKER_OUT_OF_MEMORY/i.test(`${(error as NodeJS.ErrnoException).code} ${error.message}`);
      stop(adapterError('INVALID_INPUT', op, `${path} is ${what} that could not be read (${heap ? `it needs over ${heapMb} MB of memory` : error.message})`));
    });
  });
}

export function isFailure(result: unknown): result is WorkerFailure {
  return typeof result === 'object' && result !== null && 'error' in result;
}
