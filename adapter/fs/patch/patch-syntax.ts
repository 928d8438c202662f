/** What both patch parsers share: how a context line is recorded, and the error for a malformed patch. */
import type { PatchChunk } from '../../contract/files.js';

/** A context line: in both the old and the new lines, at positions that are remembered. */
export function addContext(chunk: PatchChunk, line: string): void {
  chunk.context.push([chunk.oldLines.length, chunk.newLines.length]);
  chunk.oldLines.push(line);
  chunk.newLines.push(line);
}

export class PatchSyntaxError extends Error {
  override name = 'PatchSyntaxError';
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(`line ${line}: ${message}`);
  }
}
