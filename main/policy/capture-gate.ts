/**
 * What shell.exec refuses when the owner has NOT granted `desktop.hostDisplayAccess` (besides the
 * session environment, display-env.ts): a maintained denylist of obvious host-capture commands
 * and one-shot capture payloads, even under `allowedCommands: ["*"]`: screenshots and recorders,
 * X and Wayland clients that read or drive the session (xwininfo, xprop, xdotool, xclip...),
 * `-display` arguments, microphone and camera grabbers (arecord, pw-record, fswebcam, ffmpeg -f
 * v4l2|alsa|pulse|dshow...), capture devices (/dev/video*, /dev/snd, /dev/input, /dev/fb*), and
 * the quoting tricks a shell undoes (`imp""ort`, `i\mport`, a command name in `$x`).
 *
 * This is DEFENCE IN DEPTH, NOT ISOLATION. A child runs as the same user as the server: it can
 * rebuild a display address (`DISPLAY=:0`, the default X cookie in ~/.Xauthority, the Wayland
 * socket in /run/user/<uid>), copy or rename a capture binary, compile one, or hide a payload in
 * a script file this module never sees. On macOS and Windows the display is not reachable through
 * the environment at all, so this denylist is the only gate there. Only OS isolation (another
 * user, a container or VM without the session's sockets, an AppContainer or a separate desktop)
 * really keeps children off the screen. This removes the easy and the accidental paths, and
 * names the rule it applied.
 *
 * The rules are data with examples (capture-programs.ts, capture-payloads.ts); they are run
 * through the matcher when this module loads, so a rule that no longer does what its examples
 * say stops the server at start and fails every test. Pure: no fs, no process access. The
 * caller resolves the command's real path.
 */
import { matchCapture } from './capture-matcher.js';
import { CAPTURE_DEVICES, CAPTURE_URLS, CODE_MARKERS, DBUS_CAPTURE, DISPLAY_ARGUMENT, SPAWNED_IN_CODE } from './capture-payloads.js';
import {
  ARGUMENT_CAPTURES,
  CAPTURE_EXECUTABLES,
  FFMPEG_DEVICES,
  FFMPEG_SCREEN,
  GST_DEVICES,
  GST_SCREEN,
  type CaptureExamples,
  type CommandLine,
} from './capture-programs.js';
import { splitWords } from './shell-words.js';

/**
 * Why this command line is refused while `desktop.hostDisplayAccess` is false, or null: what it
 * does and the matched rule, e.g. `grim takes screenshots of the host display (rule
 * capture-executable/screenshot)`. The caller adds why that matters (the grant is off).
 * `realPath` is the resolved executable (symlinks followed), or null when unknown.
 */
export function captureDenial(commandName: string, realPath: string | null, args: readonly string[]): string | null {
  const match = matchCapture(commandName, realPath, args, 0);
  return match ? `${match.detail} (rule ${match.rule})` : null;
}

/** An entry of the denylist as its examples are checked. */
export interface CheckedRule {
  /** The rule its refusals report. */
  rule: string;
  /** Words its refusals contain, where several entries report the same rule. */
  says?: string;
  examples: CaptureExamples;
}

/** Every entry of the denylist, with its examples. */
export const CAPTURE_RULES: readonly CheckedRule[] = [
  ...CAPTURE_EXECUTABLES.map(({ category, examples }) => ({ rule: `capture-executable/${category}`, examples })),
  ...ARGUMENT_CAPTURES,
  FFMPEG_SCREEN,
  FFMPEG_DEVICES,
  GST_SCREEN,
  GST_DEVICES,
  CAPTURE_DEVICES,
  ...CAPTURE_URLS,
  DBUS_CAPTURE,
  DISPLAY_ARGUMENT,
  ...CODE_MARKERS.map(({ what, examples }) => ({ rule: 'interpreter-capture-payload', says: what, examples })),
  SPAWNED_IN_CODE,
];

/**
 * Runs each rule's examples through the real matcher: a refused example must be refused by that
 * rule, an allowed one not at all. Throws at the first disagreement, naming the rule and the example.
 */
export function checkCaptureExamples(rules: readonly CheckedRule[]): void {
  for (const { rule, says, examples } of rules) {
    const name = says === undefined ? rule : `${rule} (${says})`;
    for (const line of examples.refused) {
      const argv = commandLine(line);
      const match = matchCapture(argv[0]!, null, argv.slice(1));
      if (match?.rule === rule && (says === undefined || match.detail.includes(says))) continue;
      const instead = match ? `rule ${match.rule} refuses it (${match.detail})` : 'it is allowed';
      throw new Error(`capture rule ${name}: the example ${JSON.stringify(argv)} must be refused by this rule, but ${instead}`);
    }
    for (const line of examples.allowed) {
      const argv = commandLine(line);
      const match = matchCapture(argv[0]!, null, argv.slice(1));
      if (match)
        throw new Error(`capture rule ${name}: the look-alike ${JSON.stringify(argv)} must be allowed, but rule ${match.rule} refuses it (${match.detail})`);
    }
  }
}

function commandLine(line: CommandLine): readonly string[] {
  return typeof line === 'string' ? splitWords(line) : line;
}

checkCaptureExamples(CAPTURE_RULES);
