/**
 * The environment every program this server starts runs with (shell.exec, apps, the browser
 * opener, service managers). Children do not inherit the server's whole
 * environment (that would hand the owner's API keys and this server's token to any `env`
 * call): they get a short list of variables programs need, plus the caller's additions when
 * the owner allows them. Loader and interpreter hijack variables are never accepted.
 */

/** Inherited from the server, when set. Display variables are removed later when display access is off. */
const INHERITED = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'LANG',
  'LANGUAGE',
  'TERM',
  'TZ',
  'TMPDIR',
  'TEMP',
  'TMP',
  'XDG_CONFIG_HOME',
  'XDG_DATA_HOME',
  'XDG_CACHE_HOME',
  'XDG_STATE_HOME',
  'XDG_RUNTIME_DIR',
  'DISPLAY',
  'WAYLAND_DISPLAY',
  'XAUTHORITY',
  'DBUS_SESSION_BUS_ADDRESS',
  // Desktop integration labels that openers (xdg-open) use to pick the right handler.
  'XDG_CURRENT_DESKTOP',
  'XDG_SESSION_TYPE',
  'XDG_SESSION_DESKTOP',
  'DESKTOP_SESSION',
  'XDG_DATA_DIRS',
  'XDG_CONFIG_DIRS',
  'BROWSER',
  // Windows essentials: many programs fail to start without these.
  'SystemRoot',
  'SYSTEMROOT',
  'windir',
  'WINDIR',
  'ComSpec',
  'COMSPEC',
  'PATHEXT',
  'Path',
  'USERPROFILE',
  'USERNAME',
  'APPDATA',
  'LOCALAPPDATA',
  'ProgramData',
  'ProgramFiles',
  'ProgramFiles(x86)',
  'ProgramW6432',
  'CommonProgramFiles',
  'HOMEDRIVE',
  'HOMEPATH',
  'NUMBER_OF_PROCESSORS',
  'PROCESSOR_ARCHITECTURE',
  'OS',
];
const INHERITED_PREFIXES = ['LC_'];

/** Variables that change which code a program loads or runs: refused from callers, always. */
const HIJACK_EXACT = new Set([
  'NODE_OPTIONS',
  'NODE_PATH',
  'NODE_REPL_EXTERNAL_MODULE',
  'PYTHONPATH',
  'PYTHONSTARTUP',
  'PYTHONHOME',
  'PYTHONINSPECT',
  'PYTHONWARNINGS',
  'PYTHONBREAKPOINT',
  'PYTHONUSERBASE',
  'PERL5OPT',
  'PERL5LIB',
  'PERLLIB',
  'PERL5DB',
  'RUBYOPT',
  'RUBYLIB',
  'PHPRC',
  'PHP_INI_SCAN_DIR',
  'BASH_ENV',
  'ENV',
  'ZDOTDIR',
  'PROMPT_COMMAND',
  'SHELLOPTS',
  'BASHOPTS',
  'IFS',
  'PS4',
  'JAVA_TOOL_OPTIONS',
  '_JAVA_OPTIONS',
  'JDK_JAVA_OPTIONS',
  'CLASSPATH',
  'GCONV_PATH',
  'HOSTALIASES',
  'LOCALDOMAIN',
  'RES_OPTIONS',
  'GIT_EXEC_PATH',
  'GIT_SSH',
  'GIT_SSH_COMMAND',
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_EXTERNAL_DIFF',
  'GIT_PAGER',
  'GIT_EDITOR',
  'GIT_SEQUENCE_EDITOR',
  'GIT_ASKPASS',
  'SSH_ASKPASS',
  'SUDO_ASKPASS',
  'GIT_PROXY_COMMAND',
  'PAGER',
  'EDITOR',
  'VISUAL',
  'LESSOPEN',
  'LESSCLOSE',
  'TAR_OPTIONS',
  'MAKEFLAGS',
  'MFLAGS',
  'RUSTC_WRAPPER',
  'RUSTC',
  'GOFLAGS',
  'CC',
  'CXX',
  'COMSPEC',
  'PATHEXT',
  'ELECTRON_RUN_AS_NODE',
  'OPENSSL_CONF',
  'SSL_CERT_FILE',
  // Where programs look for their own rc files: pointing these into a writable root loads the model's code.
  'HOME',
  'XDG_CONFIG_HOME',
  'XDG_DATA_HOME',
  'USERPROFILE',
  'APPDATA',
  'LOCALAPPDATA',
]);
const HIJACK_PREFIXES = ['LD_', 'DYLD_', 'MALLOC_', 'GLIBC_', 'LUA_INIT', 'GIT_CONFIG', 'GIT_TRACE', 'CHATGPT_MCP_', 'NPM_CONFIG_', 'BASH_FUNC_'];

const KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function envProblem(key: string, value: string, options: { allowPath: boolean; platform: NodeJS.Platform }): string | null {
  if (!KEY.test(key)) return `env name ${JSON.stringify(key)} is not a plain variable name (letters, digits, _)`;
  if (value.includes('\0')) return `env ${key} contains a NUL byte`;
  const upper = key.toUpperCase();
  if (upper === 'PATH') return options.allowPath ? null : 'env PATH may not be changed (shell.allowPathEnv is false)';
  if (HIJACK_EXACT.has(upper) || HIJACK_PREFIXES.some((prefix) => upper.startsWith(prefix))) {
    return `env ${key} changes which code programs load and is never accepted`;
  }
  return null;
}

export function buildChildEnv(
  serverEnv: NodeJS.ProcessEnv,
  extra: Record<string, string> = {},
  platform: NodeJS.Platform = process.platform,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(serverEnv)) {
    if (value === undefined) continue;
    if (INHERITED.includes(key) || INHERITED_PREFIXES.some((prefix) => key.startsWith(prefix))) env[key] = value;
  }
  for (const [key, value] of Object.entries(extra)) {
    // Windows variable names are case-insensitive: replace any spelling of the same name.
    if (platform === 'win32') for (const existing of Object.keys(env)) if (existing.toUpperCase() === key.toUpperCase()) delete env[existing];
    env[key] = value;
  }
  return env;
}
