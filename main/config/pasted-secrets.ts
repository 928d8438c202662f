/**
 * What of a pasted entry (pasted-entry.ts) is secret and must not reach the config file: README
 * snippets put keys in env values (a token, `Bearer ...` inside a JSON header value, a connection
 * string's password, a PEM key, a JWT), in arguments (`--api-key VALUE`) and in placeholders'
 * defaults (`${API_KEY:-sk-...}`), which are shown and written without their default.
 */
import { inlineSecret, looksLikeToken } from './schema.js';

/**
 * A value its host fills in when it starts the server: VS Code's and Cursor's `${input:id}`,
 * `${env:NAME}`, `${workspaceFolder}`; Claude Code's `${NAME:-default}`. Bounded, so a paste of
 * thousands of `${env:` costs linear time.
 */
export const PLACEHOLDER = /\$\{(?:(?:input|env):[^{}$]{0,200}|[A-Za-z_]\w{0,100}(?::-[^{}$]{0,1000})?)\}/;
const DEFAULTS = /\$\{([A-Za-z_]\w{0,100}):-[^{}$]{0,1000}\}/g;
/** The editor's own variables: paths, not secrets (written as they are, for the owner to replace). */
const EDITOR_VARIABLE = /^\$\{(?:workspaceFolder|workspaceFolderBasename|userHome|HOME|cwd|pathSeparator|fileDirname)\}/;

/** Secret shapes beyond the config's own check (config/sections/gateway.ts): anywhere in a value. */
const SECRET_SHAPES = [
  /\b(?:Bearer|Basic|Token)\s+[A-Za-z0-9._~+/=-]{8,}/i,
  /-----BEGIN [A-Z ]*PRIVATE KEY-----/,
  /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\./,
  /\b(?:hf|npm|ntn|lin_api|secret|pat|xapp|shpat|dop_v1)_[A-Za-z0-9]{16,}/,
  /\bhttps:\/\/hooks\.slack\.com\/services\/\S+/,
  /[a-z][a-z0-9+.-]*:\/\/[^\s/:@]+:[^\s/@]+@/i,
];
/** An argument naming a secret, whose next argument is its value. */
const SECRET_FLAG = /^--?(?:[a-z-]*(?:api[-_]?key|token|secret|passw(?:or)?d|credentials?)|key|pass)$/i;

export const NOT_COPIED = 'SECRET-NOT-COPIED';

/** The text with each placeholder's default left out: a default is often the very key. */
export function withoutDefaults(text: string): string {
  return text.replace(DEFAULTS, '${$1}');
}

/** Whether an env value must become a reference: it looks secret, or its host fills it in (not an editor path). */
export function secretValue(name: string, value: string): 'secret' | 'filled' | null {
  if (PLACEHOLDER.test(value) && !EDITOR_VARIABLE.test(value)) return 'filled';
  if (inlineSecret(name, withoutDefaults(value)) || SECRET_SHAPES.some((shape) => shape.test(value))) return 'secret';
  return null;
}

/** A URL's user and password (a connection string's): the password is replaced, the rest kept. */
const USERINFO = /([a-z][a-z0-9+.-]*:\/\/[^\s/:@]+:)[^\s/@]+@/gi;

/** The arguments with every secret value replaced by NOT_COPIED (and placeholders' defaults left out); `replaced` counts them. */
export function withoutSecretArgs(args: readonly string[]): { args: string[]; replaced: number } {
  let replaced = 0;
  const hide = (text: string) => (replaced++, text);
  const out = args.map((given, i) => {
    // A placeholder's default is left out first: what remains is judged.
    const arg = withoutDefaults(given);
    if (i > 0 && SECRET_FLAG.test(args[i - 1]!) && !arg.startsWith('-')) return hide(NOT_COPIED);
    const eq = arg.startsWith('-') ? arg.indexOf('=') : -1;
    const flag = eq > 0 ? arg.slice(0, eq + 1) : '';
    if (eq > 0 && eq < arg.length - 1 && SECRET_FLAG.test(arg.slice(0, eq))) return hide(`${flag}${NOT_COPIED}`);
    if (arg.replace(USERINFO, '') !== arg) return hide(arg.replace(USERINFO, `$1${NOT_COPIED}@`));
    if (looksLikeToken(arg) || SECRET_SHAPES.some((shape) => shape.test(arg))) return hide(`${flag}${NOT_COPIED}`);
    return arg;
  });
  return { args: out, replaced };
}
