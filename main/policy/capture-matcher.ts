/**
 * Finds the capture rule a command line breaks: the programs and payloads of the capture
 * denylist (capture-programs.ts, capture-payloads.ts), looked for in the command, in the
 * commands that shells, wrappers and interpreters run from it (shell-words.ts), and in inline
 * code. Each level costs one pass over the words and the depth is bounded, so it stays linear.
 *
 * Pure: no fs, no process access.
 */
import { isDisplayEnvKey } from './display-env.js';
import { CAPTURE_DEVICES, CAPTURE_URLS, CODE_MARKERS, DBUS_CAPTURE, DISPLAY_ARGUMENT, SPAWNED_IN_CODE } from './capture-payloads.js';
import {
  ARGUMENT_CAPTURES,
  CAPTURE_EXECUTABLES,
  CATEGORY_DOES,
  FFMPEG_DEVICES,
  FFMPEG_PROGRAMS,
  FFMPEG_SCREEN,
  GST_DEVICES,
  GST_SCREEN,
  type ArgumentCapture,
  type ArgumentTest,
  type Category,
} from './capture-programs.js';
import {
  ASSIGNMENT,
  baseName,
  clipWord,
  COMMAND_BOUNDARIES,
  commandWords,
  INTERPRETERS,
  isComputedWord,
  MAX_DEPTH,
  programName,
  segmentWords,
  SEPARATORS,
  SHELL_COMMAND_WRAPPERS,
  SHELLS,
  unquoteShell,
  WRAPPERS,
  type InlineCode,
} from './shell-words.js';

export interface CaptureMatch {
  rule: string;
  detail: string;
}

const EXECUTABLES: ReadonlyMap<string, Category> = new Map(CAPTURE_EXECUTABLES.flatMap(({ category, programs }) => programs.map((name) => [name, category])));
const BY_ARGUMENTS: ReadonlyMap<string, ArgumentCapture> = new Map(ARGUMENT_CAPTURES.flatMap((entry) => entry.programs.map((name) => [name, entry])));
/** The other programs matchByProgram reads by name, known so that a wrapper's command is found (`sudo vlc screen://`). */
const READ_BY_NAME = new Set(['gst-launch', 'vlc', 'cvlc', 'powershell', 'pwsh', 'cmd', 'mshta', 'wscript', 'cscript']);

