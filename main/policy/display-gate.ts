/**
 * What shell.exec must do when the owner has NOT granted `desktop.hostDisplayAccess`:
 * strip the graphical-session environment from children, refuse caller env that would put it
 * back, and refuse a maintained denylist of obvious host-capture commands and one-shot capture
 * payloads, even under `allowedCommands: ["*"]`: screenshots and recorders, X and Wayland
 * clients that read or drive the session (xwininfo, xprop, xdotool, xclip...), `-display`
 * arguments, microphone and camera grabbers (arecord, pw-record, fswebcam, ffmpeg -f v4l2|alsa|
 * pulse|dshow...), capture devices (/dev/video*, /dev/snd, /dev/input, /dev/fb*), and the
 * quoting tricks a shell undoes (`imp""ort`, `i\mport`, a command name in `$x`).
 *
 * This is DEFENCE IN DEPTH, NOT ISOLATION. A child runs as the same user as the server: it can
 * rebuild a display address (`DISPLAY=:0`, the default X cookie in ~/.Xauthority, the Wayland
 * socket in /run/user/<uid>), copy or rename a capture binary, compile one, or hide a payload in
 * a script file this module never sees. On macOS and Windows the display is not reachable through
 * the environment at all (see below). Only OS isolation (another user, a container or VM without
 * the session's sockets, an AppContainer or a separate desktop) really keeps children off the
 * screen. This module removes the easy and the accidental paths, and names the rule it applied.
 *
 * Pure: no fs, no process access. The caller resolves the command's real path.
 */

/**
 * Environment variables that locate or unlock the graphical session. Kept even when a key looks
 * redundant, because each one alone is enough for some client library to reach the display:
 *
 * - X11: `DISPLAY` (server address), `XAUTHORITY` (cookie file), `XAUTHLOCALHOSTNAME` (SUSE's
 *   cookie lookup name).
 * - Wayland / Mir: `WAYLAND_DISPLAY`, `WAYLAND_SOCKET` (an inherited connected fd number),
 *   `MIR_SOCKET`.
 * - `XDG_RUNTIME_DIR`: without `WAYLAND_DISPLAY`, libwayland connects to `$XDG_RUNTIME_DIR/wayland-0`,
 *   and without `DBUS_SESSION_BUS_ADDRESS`, libdbus, GDBus and sd-bus fall back to
 *   `$XDG_RUNTIME_DIR/bus`. Removing it also hides the PipeWire socket. Cost: tools that keep
 *   other sockets there (pulseaudio, podman rootless, gpg-agent on some distros) lose them.
 * - Session D-Bus: `DBUS_SESSION_BUS_ADDRESS` reaches xdg-desktop-portal (Screenshot, ScreenCast,
 *   RemoteDesktop), org.gnome.Shell.Screenshot, KWin's screenshot interface.
 * - Accessibility bus: `AT_SPI_BUS_ADDRESS` reads every window's text and triggers UI actions.
 * - PipeWire: `PIPEWIRE_REMOTE`, `PIPEWIRE_RUNTIME_DIR` (screen-cast streams are PipeWire nodes).
 * - Compositor IPC: `SWAYSOCK`, `I3SOCK`, `HYPRLAND_INSTANCE_SIGNATURE`, `NIRI_SOCKET`. Each can
 *   `exec` a command inside the compositor's own environment, which has the display.
 *
 * Not included, on purpose: `XDG_SESSION_TYPE`, `XDG_CURRENT_DESKTOP`, `DESKTOP_SESSION`,
 * `GDK_BACKEND`, `QT_QPA_PLATFORM` are labels or backend choices that grant nothing.
 *
 * macOS: no variable gates the screen. A child inherits the Mach bootstrap namespace of the user's
 * login session, so CoreGraphics/ScreenCaptureKit and CGEvent work whenever the responsible app
 * (the tray app) holds the Screen Recording / Accessibility grants. Only `DISPLAY` (XQuartz)
 * matters and it is in the list. Windows: the desktop (WinSta0\Default) is inherited as a kernel
 * handle, so BitBlt and SendInput work for any same-session child; no variable changes that.
 * On both, the command denylist below is the only gate this module offers.
 */
