/**
 * One audit line: a JSON object per tool call, sealed with the SHA-256 of its own text and
 * linked to the line before it in its chain. Each server process writes one chain (several can
 * share the log: the tray, and a stdio server per host), so `chain` names the writer and `seq`
 * counts its lines; `prev` is the hash of the chain's previous line, and a chain's first line
 * links to the log's last line when it opened. An edited line no longer matches its own hash
 * (or, re-hashed, its successor's `prev`); a cut line leaves a gap in `seq` and in the links.
 */
import { hash } from 'node:crypto';
import type { Caller } from '../mcp/caller.js';
import type { RedactedTarget } from './redacted-target.js';

export interface AuditRecord {
  v: 1;
  chain: string;
  seq: number;
  /** ISO 8601, when the call started. */
  time: string;
  client: Caller;
  /** The profile the caller's credential got (absent in lines written before profiles). */
  profile?: string;
  /** As the client called it (fs_read). */
  tool: string;
  /** The redacted target (redacted-target.ts): never contents, output or secrets. */
  args: RedactedTarget;
  /** 'ok' or the stable error code. */
  outcome: string;
  ms: number;
  prev: string | null;
}

export type SealedRecord = AuditRecord & { hash: string };

const SEAL = /,"hash":"([0-9a-f]{64})"\}$/;

export function sha256(text: string): string {
  return hash('sha256', text, 'hex'); // one-shot: no Hash object per line
}

/** The line to append (without its newline) and its hash, which the chain's next line names. */
export function sealLine(record: AuditRecord): { line: string; hash: string } {
  const body = JSON.stringify(record);
  const hash = sha256(body);
  return { line: `${body.slice(0, -1)},"hash":"${hash}"}`, hash };
}

export type OpenedLine = { ok: true; record: SealedRecord } | { ok: false; why: string };

/** Parses a line and checks it against its own hash. */
export function openLine(line: string): OpenedLine {
  const seal = SEAL.exec(line);
  if (!seal) return { ok: false, why: 'it is not a sealed audit line' };
  const body = `${line.slice(0, seal.index)}}`;
  if (sha256(body) !== seal[1]) return { ok: false, why: 'its text does not match its hash (edited)' };
  let record: SealedRecord;
  try {
    record = JSON.parse(line) as SealedRecord;
  } catch {
    return { ok: false, why: 'it is not JSON' };
  }
  if (record.v !== 1 || typeof record.chain !== 'string' || !Number.isInteger(record.seq)) return { ok: false, why: 'it lacks chain or seq' };
  return { ok: true, record };
}