export function matchCapture(commandName: string, realPath: string | null, args: readonly string[], depth = 0): CaptureMatch | null {
  const names = [...new Set([programName(commandName), realPath ? programName(realPath) : ''].filter(Boolean))];
  const label = baseName(commandName) || commandName;

  const envArg = args.find((a) => ASSIGNMENT.test(a) && isDisplayEnvKey(a.slice(0, a.indexOf('='))));
  if (envArg) return { rule: 'display-env-assignment', detail: `${label} sets ${envArg.slice(0, envArg.indexOf('='))} in its arguments` };
  if (args.some((a) => DBUS_CAPTURE.pattern.test(a)))
    return { rule: DBUS_CAPTURE.rule, detail: `${label} calls a D-Bus screen capture or remote-desktop interface` };
  for (const arg of args) {
    for (const url of CAPTURE_URLS) {
      const found = url.pattern.exec(arg);
      if (found) return { rule: url.rule, detail: `${label} opens a ${found[1] ? `${found[1]}://` : `av://${found[2]}`} capture source` };
    }
  }

  for (const name of names) {
    const category = EXECUTABLES.get(name);
    if (category) return { rule: `capture-executable/${category}`, detail: `${name} ${CATEGORY_DOES[category]}` };
    const special = matchByProgram(name, args, depth);
    if (special) return special;
  }
  if (args.some((a) => DISPLAY_ARGUMENT.pattern.test(a))) return { rule: DISPLAY_ARGUMENT.rule, detail: `${label} is told which display to use (-display)` };
  const device = args.map((a) => CAPTURE_DEVICES.pattern.exec(a)).find(Boolean);
  if (device) {
    const kind = device[1]!.toLowerCase();
    const what = CAPTURE_DEVICES.kinds[kind] ?? (kind.startsWith('media') ? 'a camera' : 'the screen (framebuffer)');
    return { rule: CAPTURE_DEVICES.rule, detail: `${label} opens a device of ${what}` };
  }
  return null;
}

function matchByProgram(name: string, args: readonly string[], depth: number): CaptureMatch | null {
  if (FFMPEG_PROGRAMS.has(name)) return matchFfmpeg(name, args);
  if (name === 'gst-launch') return matchGstreamer(name, args);
  const byArguments = BY_ARGUMENTS.get(name);
  if (byArguments) return byArguments.when.some((test) => passes(test, args)) ? { rule: byArguments.rule, detail: `${name} ${byArguments.does}` } : null;
  if (name === 'vlc' || name === 'cvlc') return null; // capture URLs are checked for every command
  if (name === 'powershell' || name === 'pwsh') return matchPowerShell(name, args);
  if (name === 'cmd') {
    const at = args.findIndex((a) => /^\/[ck]$/i.test(a));
    return at >= 0 ? matchShellCode(name, args.slice(at + 1).join(' '), depth) : null;
  }
  if (name === 'mshta' || name === 'wscript' || name === 'cscript') return matchCode(name, args.join(' '));
  if (SHELLS.has(name)) {
    const at = args.findIndex((a) => /^-[A-Za-z]*c[A-Za-z]*$/.test(a) && !a.startsWith('--'));
    if (at < 0) return null;
    const code = args.slice(at + 1).find((a) => !a.startsWith('-'));
    return code === undefined ? null : matchShellCode(name, code, depth);
  }
  if (SHELL_COMMAND_WRAPPERS.has(name)) {
    const at = args.findIndex((a) => a === '-c' || a === '--command');
    if (at >= 0 && args[at + 1] !== undefined) return matchShellCode(name, args[at + 1]!, depth);
  }
  const interpreter = INTERPRETERS.get(name);
  if (interpreter) return matchInterpreter(name, interpreter, args);
  if (WRAPPERS.has(name)) return matchWrapped(args, depth);
  return null;
}

function passes(test: ArgumentTest, args: readonly string[]): boolean {
  if ('first' in test) return args[0] !== undefined && test.first.test(args[0]);
  if ('option' in test) return args.some((a, i) => a === test.option && test.value.test(args[i + 1] ?? ''));
  return args.some((a) => test.arg.test(a));
}

function matchFfmpeg(name: string, args: readonly string[]): CaptureMatch | null {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!.toLowerCase();
    const format = arg === '-f' ? (args[i + 1] ?? '').toLowerCase() : '';
    if (FFMPEG_SCREEN.formats.has(format)) return { rule: FFMPEG_SCREEN.rule, detail: `${name} reads the screen with -f ${args[i + 1]}` };
    if (FFMPEG_DEVICES.formats.has(format)) return { rule: FFMPEG_DEVICES.rule, detail: `${name} records from a camera or microphone with -f ${args[i + 1]}` };
    // lavfi sources such as `ddagrab=output_idx=0` in -i, -vf or -filter_complex graphs
    const segments = arg.split(/[;,]/).map((s) => s.replace(/^\s*(\[[^\]]*\]\s*)*/, ''));
    const filter = segments.find((s) => FFMPEG_SCREEN.filters.some((f) => s === f || s.startsWith(`${f}=`) || s.startsWith(`${f}@`)));
    if (filter) return { rule: FFMPEG_SCREEN.rule, detail: `${name} reads the screen with the ${filter.split(/[=@]/)[0]} source` };
  }
  return null;
}

function matchGstreamer(name: string, args: readonly string[]): CaptureMatch | null {
  const tokens = args.flatMap((a) => a.split(/[\s!]+/)).map((t) => t.toLowerCase());
  const element = tokens.find((t) => GST_SCREEN.elements.includes(t));
  if (element) return { rule: GST_SCREEN.rule, detail: `${name} reads the screen through ${element}` };
  if (tokens.includes('avfvideosrc') && args.some((a) => /capture-screen=(true|1)/i.test(a))) {
    return { rule: GST_SCREEN.rule, detail: `${name} reads the screen through avfvideosrc capture-screen` };
  }
  const device = tokens.find((t) => GST_DEVICES.elements.includes(t));
  if (device) return { rule: GST_DEVICES.rule, detail: `${name} records from a camera or microphone through ${device}` };
  return null;
}

function matchPowerShell(name: string, args: readonly string[]): CaptureMatch | null {
  // Windows PowerShell runs positional args as -Command; -EncodedCommand (any unambiguous prefix,
  // -e, -ec, -enc) carries base64 UTF-16LE. Scan everything plus anything that decodes.
  const decoded = args.filter(looksBase64).map((a) => Buffer.from(a, 'base64').toString('utf16le'));
  return matchCode(name, [...args, ...decoded].join(' '));
}

function looksBase64(arg: string): boolean {
  return arg.length >= 8 && arg.length % 4 === 0 && /^[A-Za-z0-9+/]+={0,2}$/.test(arg);
}

function matchInterpreter(name: string, spec: InlineCode, args: readonly string[]): CaptureMatch | null {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') break;
    if (spec.value?.test(arg)) {
      i++;
      continue;
    }
    if (spec.module?.test(arg)) {
      const flag = arg.match(spec.module)![0];
      const module = arg.length > flag.length ? arg.slice(flag.length) : (args[i + 1] ?? '');
      if (CODE_MARKERS.some((marker) => marker.pattern.test(module)) || /^(mss|pyscreenshot|pyautogui)\b/.test(module)) {
        return { rule: 'interpreter-capture-payload', detail: `${name} loads ${module}, a screen capture or input module` };
      }
      continue;
    }
    if (spec.code.test(arg)) {
      if (name === 'awk') return matchCode(name, arg); // the program is the first operand
      const flag = arg.match(spec.code)![0];
      const attached = arg.slice(flag.length);
      const code = name === 'python' && attached ? attached : args.slice(i + 1).join(' ');
      return matchCode(name, code);
    }
    if (!arg.startsWith('-')) break; // a script file: its contents are out of reach
  }
  return null;
}

