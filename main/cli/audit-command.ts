/**
 * `chatgpt-mcp audit tail [N] | search TERMS | export [TERMS] | verify`: the audit log in the
 * app folder (main/audit/), read through the same owned-state checks the server writes it with.
 * tail and search print one line per call for people; export prints the stored JSON lines
 * (sealed, so a copy can be verified); verify names the first line cut or edited.
 */
import { auditDir } from '../audit/audit-files.js';
import { formatRecord, parseQuery, searchAuditLog, type AuditQuery } from '../audit/audit-query.js';
import { verifyAuditLog } from '../audit/audit-verify.js';
import { OwnedStateError } from '../config/owned-state.js';
import { stateDir } from '../host/places.js';
import { EXIT, print, say, usageError } from './io.js';

const DEFAULT_TAIL = 20;
const DEFAULT_SEARCH = 50;
/** verify's exit code when the log was cut or edited (distinct from a usage or config error). */
export const EXIT_TAMPERED = 1;

export function auditCommand(sub: string | undefined, terms: readonly string[]): number {
  const dir = auditDir(stateDir());
  try {
    switch (sub) {
      case 'tail': {
        if (terms.length > 1 || (terms[0] !== undefined && !/^\d{1,6}$/.test(terms[0]))) return usageError('audit tail takes one number: how many calls');
        return show(searchAuditLog(dir, { limit: Number(terms[0] ?? DEFAULT_TAIL) }).map(formatRecord), dir);
      }
      case 'search': {
        if (terms.length === 0) return usageError('audit search needs terms: tool=NAME, client=NAME, outcome=CODE, since=DATE, until=DATE, limit=N, or words');
        const query = queryOf(terms);
        return typeof query === 'number' ? query : show(searchAuditLog(dir, { limit: DEFAULT_SEARCH, ...query }).map(formatRecord), dir);
      }
      case 'export': {
        const query = queryOf(terms);
        if (typeof query === 'number') return query;
        for (const record of searchAuditLog(dir, query)) process.stdout.write(`${JSON.stringify(record)}\n`);
        return EXIT.ok;
      }
      case 'verify':
        return verify(dir, terms);
      default:
        return usageError(
          sub === undefined ? 'audit needs one of tail, search, export, verify' : `unknown audit command "${sub}" (tail, search, export, verify)`,
        );
    }
  } catch (error) {
    if (!(error instanceof OwnedStateError)) throw error;
    say(error.message);
    return EXIT.config;
  }
}

function queryOf(terms: readonly string[]): AuditQuery | number {
  try {
    return parseQuery(terms);
  } catch (error) {
    return usageError((error as Error).message);
  }
}

function show(lines: string[], dir: string): number {
  if (lines.length === 0) say(`no calls recorded in ${dir}`);
  else print(lines.join('\n'));
  return EXIT.ok;
}

function verify(dir: string, terms: readonly string[]): number {
  if (terms.length > 0) return usageError(`unexpected argument "${terms[0]}"`);
  const result = verifyAuditLog(dir);
  if (result.problem) {
    say(`the audit log in ${dir} was changed: ${result.problem.message}`);
    return EXIT_TAMPERED;
  }
  return print(`ok: ${result.lines} lines in ${result.files} file(s), ${result.chains} chain(s), none cut or edited (${dir})`);
}
