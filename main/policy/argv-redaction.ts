/**
 * Secrets in other programs' command lines, hidden before process.list or the tray's process
 * panel shows them. Every local user can read command lines from the OS, but the model should
 * not receive, say, another user's `mysql -pHunter2` or a `--token=...` just by listing.
 *
 * What is replaced by `***` (the name stays, so the listing still says what was passed):
 * - the value of a secret-named option: `--password=x`, `--password x`, `-token x`,
 *   `--db-password=x`, `--apiKey=x`, `-pass x`, `-pw x` (PuTTY);
 * - `NAME=value` pairs with a secret name, also inside option lists and query strings:
 *   `PGPASSWORD=x`, `-o user=u,password=x`, `https://h/p?token=x&a=1`;
 * - the password in URLs: `scheme://user:password@host`;
 * - a few well-known short options: mysql/mariadb `-pSECRET`, sshpass `-p x`, redis-cli `-a x`,
 *   curl `-u user:password` and `-uuser:password`, `docker login -p x` (podman too), the
 *   OpenLDAP tools' `-w x`, smbclient `-U user%password`;
 * - secret headers given as one argument or as an option's value: `-H "Authorization: Bearer x"`,
 *   `--header=Authorization: Bearer x`; JSON-ish `{"password": "x"}` pairs.
 *
 * A secret name is one that contains PASSWORD, PASSWD, PASSPHRASE, SECRET, TOKEN, APIKEY,
 * ACCESSKEY, PRIVATEKEY, CREDENTIAL or OAUTH once `-`, `_` and `.` are dropped (case-insensitive),
 * or one of whose words is PASS, PWD, PW, PASSIN, PASSOUT, COOKIE, or starts or ends with AUTH
 * (AUTH, AUTHTOKEN, BASICAUTH, AUTHORIZATION; but GIT_AUTHOR_NAME, --author and XAUTHORITY stay
 * readable). Over-redacting costs a little information; under-redacting leaks, so the name rules
 * are broad and only the short options, which mean other things elsewhere, are per program.
 *
 * Pure (no I/O). Matching on a listing happens after redaction, so a `match` substring cannot
 * be used to guess a hidden value one character at a time.
 */

export const REDACTED = '***';

const CONTAINED = ['password', 'passwd', 'passphrase', 'secret', 'token', 'apikey', 'accesskey', 'privatekey', 'credential', 'oauth'];
const WORDS = new Set(['pass', 'pwd', 'pw', 'passin', 'passout', 'cookie']);

/** Whether an option, variable or header name names a secret (see the module comment). */
export function isSecretName(name: string): boolean {
  const joined = name.toLowerCase().replace(/[-_.]/g, '');
  if (CONTAINED.some((word) => joined.includes(word))) return true;
  // Words split at - _ . and camelCase: apiAuth -> api, auth.
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[-_.]+/);
  return words.some((word) => WORDS.has(word) || isAuthWord(word));
}

/** auth, authtoken, basicauth, authorization; not author, authority (GIT_AUTHOR_NAME, XAUTHORITY). */
function isAuthWord(word: string): boolean {
  if (word.endsWith('auth')) return true;
  return word.startsWith('auth') && (!word.startsWith('author') || word.startsWith('authoriz'));
}

const OPTION_WITH_VALUE = /^(-{1,2}[A-Za-z][A-Za-z0-9_.-]*)=([\s\S]*)$/;
const BARE_OPTION = /^-{1,2}([A-Za-z][A-Za-z0-9_.-]*)$/;
/** NAME=value inside a larger argument: at its start or after a separator of option lists and queries. */
const PAIR = /(^|[\s,;&?])([A-Za-z_][A-Za-z0-9_.-]*)=([^\s,;&]*)/g;
/**
 * The password of `scheme://user:password@`: greedy up to the last @ before the path (passwords may hold @).
 * The match starts where a run of scheme characters does (`1https://` included, over-redacting is
 * safe): starting at every letter instead, a 100 KB argument cost a scan to its end per letter
 * (quadratic; 16 s for one such process, seen).
 */
