/**
 * Whether an environment variable's name says its value is a secret, so that a gateway entry must
 * give it by reference to the keyring (sections/gateway.ts) and a pasted entry's value becomes one
 * (pasted-secrets.ts). Judged word by word, the name split at `_`, `-`, `.` and lower-to-upper
 * case changes (`apiKey`: api, key):
 *
 * - a secret word: one containing PASSWORD, PASSWD, PASSPHRASE or CREDENTIAL; one ending with
 *   TOKEN, SECRET or KEY (ACCESSTOKEN, APIKEY); AUTH and words beginning or ending with it
 *   (AUTHTOKEN, AUTHORIZATION, OAUTH), but not AUTHOR or AUTHORITY; COOKIE, SESSION, SESSIONID,
 *   BEARER, PAT;
 * - unless the name's last word says the value is about the secret, not the secret
 *   (`PASSWORD_FILE`, `SESSION_DIR`, `SECRET_NAME`, `TOKEN_TTL`). Not a URL or a header: a
 *   webhook's URL is its secret, and `AUTH_HEADER` may hold `Basic ...`.
 *
 * So `MAX_TOKENS`, `TOKENIZER`, `GIT_AUTHOR_NAME` and `KEYBOARD_LAYOUT` are plain settings, and a
 * value shaped like a known token is a secret under any name (looksLikeToken). The rule leans to
 * calling a name secret: one called so wrongly costs the owner a stored value; the other way, a
 * secret lands in the config file.
 */

/** Last words that make a name one of a setting about a secret: where it is kept, what it is called, how long it lasts. */
const ABOUT = new Set([
  'HOST',
  'PORT',
  'DIR',
  'PATH',
  'FILE',
  'NAME',
  'TYPE',
  'MODE',
  'PREFIX',
  'TIMEOUT',
  'TTL',
  'EXPIRY',
  'LIFETIME',
  'LENGTH',
  'SIZE',
  'COUNT',
  'LIMIT',
  'ENABLED',
  'DISABLED',
  'REQUIRED',
  'FORMAT',
  'ALGORITHM',
]);
const EXACT = new Set(['COOKIE', 'SESSION', 'SESSIONID', 'BEARER', 'PAT']);

export function isSecretEnvName(name: string): boolean {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toUpperCase()
    .split(/[-_.]+/)
    .filter(Boolean);
  if (words.length === 0 || ABOUT.has(words.at(-1)!)) return false;
  return words.some(isSecretWord);
}

function isSecretWord(word: string): boolean {
  if (EXACT.has(word) || /PASSW(?:OR)?D|PASSPHRASE|CREDENTIAL/.test(word) || /(?:TOKEN|SECRET|KEY)$/.test(word)) return true;
  // AUTH, AUTHTOKEN, AUTHORIZATION, OAUTH; not AUTHOR, AUTHORS, AUTHORITY.
  return word.endsWith('AUTH') || (word.startsWith('AUTH') && (!word.startsWith('AUTHOR') || word.startsWith('AUTHORIZ')));
}
