/**
 * A group as this process knows it: its records (one per line of records.jsonl) folded into the
 * first pre-image and the last stamp of each path, the first and last state of each repository,
 * and a summary of it in a line. The files themselves are journal-files.ts's.
 */
import { undonePartly, type GroupSummary, type UndoOutcome } from '../../contract/journal.js';
import type { RepositoryState } from '../../contract/git.js';
import { withEarlierImages } from './earlier-images.js';
import { fullyKept, type Image, type Stamp } from './images.js';

export type JournalRecord =
  | { k: 'pre'; t: string; p: string; i: Image; w: Stamp; at: string }
  /** `h`: a linked pre-image's seal, with the path's first stamp after the change. */
  /** `c`: the sha256 of the file as the tool wrote it, when the writer said. */
  | { k: 'post'; t: string; p: string; s: Stamp; h?: Stamp; c?: string; at: string }
  | { k: 'git'; t: string; r: string; b: RepositoryState; a: RepositoryState; at: string };

export interface GroupMeta {
  id: string;
  client: string;
  startedAt: string;
}

export interface RecordedPath {
  pre: Image;
  /** What it was when the pre-image was taken, to leave out paths a call did not change after all. */
  was: Stamp;
  post: Stamp | null;
  /** Undo would remove a folder here (it was nothing, or a folder taken whole, or a folder replaced a file or link): its stamp covers everything in it. */
  tree: boolean;
  /** A linked pre-image's stamp once the change was done. */
  seal?: Stamp;
  /** The post-change sha256 of a file the writer wrote (its last change), for undo to tell an edit in the same clock tick. */
  sha?: string;
  /** A folder taken whole later, whose pre-image holds this path's (earlier-images.ts): undo puts it back with that folder. */
  within?: string;
  /** The tool whose change to it was the last. */
  by?: string;
}

export interface FoldedGroup {
  meta: GroupMeta;
  paths: Map<string, RecordedPath>;
  repositories: Map<string, { tools: string[]; before: RepositoryState; after: RepositoryState }>;
  tools: string[];
  lastAt: string;
  bytes: number;
  undo?: UndoOutcome;
  /** Bytes of records.jsonl read (all there were, or of an undone group those its undo read: late-records.ts). */
  recordBytes?: number;
}

export function fold(group: FoldedGroup, record: JournalRecord): void {
  if (!group.tools.includes(record.t)) group.tools.push(record.t);
  if (record.at > group.lastAt) group.lastAt = record.at;
  if (record.k === 'pre') {
    if (!group.paths.has(record.p)) {
      const pre = withEarlierImages(record.p, record.i, group.paths);
      group.paths.set(record.p, { pre, was: record.w, post: null, tree: removesFolder(pre) });
    }
  } else if (record.k === 'post') {
    const known = group.paths.get(record.p);
    if (known) {
      known.post = record.s;
      // Only the last change's: an older hash would call the model's own later change the owner's.
      if (record.c) known.sha = record.c;
      else delete known.sha;
      known.by = record.t;
    }
    // A folder that replaced what undo puts back: its fingerprint was taken, and is kept current.
    if (known && record.s.type === 'directory' && record.s.tree !== undefined) known.tree = true;
    if (known && record.h && !known.seal) known.seal = record.h;
  } else {
    const known = group.repositories.get(record.r);
    if (!known) group.repositories.set(record.r, { tools: [record.t], before: record.b, after: record.a });
    else {
      if (!known.tools.includes(record.t)) known.tools.push(record.t);
      known.before = { ...known.before, refs: { ...record.b.refs, ...known.before.refs } };
      known.after = { ...record.a, refs: { ...known.after.refs, ...record.a.refs } };
    }
  }
}

/** Undo takes away whatever is at the path (it was nothing), or puts a whole folder back. */
export function removesFolder(pre: Image): boolean {
  return pre.type === 'absent' || (pre.type === 'directory' && (pre.entries !== undefined || pre.why !== undefined));
}

/** Whether undo, putting `pre` back, takes away a folder that is there now (all but a folder's mode put back on it). */
export function replacesFolder(pre: Image): boolean {
  return pre.type !== 'directory' || removesFolder(pre);
}

/** A group in a line: who, when, which tools, how many paths and repositories, and whether it was undone. */
export function summarize(group: FoldedGroup, damaged = false): GroupSummary {
  const changed = [...group.paths.values()].filter((p) => p.post !== null && p.within === undefined);
  const state = damaged ? 'damaged' : group.undo ? (undonePartly(group.undo) ? 'partly undone' : 'undone') : 'open';
  return {
    id: group.meta.id,
    client: group.meta.client,
    startedAt: group.meta.startedAt,
    lastAt: group.lastAt,
    tools: group.tools,
    files: changed.length,
    repositories: group.repositories.size,
    notKept: changed.filter((p) => !fullyKept(p.pre).kept).length,
    state,
    bytes: group.bytes,
  };
}
