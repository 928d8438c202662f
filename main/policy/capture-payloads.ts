/**
 * Capture sources named in a command's arguments or in inline code, as data: device files,
 * capture URLs, D-Bus capture interfaces, `-display`, and the markers of capture and input
 * libraries and OS APIs in code given to an interpreter or a shell. Every entry carries command
 * lines it must refuse and look-alikes it must let through (capture-gate.ts checks them at load).
 */
import { splitWords } from './shell-words.js';
import { FFMPEG_DEVICES, FFMPEG_SCREEN, GST_DEVICES, GST_SCREEN, type CaptureExamples } from './capture-programs.js';

/**
 * Device files of capture and input hardware: cameras (/dev/video*, /dev/media*, /dev/v4l/),
 * sound (/dev/snd/, /dev/dsp*, /dev/audio*), keyboards and mice (/dev/input/, /dev/uinput to
 * inject), the framebuffer (/dev/fb*: the screen). Matched anywhere in an argument (`if=/dev/video0`).
 */
export const CAPTURE_DEVICES = {
  rule: 'capture-device-path',
  pattern: /(?:^|[=:,\s])\/dev\/(video|media\d|v4l\/|snd\/|dsp|audio|input\/|uinput|fb\d)/i,
  /** What each matched device is; media<n> is a camera, fb<n> the screen. */
  kinds: {
    video: 'a camera',
    media: 'a camera',
    'v4l/': 'a camera',
    'snd/': 'the sound card (microphone)',
    dsp: 'the sound card (microphone)',
    audio: 'the sound card (microphone)',
    'input/': 'keyboard and mouse events',
    uinput: 'synthetic keyboard and mouse input',
  } as Readonly<Record<string, string>>,
  examples: {
    refused: ['cat /dev/video0', 'dd if=/dev/fb0 of=/tmp/s.raw', 'evtest /dev/input/event0', 'cat /dev/snd/pcmC0D0c'],
    allowed: ['cat /dev/null', 'ls -l /dev/', 'cat ./dev/video0'],
  },
};

/** Capture sources given as a media URL (VLC screen://, v4l2://, alsa://...; mpv av://x11grab...; mplayer tv://), screens first. */
export const CAPTURE_URLS = [
  {
    rule: 'screen-mrl',
    pattern: /^(?:(screen):\/\/|av:\/\/(x11grab|xcbgrab|kmsgrab|gdigrab|avfoundation))/i,
    examples: { refused: ['cvlc screen:// --sout file/ts:out.ts', 'mpv av://x11grab::0'], allowed: ['vlc movie.mkv', 'mpv https://example.com/screen://x'] },
  },
  {
    rule: 'capture-mrl',
    pattern: /^(?:(v4l2?|alsa|pulse|dshow|qtcapture|avcapture|avfoundation|jack|oss|tv):\/\/|av:\/\/(v4l2|video4linux2|alsa|pulse|dshow))/i,
    examples: {
      refused: ['mpv av://v4l2:/dev/video0', 'cvlc v4l2:///dev/video0', 'mplayer tv://'],
      allowed: ['mpv file://movie.mkv', 'mpv av://lavfi:testsrc'],
    },
  },
] as const;

/** D-Bus interfaces that capture or drive the screen: a high-signal payload in any command's args. */
export const DBUS_CAPTURE = {
  rule: 'dbus-capture-interface',
  pattern:
    /org\.(freedesktop\.portal\.(screenshot|screencast|remotedesktop)|gnome\.shell\.screenshot|gnome\.mutter\.(screencast|remotedesktop)|kde\.kwin\.screenshot2?|kde\.kwin\.screencast)\b/i,
  examples: {
    refused: [
      'gdbus call --session --dest org.gnome.Shell.Screenshot --object-path /org/gnome/Shell/Screenshot --method org.gnome.Shell.Screenshot.Screenshot',
      'dbus-send --session --dest=org.freedesktop.portal.Desktop /org/freedesktop/portal/desktop org.freedesktop.portal.Screenshot.Screenshot',
    ],
    allowed: ['dbus-send --session --dest=org.freedesktop.Notifications /', 'gdbus introspect --session --dest org.gnome.Shell.Screenshotter'],
  },
};

/** Any X client reaches the display when told where it is, though the session variables are gone. */
export const DISPLAY_ARGUMENT = {
  rule: 'display-argument',
  pattern: /^--?display(=|$)/i,
  examples: { refused: ['xterm -display :0', 'firefox --display=:0 https://example.com'], allowed: ['git log --author=display', 'xterm -displayfont x'] },
};