export const DISPLAY_ENV_KEYS: readonly string[] = Object.freeze([
  'DISPLAY',
  'XAUTHORITY',
  'XAUTHLOCALHOSTNAME',
  'WAYLAND_DISPLAY',
  'WAYLAND_SOCKET',
  'MIR_SOCKET',
  'XDG_RUNTIME_DIR',
  'DBUS_SESSION_BUS_ADDRESS',
  'AT_SPI_BUS_ADDRESS',
  'PIPEWIRE_REMOTE',
  'PIPEWIRE_RUNTIME_DIR',
  'SWAYSOCK',
  'I3SOCK',
  'HYPRLAND_INSTANCE_SIGNATURE',
  'NIRI_SOCKET',
]);

// Case-insensitive: Windows environment names are, and `display` has no legitimate use elsewhere.
const displayKeys: ReadonlySet<string> = new Set(DISPLAY_ENV_KEYS.map((k) => k.toUpperCase()));

export function isDisplayEnvKey(key: string): boolean {
  return displayKeys.has(key.toUpperCase());
}

/** A copy of `env` without the graphical-session variables. */
export function scrubDisplayEnv<T extends Record<string, string | undefined>>(env: T): T {
  const out: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(env)) if (!isDisplayEnvKey(key)) out[key] = value;
  return out as T;
}

/** The caller-provided keys that must be rejected (not silently dropped) while the grant is off. */
export function displayEnvKeysIn(callerEnv: Readonly<Record<string, unknown>> | undefined): string[] {
  return callerEnv ? Object.keys(callerEnv).filter(isDisplayEnvKey) : [];
}

// ---------------------------------------------------------------------------------------------
// Command denylist

type Category = 'screenshot' | 'recorder' | 'input' | 'clipboard' | 'remote-desktop' | 'compositor-ipc' | 'x-client' | 'microphone' | 'camera';

const describe: Record<Category, string> = {
  screenshot: 'takes screenshots of the host display',
  recorder: 'records the host screen',
  input: 'drives or reads the host keyboard and mouse',
  clipboard: 'reads or writes the host clipboard',
  'remote-desktop': 'shares the host screen',
  'compositor-ipc': 'controls the host compositor (and can run commands with its display)',
  'x-client': 'reads or changes the host display session (windows, keymap, input devices, access control)',
  microphone: 'records from the microphone',
  camera: 'captures from the camera',
};

/**
 * Executables that exist to capture, share or drive the display. Matched on the command name and
 * on the basename of its resolved real path, lowercased, without .exe/.com. The clipboard is in
 * scope because it lives in the display session and is where secrets are copied.
 */