const URL_PASSWORD = /(?<![A-Za-z0-9+.-])([A-Za-z0-9+.-]+:\/\/[^\s/:@]*):([^\s/]+)@/g;
/** `"password": "x"` and `'token': 'x'` in JSON or Python-ish literals. */
const QUOTED_PAIR = /(["'])([A-Za-z_][A-Za-z0-9_.-]*)\1(\s*:\s*)(["'])((?:\\.|(?!\4)[^\\])*)\4/g;
/** An HTTP header given as one argument (curl -H): `Authorization: Bearer x`, `X-Api-Key: x`. */
const HEADER = /^([A-Za-z][A-Za-z0-9-]*):\s*(\S[\s\S]*)$/;

/** Programs whose short options carry a password, by lowercased basename without .exe. */
interface ShortOptions {
  /** Only after this first argument (`docker login -p`; `docker run -p` is a port). */
  subcommand?: string;
  /** A prefix whose rest is the secret (`-pSECRET`), for an option that takes no separate value (separate ones may be attached anyway). */
  attached?: string;
  /** Options whose next argument is the secret. */
  separate?: string[];
  /** Of those, the ones whose value is `user<sep>password`: only the password is hidden (attached too). */
  userPassword?: string[];
  separator?: string;
}

const LDAP: ShortOptions = { separate: ['-w'] };
const LOGIN: ShortOptions = { subcommand: 'login', separate: ['-p'] };

const SHORT_SECRET_OPTIONS: ReadonlyMap<string, ShortOptions> = new Map([
  ['mysql', { attached: '-p' }],
  ['mysqldump', { attached: '-p' }],
  ['mysqladmin', { attached: '-p' }],
  ['mysqlimport', { attached: '-p' }],
  ['mysqlcheck', { attached: '-p' }],
  ['mariadb', { attached: '-p' }],
  ['mariadb-dump', { attached: '-p' }],
  ['mariadb-admin', { attached: '-p' }],
  ['sshpass', { separate: ['-p'] }],
  ['redis-cli', { separate: ['-a'] }],
  ['curl', { separate: ['-u', '--user', '-U', '--proxy-user'], userPassword: ['-u', '--user', '-U', '--proxy-user'], separator: ':' }],
  ['docker', LOGIN],
  ['podman', LOGIN],
  ...['ldapsearch', 'ldapmodify', 'ldapadd', 'ldapdelete', 'ldapwhoami', 'ldappasswd', 'ldapcompare', 'ldapmodrdn', 'ldapexop'].map(
    (name) => [name, LDAP] as const,
  ),
  ['smbclient', { separate: ['-U', '--user'], userPassword: ['-U', '--user'], separator: '%' }],
]);

/** The command line with secret values replaced; argv[0] is kept as is apart from URL passwords. */
export function redactArgs(args: readonly string[]): string[] {
  const program = programName(args[0] ?? '');
  const found = SHORT_SECRET_OPTIONS.get(program);
  // docker -H host login -p x: the subcommand may follow global options.
  const special = found?.subcommand === undefined || args.includes(found.subcommand) ? found : undefined;
  const userPassword = (value: string) => redactUserPassword(value, special?.separator ?? ':');
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (i === 0) {
      out.push(redactInside(arg));
      continue;
    }
    const withValue = OPTION_WITH_VALUE.exec(arg);
    if (withValue) {
      const name = withValue[1]!;
      // --user=bob:pw keeps the user; any other value may still hold a header or a pair (--header=Authorization: ...).
      if (special?.userPassword?.includes(name)) out.push(`${name}=${userPassword(withValue[2]!)}`);
      else if (special?.separate?.includes(name)) out.push(`${name}=${REDACTED}`);
      else out.push(`${name}=${isSecretName(name.replace(/^-+/, '')) ? REDACTED : redactInside(withValue[2]!)}`);
      continue;
    }
    const bare = BARE_OPTION.exec(arg);
    const next = args[i + 1];
    const separate = special?.separate?.includes(arg) ?? false;
    if ((bare && isSecretName(bare[1]!)) || separate) {
      out.push(arg);
      if (next !== undefined && (!next.startsWith('-') || separate)) {
        out.push(special?.userPassword?.includes(arg) ? userPassword(next) : REDACTED);
        i++;
      }
      continue;
    }
    // curl -H'Authorization: Bearer x', the header attached to its option.
    if (program === 'curl' && arg.startsWith('-H') && arg.length > 2) {
      out.push(`-H${redactInside(arg.slice(2))}`);
      continue;
    }
    // A short option with its value attached (mysql -pSECRET, curl -uuser:pw), or after others
    // bundled with it: curl -sSu user:pw, ldapsearch -xw pw or -xwpw, smbclient -NU u%pw.
    const bundled = special && /^-[A-Za-z]./.test(arg) ? bundledSecret(arg, special) : undefined;
    if (bundled) {
      const head = arg.slice(0, bundled.at + 1);
      const rest = arg.slice(bundled.at + 1);
      const hide = (value: string) => (bundled.userPassword ? userPassword(value) : REDACTED);
      if (rest) out.push(`${head}${hide(rest)}`);
      else if (!bundled.separate) out.push(arg);
      else {
        out.push(head);
        if (next !== undefined) {
          out.push(hide(next));
          i++;
        }
      }
      continue;
    }
    out.push(redactInside(arg));
  }
  return out;
}

/**
 * Where in a bundle of short options (`-sSu`) a secret-taking one is; whether its value may
 * also be the next argument (`separate`) and is user and password.
 */
function bundledSecret(arg: string, special: ShortOptions): { at: number; separate: boolean; userPassword: boolean } | undefined {
  for (let at = 1; at < arg.length; at++) {
    const option = `-${arg[at]}`;
    if (!/[A-Za-z]/.test(arg[at]!)) return undefined;
    const separate = special.separate?.includes(option) ?? false;
    if (separate || special.attached === option) return { at, separate, userPassword: special.userPassword?.includes(option) ?? false };
  }
  return undefined;
}

/** `user:password` -> `user:***` (curl -u; `%` for smbclient); a value without one is a user name and stays. */
function redactUserPassword(value: string, separator: string): string {
  const at = value.indexOf(separator);
  return at < 0 ? value : `${value.slice(0, at)}${separator}${REDACTED}`;
}

/** URL passwords and NAME=value pairs anywhere inside one argument. */
function redactInside(arg: string): string {
  const header = HEADER.exec(arg);
  if (header && isSecretName(header[1]!)) return `${header[1]}: ${REDACTED}`;
  // key=Header: value (git -c http.extraheader=AUTHORIZATION: basic x).
  const eq = arg.indexOf('=');
  const inPair = eq > 0 ? HEADER.exec(arg.slice(eq + 1)) : null;
  if (inPair && isSecretName(inPair[1]!)) return `${arg.slice(0, eq + 1)}${inPair[1]}: ${REDACTED}`;
  return arg
    .replace(URL_PASSWORD, (_m, head: string) => `${head}:${REDACTED}@`)
    .replace(PAIR, (match, lead: string, name: string) => (isSecretName(name) ? `${lead}${name}=${REDACTED}` : match))
    .replace(QUOTED_PAIR, (match, q: string, name: string, colon: string, v: string) =>
      isSecretName(name) ? `${q}${name}${q}${colon}${v}${REDACTED}${v}` : match,
    );
}

function programName(file: string): string {
  return (file.split(/[\\/]/).pop() ?? file).toLowerCase().replace(/\.exe$/, '');
}