/** A marker of capture or input in inline code (checked only inside code given to an interpreter or a shell). */
export interface CodeMarker {
  pattern: RegExp;
  /** What the code uses, in the refusal. */
  what: string;
  examples: CaptureExamples;
}

const py = (code: string) => ['python3', '-c', code];

export const CODE_MARKERS: readonly CodeMarker[] = [
  {
    pattern: /\b(pyautogui|pyscreeze|pyscreenshot|pynput|dxcam|d3dshot|ImageGrab)\b/i,
    what: 'a Python screen capture or input library',
    examples: {
      refused: [py('import pyautogui; pyautogui.screenshot("s.png")'), py('from PIL import ImageGrab; ImageGrab.grab()')],
      allowed: [py('import PIL.Image')],
    },
  },
  {
    pattern: /\b(?:import|from)\s+mss\b|\bmss\s*\.\s*mss\b|\bmss\s*\(\s*\)/,
    what: 'the Python mss screen capture library',
    examples: { refused: [['python3', '-Ic', 'import mss; mss.mss().shot()']], allowed: [py('import mssql')] },
  },
  {
    pattern: /\bfrom\s+Xlib\b|\bimport\s+Xlib\b/,
    what: 'python-xlib (direct X11 access)',
    examples: { refused: [py('from Xlib import X')], allowed: [py('import Xlibrary')] },
  },
  {
    pattern: /(@jitsi\/)?robotjs|@nut-tree(-fork)?\/|\bnut-js\b|screenshot-desktop|node-screenshots|uiohook|iohook|desktopCapturer/i,
    what: 'a Node screen capture or input library',
    examples: {
      refused: [
        ['node', '-e', 'require("robotjs").keyTap("a")'],
        ['node', '-e', "import('@nut-tree-fork/nut-js').then((n) => n.screen.grab())"],
      ],
      allowed: [['node', '-e', 'require("robots-parser")']],
    },
  },
  {
    pattern: /X11::GUITest|Imager::Screenshot|Win32::GuiTest|Win32::Screenshot/i,
    what: 'a Perl screen capture or input module',
    examples: { refused: [['perl', '-e', 'use X11::GUITest; SendKeys("hi")']], allowed: [['perl', '-ne', 'print if /import/', 'f.txt']] },
  },
  {
    pattern:
      /CopyFromScreen|SendKeys|\bSendInput\b|keybd_event|mouse_event|SetCursorPos|GetAsyncKeyState|SetWindowsHookEx|\bBitBlt\b|PrintWindow|Cursor\]::Position/i,
    what: 'a Windows screen capture or input API',
    examples: {
      refused: [
        ['powershell.exe', '-Command', '$g.CopyFromScreen(0,0,0,0,$b.Size)'],
        ['pwsh', '-c', '[System.Windows.Forms.SendKeys]::SendWait("x")'],
      ],
      allowed: [['powershell', '-Command', 'Get-ChildItem C:\\']],
    },
  },
  {
    pattern: /Get-Clipboard|Set-Clipboard|Windows\.Forms\.Clipboard/i,
    what: 'the Windows clipboard',
    examples: { refused: ['powershell Get-Clipboard'], allowed: ['powershell Get-Content clip.txt'] },
  },
  {
    pattern: /CGWindowListCreateImage|CGDisplayCreateImage|SCScreenshotManager|SCStream|CGEventPost|CGEventCreate(Keyboard|Mouse)Event|NSPasteboard/,
    what: 'a macOS screen capture, input or clipboard API',
    examples: {
      refused: [['osascript', '-l', 'JavaScript', '-e', 'ObjC.import("CoreGraphics"); $.CGDisplayCreateImage(1)']],
      allowed: [['osascript', '-l', 'JavaScript', '-e', 'ObjC.import("Foundation")']],
    },
  },
  {
    pattern: /\bscreencapture\b|\bkeystroke\b|\bkey code\b|\bclick at\b/i,
    what: 'macOS screen capture or UI scripting',
    examples: {
      refused: [
        ['osascript', '-e', 'tell application "System Events" to keystroke "q"'],
        ['osascript', '-e', 'do shell script "screencapture -x /tmp/s.png"'],
      ],
      allowed: [['osascript', '-e', 'tell application "Finder" to open home']],
    },
  },
  {
    pattern: /\bXTestFake\w+|\bXGetImage\b|xcb_get_image/,
    what: 'a raw X11 capture or input call',
    examples: { refused: [py('x11.XGetImage(d, root, 0, 0, w, h, ~0, 2)')], allowed: [py('img.GetImage()')] },
  },
  {
    pattern: /screen:\/\//i,
    what: 'a screen:// capture source',
    examples: { refused: [py('vlc.MediaPlayer("screen://").play()')], allowed: [py('print("screen")')] },
  },
  {
    pattern: DBUS_CAPTURE.pattern,
    what: 'a D-Bus screen capture or remote-desktop interface',
    // Only reachable through code the gate decodes: a D-Bus name in plain arguments is refused above.
    examples: {
      refused: [['powershell', '-enc', 'bwByAGcALgBnAG4AbwBtAGUALgBTAGgAZQBsAGwALgBTAGMAcgBlAGUAbgBzAGgAbwB0AA==']], // org.gnome.Shell.Screenshot
      allowed: [['powershell', '-enc', 'bwByAGcALgBnAG4AbwBtAGUALgBTAGgAZQBsAGwALgBTAGMAcgBlAGUAbgA=']], // org.gnome.Shell.Screen
    },
  },
  {
    pattern: new RegExp(`-f\\s+['"]?(${[...FFMPEG_SCREEN.formats].join('|')})\\b|\\b(${FFMPEG_SCREEN.filters.join('|')})\\b`, 'i'),
    what: 'an ffmpeg screen grab',
    examples: { refused: [py('os.system("ffmpeg -f x11grab -i :0 o.mp4")')], allowed: [py('os.system("ffmpeg -f mp4 -i a o.mp4")')] },
  },
  {
    pattern: new RegExp(`-f\\s+['"]?(${[...FFMPEG_DEVICES.formats].join('|')})\\b`, 'i'),
    what: 'an ffmpeg camera or microphone capture',
    examples: { refused: [py('os.system("ffmpeg -f alsa -i default x.wav")')], allowed: [py('os.system("ffmpeg -f wav -i a.wav x.mp3")')] },
  },
  {
    pattern: new RegExp(`\\b(${GST_SCREEN.elements.join('|')})\\b`, 'i'),
    what: 'a GStreamer screen source',
    examples: { refused: [py('Gst.parse_launch("ximagesrc ! fakesink")')], allowed: [py('Gst.parse_launch("videotestsrc ! fakesink")')] },
  },
  {
    pattern: new RegExp(`\\b(${GST_DEVICES.elements.join('|')})\\b`, 'i'),
    what: 'a GStreamer camera or microphone source',
    examples: { refused: [py('Gst.parse_launch("pulsesrc ! fakesink")')], allowed: [py('Gst.parse_launch("filesrc location=a.wav ! fakesink")')] },
  },
  {
    pattern: /\bcv2\s*\.\s*VideoCapture\b|\bpyaudio\b|\bsounddevice\b|\bAVCaptureDevice\b|\bAVAudioRecorder\b|\bgetUserMedia\b/,
    what: 'a camera or microphone API',
    examples: {
      refused: [py('import cv2; cv2.VideoCapture(0).read()'), py('import sounddevice as sd; sd.rec(10)')],
      allowed: [py('import cv2; cv2.imread("a.png")')],
    },
  },
  {
    pattern: /\/dev\/(video|snd\/|dsp|input\/|uinput|fb\d)/,
    what: 'a capture or input device file',
    examples: { refused: [py('open("/dev/video0", "rb").read()')], allowed: [py('open("/dev/null").read()')] },
  },
  {
    pattern: /\bimport\s+-window\b|\bx:root\b/i,
    what: 'an ImageMagick screen grab',
    examples: { refused: [py('os.system("import -window root s.png")')], allowed: [py('import os; os.system("convert a.png x-root.png")')] },
  },
];

/**
 * A capture executable started from inline code, found at the start of a quoted string:
 * os.system("scrot x.png"), execSync('grim -'). Names too common as plain words or dictionary
 * keys are left out.
 */
export const SPAWNED_IN_CODE = {
  rule: 'interpreter-capture-payload',
  says: 'inline code runs',
  plainWords: new Set(splitWords('import peek obs obs32 obs64 psr xte niri slurp shutter display animate rec streamer cheese xset')),
  examples: {
    refused: [py('import subprocess; subprocess.run(["scrot", "x.png"])'), ['ruby', '-e', 'system("xdotool key ctrl+c")']],
    allowed: [py("d = {'obs': 1}; print(d['obs'])"), py('print("display")')],
  },
};
