/**
 * What of a pasted entry (pasted-entry.ts) is secret and must not reach the config file: README
 * snippets put keys in env values (a token, `Bearer ...` inside a JSON header value, a connection
 * string's password, a PEM key, a JWT), in arguments (`--api-key VALUE`, `-e DB_PASSWORD=...`,
 * `--header "x-api-key: ..."`, a URL's `?api_key=`) and in placeholders' defaults
 * (`${API_KEY:-sk-...}`), which are shown and written without their default.
 *
 * Every pattern is bounded or anchored to a literal, and a value longer than MAX_JUDGED is taken
 * as secret unread: a paste of a megabyte costs linear time (the settings page parses on its
 * main thread).
 */
import { inlineSecret, looksLikeToken, NOT_COPIED } from './schema.js';

export { NOT_COPIED };

/**
 * A value its host fills in when it starts the server: VS Code's and Cursor's `${input:id}`,
 * `${env:NAME}`, `${workspaceFolder}`; Claude Code's `${NAME:-default}` (and the shell's `-`, `=`).
 */
export const PLACEHOLDER = /\$\{(?:(?:input|env):[^{}$]{0,200}|[A-Za-z_]\w{0,100}(?::?[-=][^{}$]{0,1000})?)\}/;
const DEFAULTS = /\$\{([A-Za-z_]\w{0,100}):?[-=][^{}$]{0,1000}\}/g;
/** The editor's own variables: paths, not secrets (written as they are, for the owner to replace). */
const EDITOR_VARIABLE = /^\$\{(?:workspaceFolder|workspaceFolderBasename|userHome|HOME|cwd|pathSeparator|fileDirname)\}/;
/** Longer than this, a value is not read for secrets: it is taken as one (a key file's text, a JSON config). */
const MAX_JUDGED = 4096;

/** A URL's password (a connection string's; Redis writes no user): replaced, the rest kept. */
const USERINFO = /\b([a-z][a-z0-9+.-]{0,20}:\/\/[^\s/:@]{0,128}:)[^\s/@]{1,256}@/gi;
/** Secret shapes beyond the config's own check (config/sections/gateway.ts): anywhere in a value. */
const SECRET_SHAPES = [
  /\bBearer\s{1,4}[A-Za-z0-9._~+/=-]{12}/,
  /\bBasic\s{1,4}[A-Za-z0-9+/]{8}/,
  /-----BEGIN [A-Z ]{0,40}PRIVATE KEY-----/,
  /\beyJ[A-Za-z0-9_-]{8,512}\.eyJ/,
  /\b(?:hf|npm|ntn|lin_api|secret|pat|shpat|dop_v1|sk_test|rk_test|gsk|r8|figd|sbp)_[A-Za-z0-9]{16}/,
  /\b(?:pplx|tvly|fc|pypi)-[A-Za-z0-9_-]{16}/,
  /\bATATT[A-Za-z0-9_=-]{20}/,
  /\bxapp-\d-[A-Za-z0-9-]{10}/,
  /\bhttps:\/\/hooks\.slack\.com\/services\//,
  /\bhttps:\/\/(?:[a-z]+\.)?discord(?:app)?\.com\/api\/webhooks\//,
  /\b[a-z][a-z0-9+.-]{0,20}:\/\/[^\s/:@]{0,128}:[^\s/@]{1,256}@/i,
  // A password or key as a URL's query or fragment, or libpq's `password=...`.
  /(?:^|[\s?&#;])(?:password|passwd|pwd|pass|api[-_]?key|apikey|access[-_]?token|token|secret|key|sig)=[^\s&#]/i,
];
/** An argument naming a secret, whose next argument is its value. */
const SECRET_FLAG =
  /^--?(?:[a-z0-9]+[-_]){0,4}(?:api[-_]?key|access[-_]?key|secret(?:[-_]key)?|token|passw(?:or)?d|pwd|passphrase|bearer|auth(?:[-_]token)?)$/i;
/** An argument that names a header (`-H`, `--header`), whose value is `Name: value`. */
const HEADER_FLAG = /^(?:-H|--headers?)$/;
/** `NAME=value` in an argument (`-e DB_PASSWORD=...`, `--env=KEY=...`, a shell line): judged by the name as env is. */
const ASSIGNMENT = /(?:^|[\s'"=])([A-Za-z_][A-Za-z0-9_]{0,100})=([^\s'"]{1,1024})/g;

/** The text with each placeholder's default left out: a default is often the very key. */
export function withoutDefaults(text: string): string {
  return text.replace(DEFAULTS, '${$1}');
}

/** Whether an env value must become a reference: it looks secret, or its host fills it in (not an editor path). */
export function secretValue(name: string, value: string): 'secret' | 'filled' | null {
  if (value.length > MAX_JUDGED) return 'secret';
  if (PLACEHOLDER.test(value) && !EDITOR_VARIABLE.test(value)) return 'filled';
  return inlineSecret(name, withoutDefaults(value)) || secretText(value) ? 'secret' : null;
}

/** Whether a word of a command line holds a secret, by its shape or an assignment's name. */
export function secretText(text: string): boolean {
  if (text.length > MAX_JUDGED) return true;
  if (looksLikeToken(text) || SECRET_SHAPES.some((shape) => shape.test(text))) return true;
  for (const [, name, value] of text.matchAll(ASSIGNMENT)) if (inlineSecret(name!, value!)) return true;
  return false;
}

/** The arguments with every secret value replaced by NOT_COPIED (and placeholders' defaults left out); `replaced` counts them. */
export function withoutSecretArgs(args: readonly string[]): { args: string[]; replaced: number } {
  let replaced = 0;
  const hide = (text: string) => (replaced++, text);
  const out = args.map((given, i) => {
    // A placeholder's default is left out first: what remains is judged.
    const arg = withoutDefaults(given);
    const before = i > 0 ? args[i - 1]! : '';
    if (SECRET_FLAG.test(before) && !arg.startsWith('-')) return hide(NOT_COPIED);
    const eq = arg.startsWith('-') ? arg.indexOf('=') : -1;
    const flag = eq > 0 ? arg.slice(0, eq + 1) : '';
    if (eq > 0 && eq < arg.length - 1 && SECRET_FLAG.test(arg.slice(0, eq))) return hide(`${flag}${NOT_COPIED}`);
    if (HEADER_FLAG.test(before) && secretHeader(arg)) return hide(NOT_COPIED);
    if (arg.length <= MAX_JUDGED && arg.replace(USERINFO, '') !== arg && !secretText(arg.replace(USERINFO, '')))
      return hide(arg.replace(USERINFO, `$1${NOT_COPIED}@`));
    if (secretText(arg)) return hide(`${flag}${NOT_COPIED}`);
    return arg;
  });
  return { args: out, replaced };
}

/** A header line (`x-api-key: ...`, `Authorization: Bearer ...`) whose name says secret or whose value looks it. */
function secretHeader(line: string): boolean {
  const colon = line.indexOf(':');
  if (colon <= 0) return false;
  const name = line.slice(0, colon).trim().replace(/-/g, '_');
  const value = line.slice(colon + 1).trim();
  return inlineSecret(name, value) || secretText(value);
}