const CAPTURE_EXECUTABLES: ReadonlyMap<string, Category> = new Map(
  (
    [
      // X11 / cross-desktop screenshots
      [
        'screenshot',
        [
          'import',
          'xwd',
          'scrot',
          'maim',
          'gnome-screenshot',
          'spectacle',
          'flameshot',
          'shutter',
          'ksnip',
          'xfce4-screenshooter',
          'mate-screenshot',
          'deepin-screenshot',
          'screengrab',
          'escrotum',
          'hacksaw',
          // Wayland
          'grim',
          'grimshot',
          'slurp',
          'wayshot',
          'hyprshot',
          'shotman',
          'swappy',
          // macOS, Windows
          'screencapture',
          'snippingtool',
          'screensketch',
          'psr',
          'shotgun',
          'gscreenshot',
          'xmag',
        ],
      ],
      [
        'recorder',
        [
          'wf-recorder',
          'wl-screenrec',
          'gpu-screen-recorder',
          'obs',
          'obs64',
          'obs32',
          'obs-studio',
          'simplescreenrecorder',
          'recordmydesktop',
          'gtk-recordmydesktop',
          'byzanz-record',
          'kazam',
          'peek',
          'kooha',
          'vokoscreen',
          'vokoscreenng',
        ],
      ],
      [
        'input',
        [
          'xdotool',
          'ydotool',
          'ydotoold',
          'wtype',
          'dotool',
          'dotoolc',
          'wlrctl',
          'xte',
          'xvkbd',
          'xmacroplay',
          'xmacrorec',
          'xmacrorec2',
          'xinput',
          'wmctrl',
          'cliclick',
          'autohotkey',
          'autohotkey32',
          'autohotkey64',
          'autohotkeyu64',
          'autoit3',
          'autoit3_x64',
          'nircmd',
          'nircmdc',
        ],
      ],
      ['clipboard', ['xclip', 'xsel', 'wl-paste', 'wl-copy', 'copyq', 'pbpaste', 'pbcopy']],
      [
        'x-client',
        [
          'xwininfo',
          'xprop',
          'xmodmap',
          'xev',
          'xkbcomp',
          'xkbprint',
          'xkbwatch',
          'xkbevd',
          'setxkbmap',
          'xset',
          'xrandr',
          'xauth',
          'xhost',
          'xkill',
          'xlsclients',
          'xdpyinfo',
          'xrdb',
          'xsetroot',
          'xbindkeys',
          'xwit',
          'xeyes',
          'x2x',
          'synergyc',
          'synergys',
          'barrierc',
          'barriers',
          'input-leapc',
          'input-leaps',
          'kdotool',
          'wlr-randr',
          'wl-mirror',
          // ImageMagick's X clients
          'display',
          'animate',
        ],
      ],
      ['microphone', ['arecord', 'parecord', 'parec', 'pw-record', 'rec', 'jack_capture', 'gnome-sound-recorder', 'audio-recorder', 'soundrecorder']],
      [
        'camera',
        [
          'fswebcam',
          'streamer',
          'cheese',
          'guvcview',
          'imagesnap',
          'webcamoid',
          'uvccapture',
          'kamoso',
          'mjpg_streamer',
          'ustreamer',
          'libcamera-still',
          'libcamera-vid',
          'libcamera-jpeg',
          'rpicam-still',
          'rpicam-vid',
          'raspistill',
          'raspivid',
        ],
      ],
      ['remote-desktop', ['x11vnc', 'x0vncserver', 'wayvnc', 'krfb', 'grdctl']],
      ['compositor-ipc', ['swaymsg', 'i3-msg', 'hyprctl', 'niri']],
    ] as const
  ).flatMap(([category, names]) => names.map((name) => [name, category as Category] as const)),
);

/** Grab devices and sources that read the screen, per tool. */
const FFMPEG_GRAB_FORMATS = new Set(['x11grab', 'xcbgrab', 'kmsgrab', 'gdigrab', 'avfoundation', 'fbdev', 'pipewiregrab']);
/** ffmpeg input devices that read a camera or a microphone. */
const FFMPEG_DEVICE_FORMATS = new Set([
  'v4l2',
  'video4linux2',
  'v4l',
  'alsa',
  'pulse',
  'oss',
  'jack',
  'sndio',
  'openal',
  'dshow',
  'vfwcap',
  'decklink',
  'android_camera',
]);
const FFMPEG_GRAB_FILTERS = ['ddagrab', 'gfxcapture'];
const GST_SCREEN_ELEMENTS = [
  'ximagesrc',
  'pipewiresrc',
  'd3d11screencapturesrc',
  'd3d12screencapturesrc',
  'dx9screencapsrc',
  'gdiscreencapsrc',
  'dxgiscreencapsrc',
];
const GST_DEVICE_ELEMENTS = [
  'v4l2src',
  'libcamerasrc',
  'avfvideosrc',
  'ksvideosrc',
  'mfvideosrc',
  'qtkitvideosrc',
  'dshowvideosrc',
  'dshowaudiosrc',
  'wasapisrc',
  'wasapi2src',
  'directsoundsrc',
  'pulsesrc',
  'alsasrc',
  'autoaudiosrc',
  'autovideosrc',
  'osxaudiosrc',
  'jackaudiosrc',
  'openalsrc',
  'osssrc',
  'oss4src',
];

/**
 * Device files of capture and input hardware: cameras (/dev/video*, /dev/media*, /dev/v4l/),
 * sound (/dev/snd/, /dev/dsp*, /dev/audio*), keyboards and mice (/dev/input/, /dev/uinput to
 * inject), the framebuffer (/dev/fb*: the screen). Matched anywhere in an argument (`if=/dev/video0`).
 */
const CAPTURE_DEVICE = /(?:^|[=:,\s])\/dev\/(video|media\d|v4l\/|snd\/|dsp|audio|input\/|uinput|fb\d)/i;
const DEVICE_KINDS: Record<string, string> = {
  video: 'a camera',
  media: 'a camera',
  'v4l/': 'a camera',
  'snd/': 'the sound card (microphone)',
  dsp: 'the sound card (microphone)',
  audio: 'the sound card (microphone)',
  'input/': 'keyboard and mouse events',
  uinput: 'synthetic keyboard and mouse input',
};

