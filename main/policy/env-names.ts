/**
 * Names of environment variables, for the caller-environment allow-list (environment.ts) and for
 * validating the owner's additions at config load (config/schema.ts). Pure: no Node imports, so
 * the settings window validates with the same lists.
 *
 * A caller may set only (1) the built-in harmless names below, (2) names the owner lists in
 * `shell.allowedEnv`, and (3) PATH with `shell.allowPathEnv`. The owner may not list a name that
 * changes which code runs, or where programs read code and settings from: those are refused at
 * config load (`codeRunningReason`), so an allowed program cannot be turned into another one.
 */

export const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Built-in harmless names with the shape their value must have. Each only selects a locale, a
 * time zone, a terminal type, colours, a size or a buffering mode; none names a program, a
 * library, a search path or a configuration file, and values that look like paths are refused.
 */
const LOCALE = /^[A-Za-z0-9_.@:-]{0,64}$/;
const SWITCH = /^[A-Za-z0-9]{0,16}$/;
const HARMLESS: ReadonlyArray<readonly [string, RegExp, string]> = [
  ['LANG', LOCALE, 'a locale name such as en_US.UTF-8'],
  ['LANGUAGE', LOCALE, 'locale names separated by :'],
  ['LC_*', LOCALE, 'a locale name such as C.UTF-8'],
  // A zone name (Europe/Paris, UTC, EST5EDT); an absolute path or .. would pick any file.
  ['TZ', /^:?(?!\/)(?!.*\.\.)[A-Za-z0-9_+\-,.:/]{0,64}$/, 'a time zone name such as Europe/Paris'],
  ['TERM', /^[A-Za-z0-9._+-]{1,64}$/, 'a terminal type such as xterm-256color'],
  ['COLORTERM', /^[A-Za-z0-9._+-]{0,32}$/, 'truecolor or 24bit'],
  ['NO_COLOR', SWITCH, 'a short flag'],
  ['FORCE_COLOR', SWITCH, 'a short flag'],
  ['CLICOLOR', SWITCH, 'a short flag'],
  ['CLICOLOR_FORCE', SWITCH, 'a short flag'],
  ['COLUMNS', /^\d{1,5}$/, 'a number'],
  ['LINES', /^\d{1,5}$/, 'a number'],
  ['SOURCE_DATE_EPOCH', /^\d{1,12}$/, 'seconds since 1970'],
  ['PYTHONUNBUFFERED', SWITCH, 'a short flag'],
  ['PYTHONDONTWRITEBYTECODE', SWITCH, 'a short flag'],
  ['PYTHONIOENCODING', /^[A-Za-z0-9_.:-]{1,40}$/, 'an encoding such as utf-8'],
];

export const BUILT_IN_ENV_NAMES: readonly string[] = HARMLESS.map(([name]) => name);

/** The value shape a built-in name requires, or null when the name is not built in. */
export function builtInEnvRule(name: string): { value: RegExp; expected: string } | null {
  const upper = name.toUpperCase();
  for (const [pattern, value, expected] of HARMLESS) {
    if (pattern.endsWith('*') ? upper.startsWith(pattern.slice(0, -1)) && upper.length > pattern.length - 1 : upper === pattern) {
      return { value, expected };
    }
  }
  return null;
}

/**
 * Names that load code, name a program to run, or move where programs read code, plugins or
 * settings from. Matched case-insensitively (Windows names are case-insensitive).
 */
