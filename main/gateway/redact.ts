/**
 * What an upstream says on stderr reaches a model (a dead upstream's errors quote its last line)
 * and the tray: credentials it may print are taken out first. The resolved secret values are
 * scrubbed by the caller; this catches what the server never knew (the upstream's own tokens).
 */
import { looksLikeToken } from '../config/schema.js';

const ASSIGNED =
  /\b([A-Za-z0-9_-]*(?:token|secret|passw(?:or)?d|api[_-]?key|auth(?:orization)?|cookie|session)[A-Za-z0-9_-]*)(\s*[=:]\s*)("[^"]*"|'[^']*'|\S+)/gi;
/** Header-like names followed by their value after a space alone (`x-api-key abc123`). */
const SPACED = /\b(x-[A-Za-z0-9-]*(?:key|token)|api[_-]?key|cookie)(\s+)(?![=:])(\S+)/gi;
const BEARER = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi;
/** A URL's user and password, or a token written as its user alone (https://ghp_x@host). */
const URL_CREDENTIALS = /(\w+:\/\/)[^/\s@]+@/g;

export function redactLine(line: string): string {
  const words = line
    .replace(URL_CREDENTIALS, '$1<redacted>@')
    .replace(BEARER, '$1 <redacted>')
    .replace(ASSIGNED, '$1$2<redacted>')
    .replace(SPACED, '$1$2<redacted>')
    .split(/(\s+)/);
  return words.map((word) => (looksLikeToken(word) ? '<redacted>' : word)).join('');
}
