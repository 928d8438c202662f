/**
 * Whether an environment variable's name says its value is a secret, so that a gateway entry must
 * give it by reference to the keyring (sections/gateway.ts) and a pasted entry's value becomes one
 * (pasted-secrets.ts). Judged word by word, the name split at `_`, `-`, `.` and lower-to-upper
 * case changes (`apiKey`: api, key):
 *
 * - a secret word (a number or a plural on its end left out: API_KEY2, API_KEYS): one containing
 *   PASSWORD, PASSWD, PASSPHRASE or CREDENTIAL; one ending with TOKEN, SECRET, KEY or COOKIE
 *   (ACCESSTOKEN, APIKEY, SESSIONCOOKIE); AUTH and words beginning or ending with it (AUTHTOKEN,
 *   AUTHORIZATION, OAUTH), but not AUTHOR or AUTHORITY; SESSION, SESSIONID, BEARER, PAT, PASS,
 *   PWD (not the shell's own PWD), SSHPASS, CREDS, MNEMONIC, DSN, HEADERS, WEBHOOK; TOKENS unless
 *   the name counts them (MAX_TOKENS); the pairs CONNECTION_STRING, SEED_PHRASE, API_HASH;
 * - unless the name's last word says the value is about the secret, not the secret
 *   (`PASSWORD_FILE`, `SESSION_DIR`, `SECRET_NAME`, `TOKEN_TTL`). Not a URL or a header: a
 *   webhook's URL is its secret, and `AUTH_HEADER` may hold `Basic ...`.
 *
 * So `MAX_TOKENS`, `TOKENIZER`, `GIT_AUTHOR_NAME` and `KEYBOARD_LAYOUT` are plain settings, and a
 * value shaped like a known token is a secret under any name (looksLikeToken). The rule leans to
 * calling a name secret: one called so wrongly costs the owner a stored value; the other way, a
 * secret lands in the config file. Not main/policy/argv-redaction.ts's isSecretName: hiding what
 * another program was given may hide too much (MAX_TOKENS included), refusing a setting may not.
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
  'SCOPE',
  'SCOPES',
  'ISSUER',
  'AUDIENCE',
  'DOMAIN',
  'METHOD',
  'PROVIDER',
]);
const EXACT = new Set(['COOKIE', 'SESSION', 'SESSIONID', 'BEARER', 'PAT', 'PASS', 'PWD', 'SSHPASS', 'CREDS', 'MNEMONIC', 'DSN', 'HEADERS', 'WEBHOOK']);
/** Two words that say secret together: MONGODB_CONNECTION_STRING, WALLET_SEED_PHRASE, TELEGRAM_API_HASH. */
const PAIRS = new Set(['CONNECTION STRING', 'SEED PHRASE', 'API HASH']);
/** Words that make TOKENS a count (MAX_TOKENS), not tokens (SLACK_TOKENS). */
const COUNTS = new Set(['MAX', 'MIN', 'NUM', 'TOTAL', 'LIMIT', 'BUDGET', 'CONTEXT', 'INPUT', 'OUTPUT']);

export function isSecretEnvName(name: string): boolean {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toUpperCase()
    .split(/[-_.]+/)
    .filter(Boolean)
    // A number or a plural on the end names one more of the same (API_KEY2, API_KEYS, JWT_SECRETS).
    .map((word) => word.replace(/\d+$/, '').replace(/(KEY|SECRET|COOKIE)S$/, '$1'));
  // A webhook's URL or path is its secret (SLACK_WEBHOOK_URL, WEBHOOK_SECRET_PATH).
  if (words.includes('WEBHOOK')) return true;
  // The shell's working folder.
  if (words.length === 0 || ABOUT.has(words.at(-1)!) || (words.length === 1 && words[0] === 'PWD')) return false;
  if (words.some((word, i) => i > 0 && PAIRS.has(`${words[i - 1]} ${word}`))) return true;
  if (words.includes('TOKENS') && !words.some((word) => COUNTS.has(word))) return true;
  return words.some(isSecretWord);
}

function isSecretWord(word: string): boolean {
  if (EXACT.has(word) || /PASSW(?:OR)?D|PASSPHRASE|CREDENTIAL/.test(word) || /(?:TOKEN|SECRET|KEY|COOKIE)$/.test(word)) return true;
  // AUTH, AUTHTOKEN, AUTHORIZATION, OAUTH; not AUTHOR, AUTHORS, AUTHORITY.
  return word.endsWith('AUTH') || (word.startsWith('AUTH') && (!word.startsWith('AUTHOR') || word.startsWith('AUTHORIZ')));
}
