/** Environment names used in attacks on the caller-environment rules (unit and end-to-end tests share them). */

/** Names that made an allowed program run other code, or that a deny-list tends to miss. */
export const CODE_RUNNING_NAMES: string[] = [
  'BROWSER', // xdg-open runs it
  'XDG_DATA_DIRS', // .desktop handlers planted in a root
  'XDG_CONFIG_HOME',
  'XDG_CONFIG_DIRS', // mimeapps.list
  'XDG_DATA_HOME',
  'XDG_CURRENT_DESKTOP', // picks which opener xdg-open runs
  'EDITOR',
  'VISUAL',
  'PAGER',
  'MANPAGER',
  'GIT_PAGER',
  'GIT_EDITOR',
  'GIT_SSH_COMMAND',
  'GIT_CONFIG_GLOBAL',
  'GIT_EXTERNAL_DIFF',
  'LD_PRELOAD',
  'LD_LIBRARY_PATH',
  'DYLD_INSERT_LIBRARIES',
  'NODE_OPTIONS',
  'NODE_PATH',
  'PYTHONPATH',
  'PYTHONSTARTUP',
  'PERL5OPT',
  'RUBYOPT',
  'BASH_ENV',
  'ENV',
  'SHELL',
  'HOME',
  'ZDOTDIR',
  'LESSOPEN',
  // programs that run another one, or read code or config from where the variable says
  'RSYNC_RSH',
  'RSYNC_CONNECT_PROG',
  'CVS_RSH',
  'SUDO_EDITOR',
  'SYSTEMD_EDITOR',
  'SVN_EDITOR',
  'HGEDITOR',
  'FCEDIT',
  'MANOPT',
  'GROFF_COMMAND_PREFIX',
  'VIMINIT',
  'EXINIT',
  'MYVIMRC',
  'AWKPATH',
  'AWKLIBPATH',
  'PSQLRC',
  'EMACSLOADPATH',
  'R_PROFILE_USER',
  'TEXINPUTS',
  'TERMINFO',
  'GCONV_PATH',
  'SSH_ASKPASS',
  'SUDO_ASKPASS',
  'JAVA_TOOL_OPTIONS',
  'OPENSSL_CONF',
  'GTK_MODULES',
  'QT_PLUGIN_PATH',
  'MAKEFLAGS',
  'CC',
  'RUSTC_WRAPPER',
  'NPM_CONFIG_USERCONFIG',
  'GLIBC_TUNABLES',
  'CHATGPT_MCP_TOKEN',
  'AWS_SECRET_ACCESS_KEY', // not code, but nothing the owner allowed either
  'FOO',
];

/** Of those, the ones that are merely not allowed (no code-running meaning the config refuses). */
export const MERELY_UNLISTED = ['AWS_SECRET_ACCESS_KEY', 'FOO'];
