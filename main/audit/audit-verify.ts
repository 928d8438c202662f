/**
 * `audit verify`: walks the log oldest first and names the first line that was cut or edited.
 * Each line must match its own hash; each chain's lines must count up by one and link to the
 * line before them. In the oldest kept file a chain may start mid-way (its beginning was rotated
 * away). What the file alone cannot show: the newest lines of a chain removed from the end, or
 * a whole log rewritten and re-hashed by someone who can write the owner's files.
 */
import path from 'node:path';
import { openLine } from './audit-line.js';
import { auditFiles, readAuditLines, type StoredLine } from './audit-files.js';

export interface VerifyResult {
  ok: boolean;
  lines: number;
  files: number;
  chains: number;
  /** The first line found cut or edited: where, and what is wrong. */
  problem?: { file: string; line: number; message: string };
}

interface ChainState {
  seq: number;
  hash: string;
  at: StoredLine;
}

export function verifyAuditLog(dir: string): VerifyResult {
  const files = auditFiles(dir);
  const oldest = files[0];
  const chains = new Map<string, ChainState>();
  const known = new Set<string>();
  let lines = 0;
  const result = (problem?: VerifyResult['problem']): VerifyResult => ({
    ok: !problem,
    lines,
    files: files.length,
    chains: chains.size,
    ...(problem ? { problem } : {}),
  });
  for (const stored of readAuditLines(dir)) {
    const where = `${path.basename(stored.file)} line ${stored.number}`;
    const fail = (at: StoredLine, message: string) => result({ file: at.file, line: at.number, message });
    const opened = openLine(stored.text);
    if (!opened.ok) return fail(stored, `${where}: ${opened.why}`);
    const { record } = opened;
    const before = chains.get(record.chain);
    const inOldest = stored.file === oldest;
    if (!before) {
      if (record.seq > 1 && !inOldest) return fail(stored, `${where}: the first ${record.seq - 1} line(s) of its chain ${record.chain} were cut`);
      if (record.seq === 1 && record.prev !== null && !known.has(record.prev) && !inOldest) {
        return fail(stored, `${where}: it links to a line that is no longer in the log (cut or edited)`);
      }
    } else {
      const previous = `${path.basename(before.at.file)} line ${before.at.number}`;
      if (record.seq <= before.seq) return fail(stored, `${where}: repeats line ${record.seq} of chain ${record.chain} (copied or reordered)`);
      if (record.seq > before.seq + 1) {
        return fail(stored, `${where}: ${record.seq - before.seq - 1} line(s) of chain ${record.chain} were cut between ${previous} and it`);
      }
      if (record.prev !== before.hash) return fail(before.at, `${previous}: edited (re-hashed, but ${where} links to what it said before)`);
    }
    chains.set(record.chain, { seq: record.seq, hash: record.hash, at: stored });
    known.add(record.hash);
    lines++;
  }
  return result();
}
