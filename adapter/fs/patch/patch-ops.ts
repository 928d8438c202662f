/**
 * What a patch asks for, whichever format it came in (the apply_patch envelope OpenAI models
 * emit, or a unified diff): per file, add with content, delete, or update by chunks (optionally
 * moving the file). Paths are as written in the patch; the policy resolves them.
 */

export interface PatchChunk {
  /** `@@ <text>` headers before the chunk: lines to find first, in order (a class, a function). */
  anchors: string[];
  /** Context and removed lines, in file order. */
  oldLines: string[];
  /** Context and added lines, in file order. */
  newLines: string[];
  /** Each context line as [index in oldLines, index in newLines]: the file's own version of it is kept. */
  context: Array<[number, number]>;
  /** `*** End of File`: the chunk is at the end of the file. */
  endOfFile: boolean;
  /** Line in the patch text where the chunk starts, for messages. */
  patchLine: number;
}

/**
 * How an updated file ends: apply_patch always ends it with a newline ('add', the default); a
 * unified diff says "\ No newline at end of file" for a side without one, or, when its hunks
 * do not say, leaves the end as it was ('keep').
 */
export type FinalNewline = 'add' | 'remove' | 'keep';

export type PatchOp =
  | { kind: 'add'; path: string; content: string }
  | { kind: 'delete'; path: string }
  | { kind: 'update'; path: string; moveTo?: string; chunks: PatchChunk[]; finalNewline?: FinalNewline };

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
