/**
 * How a command line names the programs it runs, as far as the capture gate looks: the words of
 * a shell command (quotes a shell removes, separators, names it computes at run time), the
 * shells, wrappers and interpreters that run another command or inline code, and program names
 * as the gate compares them. A reading for a denylist: where it is unsure it errs towards
 * finding one command too many, never one too few.
 *
 * Pure: no fs, no process access.
 */

/** The words of a space-separated list (names, or a simple command line). */
export function splitWords(text: string): string[] {
  return text.trim().split(/\s+/).filter(Boolean);
}

export const SHELLS: ReadonlySet<string> = new Set(splitWords('sh bash dash zsh ksh mksh ash fish tcsh csh busybox-sh'));

/** Commands that run another command given in their args. */
export const WRAPPERS: ReadonlySet<string> = new Set(
  splitWords(`env sudo doas nice nohup timeout stdbuf setsid xargs command time ionice chrt taskset unbuffer busybox watch flock runuser
    dbus-launch dbus-run-session wsl exec start systemd-run flatpak-spawn strace ltrace gdb eval`),
);

/** Commands that run a whole command line given after `-c` (or `--command`). */
export const SHELL_COMMAND_WRAPPERS: ReadonlySet<string> = new Set(splitWords('su script runuser'));

/** How deep shells, wrappers and interpreters are followed into each other. */
export const MAX_DEPTH = 4;

/** `NAME=value`: an assignment, before a command or in a wrapper's args. */
export const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/** Interpreters whose inline code is scanned, with the flags that introduce code or a module. */
export interface InlineCode {
  /** Flags whose next arg (or attached value) is code, e.g. `-c`, `-e`. */
  code: RegExp;
  /** Flags whose next arg (or attached value) is a module to load, e.g. `-m`, `-r`. */
  module?: RegExp;
  /** Other flags that take a separate value, so the value is not mistaken for a script. */
  value?: RegExp;
}

export const INTERPRETERS: ReadonlyMap<string, InlineCode> = new Map<string, InlineCode>([
  ['python', { code: /^-[A-Za-z]*?c/, module: /^-[A-Za-z]*?m/, value: /^-[WX]$/ }],
  ['node', { code: /^(-[A-Za-z]*[ep]|--eval|--print)$/, module: /^(-r|--require|--import)$/, value: /^(-C|--conditions|--input-type)$/ }],
  ['bun', { code: /^(-e|--eval|-p|--print)$/ }],
  ['deno', { code: /^eval$/ }],
  ['perl', { code: /^-[A-Za-z]*[eE]$/, module: /^-[mM]/, value: /^-[Ix]$/ }],
  ['ruby', { code: /^-[A-Za-z]*e$/, module: /^-r/, value: /^-[IC]$/ }],
  ['php', { code: /^-r$/, value: /^-[cdz]$/ }],
  ['lua', { code: /^-e$/, module: /^-l/ }],
  ['osascript', { code: /^-e$/, value: /^-[ls]$/ }],
  ['awk', { code: /^[^-]/, value: /^-[Fvf]$/ }],
]);

/** Shell words in command position: start, after ; & | ( ` $( or a newline, optionally after wrappers. */
export const SEPARATORS = /(?:&&|\|\||[;&|()`\n]|\$\()/;
/** The same without backticks and $(, so `$(printf imp)ort` and `` `x`ort `` stay one (computed) word. */
export const COMMAND_BOUNDARIES = /&&|\|\||[;&|()\n]/;
/** Reserved words that may come before a command. */
const SHELL_KEYWORDS = new Set(['if', 'then', 'else', 'elif', 'while', 'until', 'do', '!', '{', '}', 'time', 'coproc']);

/**
 * What the shell runs once it removed quotes and backslashes: `imp""ort`, `i\mport` and `'import'`
 * all run import. Dropping them also merges quoted text into the line, so a separator inside a
 * quoted string may start a "command" here: a refusal too many, never one too few.
 */
export function unquoteShell(code: string): string {
  return code.replace(/["'\\]/g, '');
}

/**
 * A command name the shell computes at run time: a parameter or command substitution ($x, ${x},
 * $(...), backticks, $'\x69mport'), a glob (/usr/bin/imp*rt) or a brace expansion. The gate cannot
 * know what it runs, so it is refused while display access is off.
 */
export function isComputedWord(word: string): boolean {
  return /[$`*?]/.test(word) || (word.includes('[') && word !== '[' && word !== '[[') || /\{[^}]*,/.test(word);
}

/** The words of a shell segment, outer quotes removed. */
export function segmentWords(segment: string): string[] {
  return splitWords(segment).map(unquote).filter(Boolean);
}

/** The words of a simple command from its name on: assignments and reserved words before it are skipped. */
export function commandWords(segment: string): string[] {
  const words = segmentWords(segment);
  const start = words.findIndex((w) => !ASSIGNMENT.test(w) && !SHELL_KEYWORDS.has(w));
  return start < 0 ? [] : words.slice(start);
}

export function clipWord(word: string): string {
  return word.length > 40 ? `${word.slice(0, 40)}...` : word;
}

/** Lowercased basename without Windows executable suffixes; versioned interpreters collapse. */
export function programName(path: string): string {
  let name = baseName(path)
    .toLowerCase()
    .replace(/\.(exe|com)$/, '');
  if (/^(python|pythonw|pypy|py)(\d+(\.\d+)*)?w?$/.test(name)) name = 'python';
  else if (/^(perl|ruby|php|lua|luajit)\d+(\.\d+)*$/.test(name)) name = name.replace(/[\d.]+$/, '').replace('luajit', 'lua');
  else if (name === 'nodejs') name = 'node';
  else if (/^(gawk|mawk|nawk|busybox-awk)$/.test(name)) name = 'awk';
  else if (/^gst-launch(-[\d.]+)?$/.test(name)) name = 'gst-launch';
  // Debian's ImageMagick installs import-im6.q16, convert-im6.q16hdri, magick-im7.q16... behind alternatives.
  else if (IMAGEMAGICK_VERSIONED.test(name)) name = name.replace(IMAGEMAGICK_VERSIONED, '$1');
  return name;
}

const IMAGEMAGICK_VERSIONED =
  /^(import|convert|mogrify|display|animate|montage|compare|composite|stream|identify|conjure|magick|magick-script)-im\d+(?:\.q\d+(?:hdri)?)?$/;

export function baseName(path: string): string {
  return path.split(/[\\/]/).pop() ?? path;
}

function unquote(word: string): string {
  return word.replace(/^["']+|["']+$/g, '');
}
