/**
 * The activity view's audit list: the window's search terms become an audit query (the CLI's
 * words: tool=, client=, outcome=, since=, until=, plain words), answered from the log in the
 * app folder, newest first and bounded. Electron-free; the IPC handler only passes the terms.
 */
import { auditDir } from '../audit/audit-files.js';
import { callerWithProfile, parseQuery, searchAuditLog } from '../audit/audit-query.js';
import { targetText } from '../audit/redacted-target.js';
import type { AuditSearchResult } from './bridge-api.js';

export const AUDIT_ROWS = 100;

export function searchAuditForWindow(appDir: string, terms: string): AuditSearchResult {
  const folder = auditDir(appDir);
  try {
    const query = parseQuery(terms.split(/\s+/).filter(Boolean));
    const limit = Math.min(query.limit ?? AUDIT_ROWS, AUDIT_ROWS);
    const rows = searchAuditLog(folder, { ...query, limit })
      .reverse()
      .map((record) => ({
        key: `${record.chain}:${record.seq}`,
        time: record.time,
        tool: record.tool,
        client: callerWithProfile(record),
        target: targetText(record.args),
        outcome: record.outcome,
        durationMs: record.ms,
      }));
    return { ok: true, rows, limit, folder };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}