const CODE_RUNNING_EXACT = new Set([
  // program choosers: xdg-open runs $BROWSER, git and less run $EDITOR/$PAGER...
  'BROWSER',
  'EDITOR',
  'VISUAL',
  'PAGER',
  'MANPAGER',
  'SYSTEMD_PAGER',
  'SHELL',
  'TERMINAL',
  'SUDO_ASKPASS',
  'SUDO_EDITOR',
  'SYSTEMD_EDITOR',
  'SVN_EDITOR',
  'HGEDITOR',
  'FCEDIT',
  'RSYNC_RSH',
  'SVN_SSH',
  'BZR_SSH',
  'HGRCPATH',
  'CCACHE_PREFIX',
  'PYENV_VERSION',
  'RBENV_VERSION',
  'NODENV_VERSION',
  'RSYNC_CONNECT_PROG',
  'CVS_RSH',
  'MANOPT',
  'GROFF_COMMAND_PREFIX',
  'SSH_ASKPASS',
  'SSH_ASKPASS_REQUIRE',
  'LESSOPEN',
  'LESSCLOSE',
  'LESSKEY',
  'CC',
  'CXX',
  'CPP',
  'LD',
  'AR',
  'RUSTC',
  'RUSTC_WRAPPER',
  'RUSTDOC',
  'COMSPEC',
  'PATHEXT',
  'PROMPT_COMMAND',
  // shells, interpreters and runtimes that load code named here
  'BASH_ENV',
  'ENV',
  'ZDOTDIR',
  'SHELLOPTS',
  'BASHOPTS',
  'IFS',
  'PS4',
  'CDPATH',
  'NODE_OPTIONS',
  'NODE_PATH',
  'NODE_REPL_EXTERNAL_MODULE',
  'ELECTRON_RUN_AS_NODE',
  'PERL5OPT',
  'PERL5LIB',
  'PERLLIB',
  'PERL5DB',
  'PERL_MB_OPT',
  'PERL_MM_OPT',
  'RUBYOPT',
  'RUBYLIB',
  'MAVEN_OPTS',
  'GRADLE_OPTS',
  'SBT_OPTS',
  'ANT_OPTS',
  'CATALINA_OPTS',
  'ERL_AFLAGS',
  'ERL_FLAGS',
  'ERL_ZFLAGS',
  'ELIXIR_ERL_OPTIONS',
  'GUILE_LOAD_PATH',
  'TCLLIBPATH',
  'JULIA_LOAD_PATH',
  'R_LIBS',
  'R_LIBS_USER',
  'FPATH',
  'CUDA_INJECTION64_PATH',
  'WINEDLLPATH',
  'WINEDLLOVERRIDES',
  'PERLIO',
  'CMAKE_TOOLCHAIN_FILE',
  'MESON_CROSS_FILE',
  'VIMINIT',
  'EXINIT',
  'MYVIMRC',
  'GVIMINIT',
  'VIMRUNTIME',
  'AWKPATH',
  'AWKLIBPATH',
  'PSQLRC',
  'MYSQL_HOME',
  'EMACSLOADPATH',
  'R_PROFILE',
  'R_PROFILE_USER',
  'R_ENVIRON',
  'R_ENVIRON_USER',
  'TEXINPUTS',
  'PHPRC',
  'PHP_INI_SCAN_DIR',
  'JAVA_TOOL_OPTIONS',
  '_JAVA_OPTIONS',
  'JDK_JAVA_OPTIONS',
  'CLASSPATH',
  'JAVA_HOME',
  'GOFLAGS',
  'GOROOT',
  'GOPATH',
  'CFLAGS',
  'CXXFLAGS',
  'CPPFLAGS',
  'LDFLAGS',
  'MAKEFLAGS',
  'MFLAGS',
  'MAKEFILES',
  'TAR_OPTIONS',
  'COR_ENABLE_PROFILING',
  'COR_PROFILER',
  'COR_PROFILER_PATH',
  // the C library, the loader, name resolution, crypto and terminals
  'GCONV_PATH',
  'LOCPATH',
  'NLSPATH',
  'HOSTALIASES',
  'LOCALDOMAIN',
  'RES_OPTIONS',
  'OPENSSL_CONF',
  'OPENSSL_ENGINES',
  'OPENSSL_MODULES',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  'TERMINFO',
  'TERMINFO_DIRS',
  'TERMCAP',
  'KRB5_CONFIG',
  'GNUPGHOME',
  // where programs read their rc files: pointing these into a writable root loads the model's code
  'HOME',
  'USERPROFILE',
  'APPDATA',
  'LOCALAPPDATA',
  'PROGRAMDATA',
  'INPUTRC',
  'WGETRC',
  'CURL_HOME',
  'DOTNET_STARTUP_HOOKS',
  'GTK_MODULES',
  'GTK_PATH',
  'GTK_EXE_PREFIX',
  'GTK_IM_MODULE_FILE',
  'GIO_EXTRA_MODULES',
  'GIO_MODULE_DIR',
  'QT_PLUGIN_PATH',
  'QT_QPA_PLATFORM_PLUGIN_PATH',
  'LIBGL_DRIVERS_PATH',
  'VK_ICD_FILENAMES',
  'VK_LAYER_PATH',
  'VK_ADD_LAYER_PATH',
  '__EGL_VENDOR_LIBRARY_FILENAMES',
  'SANE_CONFIG_DIR',
]);

const CODE_RUNNING_PREFIXES = [
  'LD_', // LD_PRELOAD, LD_LIBRARY_PATH, LD_AUDIT
  'DYLD_',
  'XDG_', // XDG_DATA_DIRS (.desktop handlers), XDG_CONFIG_HOME/DIRS (mimeapps.list, autostart)...
  'GIT_', // GIT_SSH_COMMAND, GIT_CONFIG_*, GIT_EXEC_PATH, GIT_EDITOR, GIT_DIR...
  'PYTHON', // PYTHONPATH, PYTHONSTARTUP, PYTHONHOME (the built-in harmless PYTHON* names excepted)
  'LUA_',
  'RUBY',
  'GEM_',
  'BUNDLE_',
  'NPM_CONFIG_',
  'YARN_',
  'PNPM_',
  'PIP_',
  'UV_',
  'CARGO_',
  'RUSTUP_',
  'MALLOC_',
  'GLIBC_',
  'BASH_FUNC_',
  'GST_PLUGIN',
  'GST_REGISTRY',
  'CORECLR_',
  'DOTNET_',
  'COMPLUS_',
  'CHATGPT_MCP_',
];

/** Why the owner may not allow `name` (a sentence), or null when it may be listed. */
export function codeRunningReason(name: string, options: { allowPathEnv: boolean }): string | null {
  if (!ENV_NAME.test(name)) return `${JSON.stringify(name)} is not a plain variable name (letters, digits, _)`;
  const upper = name.toUpperCase();
  if (upper === 'PATH') return options.allowPathEnv ? null : 'PATH is governed by shell.allowPathEnv, not by this list';
  if (upper.startsWith('CHATGPT_MCP_')) return `${name} configures this server and is never passed to commands`;
  if (builtInEnvRule(upper)) return null; // built in already (PYTHONUNBUFFERED despite the PYTHON prefix)
  if (CODE_RUNNING_EXACT.has(upper) || CODE_RUNNING_PREFIXES.some((prefix) => upper.startsWith(prefix))) {
    return `${name} changes which code programs run or where they load code and settings from, so it cannot be allowed`;
  }
  return null;
}
