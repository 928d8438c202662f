/**
 * Searching the log, one way for the CLI, the tray and the audit tools: terms `tool=`,
 * `client=`, `outcome=`, `since=`, `until=` (ISO dates or times) narrow it, any other word must
 * appear in the line (case-insensitive), and the newest `limit` matches are kept, oldest first.
 */
import { openLine, type SealedRecord } from './audit-line.js';
import { readAuditLines } from './audit-files.js';
import type { Caller } from '../mcp/caller.js';
import type { AuditQuery } from '../mcp/tool.js';
import { targetText } from './redacted-target.js';

export type { AuditQuery } from '../mcp/tool.js';

export const QUERY_KEYS = ['tool', 'client', 'outcome', 'since', 'until', 'limit'] as const;

/** `tool=fs_read since=2026-12-01 notes` → a query; an unknown key or a bad value is an error naming what is allowed. */
export function parseQuery(terms: readonly string[]): AuditQuery {
  const query: AuditQuery & { words: string[] } = { words: [] };
  for (const term of terms) {
    const eq = term.indexOf('=');
    const key = eq > 0 ? term.slice(0, eq) : '';
    if (!(QUERY_KEYS as readonly string[]).includes(key)) {
      if (eq > 0 && /^[a-z]+$/.test(key)) throw new Error(`unknown search key "${key}": use ${QUERY_KEYS.map((k) => `${k}=`).join(', ')} or plain words`);
      query.words.push(term);
      continue;
    }
    const value = term.slice(eq + 1);
    if (key === 'limit') {
      if (!/^\d{1,6}$/.test(value) || Number(value) < 1) throw new Error(`limit=${value}: expected a number from 1 to 999999`);
      query.limit = Number(value);
    } else if (key === 'since' || key === 'until') {
      if (Number.isNaN(Date.parse(value))) throw new Error(`${key}=${value}: expected an ISO date or time (2026-12-04 or 2026-12-04T09:30:00Z)`);
      query[key] = new Date(value).toISOString();
    } else query[key as 'tool' | 'client' | 'outcome'] = value;
  }
  return query;
}

export function matches(record: SealedRecord, text: string, query: AuditQuery): boolean {
  if (query.tool && record.tool !== query.tool && record.tool.replace(/_/g, '.') !== query.tool.replace(/_/g, '.')) return false;
  if (query.outcome && record.outcome.toLowerCase() !== query.outcome.toLowerCase()) return false;
  if (query.client && !callerText(record.client).toLowerCase().includes(query.client.toLowerCase())) return false;
  if (query.since && record.time < query.since) return false;
  if (query.until && record.time > query.until) return false;
  const lower = text.toLowerCase();
  return (query.words ?? []).every((word) => lower.includes(word.toLowerCase()));
}

/** The matching lines, oldest first; lines that are not sealed audit lines are skipped (verify names them). */
export function searchAuditLog(dir: string, query: AuditQuery = {}): SealedRecord[] {
  const found: SealedRecord[] = [];
  const limit = query.limit ?? Infinity;
  for (const { text } of readAuditLines(dir)) {
    const opened = openLine(text);
    if (!opened.ok || !matches(opened.record, text, query)) continue;
    found.push(opened.record);
    if (found.length > limit) found.shift();
  }
  return found;
}

export function callerText(caller: Caller): string {
  if (caller.kind === 'oauth') return `${caller.name} (OAuth ${caller.id})`;
  if (caller.kind === 'token') return 'bearer token';
  return caller.name ? `${caller.name}${caller.version ? ` ${caller.version}` : ''}` : 'unnamed host';
}

/** Who called, and under which profile when the line names one. */
export function callerWithProfile(record: SealedRecord): string {
  return `${callerText(record.client)}${record.profile ? ` (profile ${record.profile})` : ''}`;
}

/** One line for people: time, tool, outcome, duration, who, and the redacted target. */
export function formatRecord(record: SealedRecord): string {
  const args = targetText(record.args);
  return `${record.time}  ${record.tool}  ${record.outcome}  ${record.ms}ms  by ${callerWithProfile(record)}${args ? `  ${args}` : ''}`;
}