/** Capture sources given as a media URL: VLC screen://, v4l2://, alsa://...; mpv av://x11grab...; mplayer tv://. */
const CAPTURE_MRL =
  /^(?:(screen|v4l2?|alsa|pulse|dshow|qtcapture|avcapture|avfoundation|jack|oss|tv):\/\/|av:\/\/(x11grab|xcbgrab|kmsgrab|gdigrab|v4l2|video4linux2|alsa|pulse|avfoundation|dshow))/i;

/** D-Bus interfaces that capture or drive the screen: a high-signal payload in any command's args. */
const DBUS_CAPTURE_INTERFACES =
  /org\.(freedesktop\.portal\.(screenshot|screencast|remotedesktop)|gnome\.shell\.screenshot|gnome\.mutter\.(screencast|remotedesktop)|kde\.kwin\.screenshot2?|kde\.kwin\.screencast)\b/i;

/** Inline-code markers: capture/input libraries and OS APIs. Only checked inside inline code. */
const CODE_MARKERS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\b(pyautogui|pyscreeze|pyscreenshot|pynput|dxcam|d3dshot|ImageGrab)\b/i, 'a Python screen capture or input library'],
  [/\b(?:import|from)\s+mss\b|\bmss\s*\.\s*mss\b|\bmss\s*\(\s*\)/, 'the Python mss screen capture library'],
  [/\bfrom\s+Xlib\b|\bimport\s+Xlib\b/, 'python-xlib (direct X11 access)'],
  [
    /(@jitsi\/)?robotjs|@nut-tree(-fork)?\/|\bnut-js\b|screenshot-desktop|node-screenshots|uiohook|iohook|desktopCapturer/i,
    'a Node screen capture or input library',
  ],
  [/X11::GUITest|Imager::Screenshot|Win32::GuiTest|Win32::Screenshot/i, 'a Perl screen capture or input module'],
  [
    /CopyFromScreen|SendKeys|\bSendInput\b|keybd_event|mouse_event|SetCursorPos|GetAsyncKeyState|SetWindowsHookEx|\bBitBlt\b|PrintWindow|Cursor\]::Position/i,
    'a Windows screen capture or input API',
  ],
  [/Get-Clipboard|Set-Clipboard|Windows\.Forms\.Clipboard/i, 'the Windows clipboard'],
  [
    /CGWindowListCreateImage|CGDisplayCreateImage|SCScreenshotManager|SCStream|CGEventPost|CGEventCreate(Keyboard|Mouse)Event|NSPasteboard/,
    'a macOS screen capture, input or clipboard API',
  ],
  [/\bscreencapture\b|\bkeystroke\b|\bkey code\b|\bclick at\b/i, 'macOS screen capture or UI scripting'],
  [/\bXTestFake\w+|\bXGetImage\b|xcb_get_image/, 'a raw X11 capture or input call'],
  [/screen:\/\//i, 'a screen:// capture source'],
  [DBUS_CAPTURE_INTERFACES, 'a D-Bus screen capture or remote-desktop interface'],
  [new RegExp(`-f\\s+['"]?(${[...FFMPEG_GRAB_FORMATS].join('|')})\\b|\\b(${FFMPEG_GRAB_FILTERS.join('|')})\\b`, 'i'), 'an ffmpeg screen grab'],
  [new RegExp(`-f\\s+['"]?(${[...FFMPEG_DEVICE_FORMATS].join('|')})\\b`, 'i'), 'an ffmpeg camera or microphone capture'],
  [new RegExp(`\\b(${GST_SCREEN_ELEMENTS.join('|')})\\b`, 'i'), 'a GStreamer screen source'],
  [new RegExp(`\\b(${GST_DEVICE_ELEMENTS.join('|')})\\b`, 'i'), 'a GStreamer camera or microphone source'],
  [/\bcv2\s*\.\s*VideoCapture\b|\bpyaudio\b|\bsounddevice\b|\bAVCaptureDevice\b|\bAVAudioRecorder\b|\bgetUserMedia\b/, 'a camera or microphone API'],
  [/\/dev\/(video|snd\/|dsp|input\/|uinput|fb\d)/, 'a capture or input device file'],
  [/\bimport\s+-window\b|\bx:root\b/i, 'an ImageMagick screen grab'],
];