/**
 * The words at the start of quoted strings in code, as the word and its program name: an optional
 * path, then the name up to the next quote or space (`"scrot x.png"`, `'/usr/bin/grim'`). A word
 * the code ends with, unterminated, is not one.
 */
const QUOTED_WORD = /["'`]\s*([^"'`\s]*)(?=["'`\s])/g;

/** A capture executable at the start of a quoted string in code: os.system("scrot x.png"), execSync('grim -'). */
function quotedTool(code: string): string | undefined {
  for (const [, word] of code.matchAll(QUOTED_WORD)) {
    const name = baseName(word!).replace(/\.exe$/i, '');
    // ASCII case only: a name of the list never matches a non-ASCII character.
    const folded = name.replace(/[A-Z]+/g, (upper) => upper.toLowerCase());
    if (EXECUTABLES.has(folded) && !SPAWNED_IN_CODE.plainWords.has(folded)) return name;
  }
  return undefined;
}

function matchCode(name: string, code: string): CaptureMatch | null {
  for (const { pattern, what } of CODE_MARKERS) {
    if (pattern.test(code)) return { rule: 'interpreter-capture-payload', detail: `${name} inline code uses ${what}` };
  }
  const spawned = quotedTool(code);
  if (spawned) return { rule: SPAWNED_IN_CODE.rule, detail: `${name} ${SPAWNED_IN_CODE.says} ${spawned}` };
  return null;
}

function matchShellCode(name: string, code: string, depth: number): CaptureMatch | null {
  const direct = matchCode(name, code);
  if (direct) return { ...direct, rule: 'shell-capture-payload' };
  if (depth >= MAX_DEPTH) return null;
  const variants = [...new Set([code, unquoteShell(code)])];
  for (const variant of variants) {
    for (const segment of variant.split(COMMAND_BOUNDARIES)) {
      const command = commandWords(segment)[0];
      if (command !== undefined && isComputedWord(command)) {
        return { rule: 'shell-computed-command', detail: `${name} runs a command whose name is computed when it runs (${clipWord(command)})` };
      }
    }
    for (const segment of variant.split(SEPARATORS)) {
      // leading assignments (`FOO=1 cmd`, `export FOO=1`) belong to the segment, not the command
      const assignment = segmentWords(segment).find((w) => ASSIGNMENT.test(w) && isDisplayEnvKey(w.slice(0, w.indexOf('='))));
      if (assignment) return { rule: 'display-env-assignment', detail: `${name} command sets ${assignment.slice(0, assignment.indexOf('='))}` };
      const command = commandWords(segment);
      if (command.length === 0) continue;
      const match = matchCapture(command[0]!, null, command.slice(1), depth + 1);
      if (match) return match;
    }
  }
  return null;
}

/**
 * A wrapper (env, sudo, timeout...) runs a command found in its args. Option values cannot be told
 * apart from the command without knowing every wrapper's options, so the first word naming a
 * program this module knows is taken as the command (`sudo -u bob scrot`). One candidate per
 * level and a depth limit keep this linear.
 */
function matchWrapped(args: readonly string[], depth: number): CaptureMatch | null {
  if (depth >= MAX_DEPTH) return null;
  let checkedFirst = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg.startsWith('-') || ASSIGNMENT.test(arg)) continue;
    // `watch "scrot x.png"`, `flock f -c "..."`: a whole command line in one argument
    if (/\s/.test(arg.trim())) return matchShellCode('wrapped command', arg, depth + 1);
    if (isKnownProgram(programName(arg))) return matchCapture(arg, null, args.slice(i + 1), depth + 1);
    // The first operand that is not a count or a duration (timeout 5, nice -n 10) is most likely the command.
    if (!checkedFirst && !/^\d+(\.\d+)?[smhd]?$/.test(arg)) {
      checkedFirst = true;
      if (isComputedWord(arg))
        return { rule: 'shell-computed-command', detail: `a wrapper runs a command whose name is computed when it runs (${clipWord(arg)})` };
    }
  }
  return null;
}

function isKnownProgram(name: string): boolean {
  return (
    EXECUTABLES.has(name) ||
    BY_ARGUMENTS.has(name) ||
    FFMPEG_PROGRAMS.has(name) ||
    READ_BY_NAME.has(name) ||
    WRAPPERS.has(name) ||
    SHELLS.has(name) ||
    SHELL_COMMAND_WRAPPERS.has(name) ||
    INTERPRETERS.has(name)
  );
}