const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'ash', 'fish', 'tcsh', 'csh', 'busybox-sh']);
/** Commands that run another command given in their args. */
const WRAPPERS = new Set([
  'env',
  'sudo',
  'doas',
  'nice',
  'nohup',
  'timeout',
  'stdbuf',
  'setsid',
  'xargs',
  'command',
  'time',
  'ionice',
  'chrt',
  'taskset',
  'unbuffer',
  'busybox',
  'watch',
  'flock',
  'runuser',
  'dbus-launch',
  'dbus-run-session',
  'wsl',
  'exec',
  'start',
  'systemd-run',
  'flatpak-spawn',
  'strace',
  'ltrace',
  'gdb',
  'eval',
]);
const SHELL_COMMAND_WRAPPERS = new Set(['su', 'script', 'runuser']); // `-c "command string"`
const MAX_DEPTH = 4;
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/** Interpreters whose inline code is scanned, with the flags that introduce code or a module. */
interface InlineCode {
  /** Flags whose next arg (or attached value) is code, e.g. `-c`, `-e`. */
  code: RegExp;
  /** Flags whose next arg (or attached value) is a module to load, e.g. `-m`, `-r`. */
  module?: RegExp;
  /** Other flags that take a separate value, so the value is not mistaken for a script. */
  value?: RegExp;
}

const INTERPRETERS: ReadonlyMap<string, InlineCode> = new Map<string, InlineCode>([
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

export interface CaptureMatch {
  rule: string;
  detail: string;
}

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

export function matchCapture(commandName: string, realPath: string | null, args: readonly string[], depth = 0): CaptureMatch | null {
  const names = [...new Set([programName(commandName), realPath ? programName(realPath) : ''].filter(Boolean))];
  const label = baseName(commandName) || commandName;

  const envArg = args.find((a) => ASSIGNMENT.test(a) && isDisplayEnvKey(a.slice(0, a.indexOf('='))));
  if (envArg) return { rule: 'display-env-assignment', detail: `${label} sets ${envArg.slice(0, envArg.indexOf('='))} in its arguments` };
  if (args.some((a) => DBUS_CAPTURE_INTERFACES.test(a)))
    return { rule: 'dbus-capture-interface', detail: `${label} calls a D-Bus screen capture or remote-desktop interface` };
  const mrl = args.map((a) => CAPTURE_MRL.exec(a)).find(Boolean);
  if (mrl) {
    const source = mrl[1] ? `${mrl[1]}://` : `av://${mrl[2]}`;
    const screen = /^(screen|av:\/\/(x11grab|xcbgrab|kmsgrab|gdigrab|avfoundation))/i.test(mrl[0]);
    return { rule: screen ? 'screen-mrl' : 'capture-mrl', detail: `${label} opens a ${source} capture source` };
  }

  for (const name of names) {
    const category = CAPTURE_EXECUTABLES.get(name);
    if (category) return { rule: `capture-executable/${category}`, detail: `${name} ${describe[category]}` };
    const special = matchByProgram(name, args, depth);
    if (special) return special;
  }
  // Any X client reaches the display when told where it is, though the session variables are gone.
  if (args.some((a) => /^--?display(=|$)/i.test(a))) return { rule: 'display-argument', detail: `${label} is told which display to use (-display)` };
  const device = args.map((a) => CAPTURE_DEVICE.exec(a)).find(Boolean);
  if (device) {
    const kind = device[1]!.toLowerCase();
    const what = DEVICE_KINDS[kind] ?? (kind.startsWith('media') ? 'a camera' : 'the screen (framebuffer)');
    return { rule: 'capture-device-path', detail: `${label} opens a device of ${what}` };
  }
  return null;
}

function matchByProgram(name: string, args: readonly string[], depth: number): CaptureMatch | null {
  if (name === 'ffmpeg' || name === 'ffplay' || name === 'ffprobe' || name === 'avconv') return matchFfmpeg(name, args);
  if (name.startsWith('gst-launch')) {
    const tokens = args.flatMap((a) => a.split(/[\s!]+/)).map((t) => t.toLowerCase());
    const element = tokens.find((t) => GST_SCREEN_ELEMENTS.includes(t));
    if (element) return { rule: 'gstreamer-screen-source', detail: `${name} reads the screen through ${element}` };
    if (tokens.includes('avfvideosrc') && args.some((a) => /capture-screen=(true|1)/i.test(a))) {
      return { rule: 'gstreamer-screen-source', detail: `${name} reads the screen through avfvideosrc capture-screen` };
    }
    const device = tokens.find((t) => GST_DEVICE_ELEMENTS.includes(t));
    if (device) return { rule: 'gstreamer-device-source', detail: `${name} records from a camera or microphone through ${device}` };
    return null;
  }
  if (name === 'sox') {
    // sox -d (the default device) or -t <audio driver> records when it is an input (and plays otherwise; both are refused).
    const driver = args.findIndex((a, i) => a === '-t' && /^(alsa|pulseaudio|coreaudio|waveaudio|oss|sndio|ao)$/i.test(args[i + 1] ?? ''));
    if (args.some((a) => a === '-d' || a === '--default-device') || driver >= 0) {
      return { rule: 'capture-executable/microphone', detail: `${name} uses the sound device (-d or -t with an audio driver), which can record` };
    }
    return null;
  }
  if ((name === 'pw-cat' || name === 'pacat') && args.some((a) => a === '-r' || a === '--record')) {
    return { rule: 'capture-executable/microphone', detail: `${name} --record ${describe.microphone}` };
  }
  if (name === 'v4l2-ctl' && args.some((a) => /^--stream-(mmap|user|dmabuf|to)/.test(a))) {
    return { rule: 'capture-executable/camera', detail: `${name} --stream-* ${describe.camera}` };
  }
  if (name === 'magick' || name === 'convert' || name === 'gm') {
    if (args[0]?.toLowerCase() === 'import' || args.some((a) => /^(x|screenshot):/i.test(a))) {
      return { rule: 'imagemagick-screen-grab', detail: `${name} reads the X display (import or the x: coder)` };
    }
    return null;
  }
  if (name === 'vlc' || name === 'cvlc') return null; // screen:// is checked for every command
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

function matchFfmpeg(name: string, args: readonly string[]): CaptureMatch | null {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!.toLowerCase();
    const format = arg === '-f' ? (args[i + 1] ?? '').toLowerCase() : '';
    if (FFMPEG_GRAB_FORMATS.has(format)) return { rule: 'ffmpeg-screen-grab', detail: `${name} reads the screen with -f ${args[i + 1]}` };
    if (FFMPEG_DEVICE_FORMATS.has(format)) {
      return { rule: 'ffmpeg-device-capture', detail: `${name} records from a camera or microphone with -f ${args[i + 1]}` };
    }
    // lavfi sources such as `ddagrab=output_idx=0` in -i, -vf or -filter_complex graphs
    const segments = arg.split(/[;,]/).map((s) => s.replace(/^\s*(\[[^\]]*\]\s*)*/, ''));
    const filter = segments.find((s) => FFMPEG_GRAB_FILTERS.some((f) => s === f || s.startsWith(`${f}=`) || s.startsWith(`${f}@`)));
    if (filter) return { rule: 'ffmpeg-screen-grab', detail: `${name} reads the screen with the ${filter.split(/[=@]/)[0]} source` };
  }
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
      if (CODE_MARKERS.some(([re]) => re.test(module)) || /^(mss|pyscreenshot|pyautogui)\b/.test(module)) {
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

function matchCode(name: string, code: string): CaptureMatch | null {
  for (const [re, what] of CODE_MARKERS) {
    if (re.test(code)) return { rule: 'interpreter-capture-payload', detail: `${name} inline code uses ${what}` };
  }
  const spawned = code.match(QUOTED_TOOL);
  if (spawned) return { rule: 'interpreter-capture-payload', detail: `${name} inline code runs ${spawned[1]}` };
  return null;
}

/** Names too common as plain words or dictionary keys to flag inside quoted strings of code. */
const AMBIGUOUS_WORDS = new Set([
  'import',
  'peek',
  'obs',
  'obs32',
  'obs64',
  'psr',
  'xte',
  'niri',
  'slurp',
  'shutter',
  'display',
  'animate',
  'rec',
  'streamer',
  'cheese',
  'xset',
]);
const toolNames = [...CAPTURE_EXECUTABLES.keys()]
  .filter((n) => !AMBIGUOUS_WORDS.has(n))
  .map(escapeRegExp)
  .join('|');
/** A capture tool at the start of a quoted string in code: os.system("scrot x.png"), execSync('grim -'). */
const QUOTED_TOOL = new RegExp(`["'\`]\\s*(?:[^"'\`\\s]*[\\\\/])?(${toolNames})(?:\\.exe)?(?=["'\`\\s])`, 'i');

/** Shell words in command position: start, after ; & | ( ` $( or a newline, optionally after wrappers. */
const SEPARATORS = /(?:&&|\|\||[;&|()`\n]|\$\()/;
/** The same without backticks and $(, so `$(printf imp)ort` and `` `x`ort `` stay one (computed) word. */
const COMMAND_BOUNDARIES = /&&|\|\||[;&|()\n]/;
/** Reserved words that may come before a command. */
const SHELL_KEYWORDS = new Set(['if', 'then', 'else', 'elif', 'while', 'until', 'do', '!', '{', '}', 'time', 'coproc']);

/**
 * What the shell runs once it removed quotes and backslashes: `imp""ort`, `i\mport` and `'import'`
 * all run import. Dropping them also merges quoted text into the line, so a separator inside a
 * quoted string may start a "command" here: a refusal too many, never one too few.
 */
function unquoteShell(code: string): string {
  return code.replace(/["'\\]/g, '');
}

/**
 * A command name the shell computes at run time: a parameter or command substitution ($x, ${x},
 * $(...), backticks, $'\x69mport'), a glob (/usr/bin/imp*rt) or a brace expansion. The gate cannot
 * know what it runs, so it is refused while display access is off.
 */
function isComputedWord(word: string): boolean {
  return /[$`*?]/.test(word) || (word.includes('[') && word !== '[' && word !== '[[') || /\{[^}]*,/.test(word);
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
      const words = segment.trim().split(/\s+/).map(unquote).filter(Boolean);
      // leading assignments (`FOO=1 cmd`, `export FOO=1`) belong to the segment, not the command
      const assignment = words.find((w) => ASSIGNMENT.test(w) && isDisplayEnvKey(w.slice(0, w.indexOf('='))));
      if (assignment) return { rule: 'display-env-assignment', detail: `${name} command sets ${assignment.slice(0, assignment.indexOf('='))}` };
      const command = commandWords(segment);
      if (command.length === 0) continue;
      const match = matchCapture(command[0]!, null, command.slice(1), depth + 1);
      if (match) return match;
    }
  }
  return null;
}

/** The words of a simple command from its name on: assignments and reserved words before it are skipped. */
function commandWords(segment: string): string[] {
  const words = segment.trim().split(/\s+/).map(unquote).filter(Boolean);
  const start = words.findIndex((w) => !ASSIGNMENT.test(w) && !SHELL_KEYWORDS.has(w));
  return start < 0 ? [] : words.slice(start);
}

function clipWord(word: string): string {
  return word.length > 40 ? `${word.slice(0, 40)}...` : word;
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

const SPECIAL_PROGRAMS = new Set([
  'ffmpeg',
  'ffplay',
  'ffprobe',
  'avconv',
  'gst-launch',
  'magick',
  'convert',
  'gm',
  'vlc',
  'cvlc',
  'powershell',
  'pwsh',
  'cmd',
  'mshta',
  'wscript',
  'cscript',
  'sox',
  'pw-cat',
  'pacat',
  'v4l2-ctl',
]);

function isKnownProgram(name: string): boolean {
  return (
    CAPTURE_EXECUTABLES.has(name) ||
    WRAPPERS.has(name) ||
    SHELLS.has(name) ||
    SHELL_COMMAND_WRAPPERS.has(name) ||
    INTERPRETERS.has(name) ||
    SPECIAL_PROGRAMS.has(name)
  );
}

/** Lowercased basename without Windows executable suffixes; versioned interpreters collapse. */
function programName(path: string): string {
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

function baseName(path: string): string {
  return path.split(/[\\/]/).pop() ?? path;
}

function unquote(word: string): string {
  return word.replace(/^["']+|["']+$/g, '');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
