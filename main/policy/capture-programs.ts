/**
 * The programs of the capture denylist, as data: executables that exist to capture, share or
 * drive the display, the microphone or the camera (refused whatever their arguments), and
 * programs that capture only with certain arguments (ffmpeg -f x11grab, sox -d...). The
 * clipboard is in scope because it lives in the display session and is where secrets are copied.
 *
 * Every entry carries command lines it must refuse and look-alikes it must let through;
 * capture-gate.ts runs them through the real matcher when it loads, so a broken edit stops the
 * server at start.
 */
import { splitWords } from './shell-words.js';

export type Category = 'screenshot' | 'recorder' | 'input' | 'clipboard' | 'remote-desktop' | 'compositor-ipc' | 'x-client' | 'microphone' | 'camera';

/** What a program of each category does, in the refusal after its name. */
export const CATEGORY_DOES: Readonly<Record<Category, string>> = {
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

/** A command line as the gate sees it, the command first. A string is split on spaces. */
export type CommandLine = string | readonly string[];

/** Command lines a rule must refuse (by that rule) and look-alikes it must let through. */
export interface CaptureExamples {
  refused: readonly CommandLine[];
  allowed: readonly CommandLine[];
}

export interface ExecutableGroup {
  category: Category;
  /** Lowercased basenames without .exe/.com. */
  programs: readonly string[];
  examples: CaptureExamples;
}

function group(category: Category, programs: string, examples: CaptureExamples): ExecutableGroup {
  return { category, programs: splitWords(programs), examples };
}

/**
 * Executables refused whatever their arguments. Matched on the command name and on the basename
 * of its resolved real path (a renamed copy or a symlink is still caught by its target).
 */
export const CAPTURE_EXECUTABLES: readonly ExecutableGroup[] = [
  group('screenshot', 'import xwd scrot maim gnome-screenshot spectacle flameshot shutter ksnip xfce4-screenshooter mate-screenshot deepin-screenshot', {
    refused: ['import -window root s.png', '/usr/bin/maim /tmp/s.png', 'import-im6.q16 -window root s.png', 'spectacle -b -n'],
    allowed: ['git commit -m import', 'ls /usr/bin/scrot', 'importer x', 'cat screenshot.png'],
  }),
  group('screenshot', 'screengrab escrotum hacksaw', { refused: ['screengrab -f'], allowed: ['grep screengrab notes.md'] }),
  // Wayland
  group('screenshot', 'grim grimshot slurp wayshot hyprshot shotman swappy', {
    refused: ['grim -', 'grimshot save area'],
    allowed: ['grimace', 'echo grim'],
  }),
  // macOS, Windows, and more X11 grabbers
  group('screenshot', 'screencapture snippingtool screensketch psr shotgun gscreenshot xmag', {
    refused: ['screencapture -x /tmp/s.png', 'C:\\Windows\\System32\\SnippingTool.exe /clip', 'psr.exe /start /output x.zip'],
    allowed: ['screencapturekit-docs', 'psql -c select'],
  }),
  group('recorder', 'wf-recorder wl-screenrec gpu-screen-recorder obs obs64 obs32 obs-studio simplescreenrecorder recordmydesktop gtk-recordmydesktop', {
    refused: ['wf-recorder -f out.mp4', 'obs --startrecording', 'OBS64.EXE'],
    allowed: ['obsidian', 'wf-recorder-notes'],
  }),
  group('recorder', 'byzanz-record kazam peek kooha vokoscreen vokoscreenng', { refused: ['peek', 'kazam'], allowed: ['peeker'] }),
  // X11 and Wayland input
  group('input', 'xdotool ydotool ydotoold wtype dotool dotoolc wlrctl xte xvkbd xmacroplay xmacrorec xmacrorec2 xinput wmctrl', {
    refused: ['xdotool type hello', 'ydotool click 0xC0', 'xinput test 11', 'wmctrl -l'],
    allowed: ['xdotool-notes', 'type xdotool'],
  }),
  // macOS and Windows input
  group('input', 'cliclick autohotkey autohotkey32 autohotkey64 autohotkeyu64 autoit3 autoit3_x64 nircmd nircmdc', {
    refused: ['cliclick c:100,100', 'AutoHotkey64.exe script.ahk', 'nircmd.exe savescreenshot s.png'],
    allowed: ['autoit'],
  }),
  group('clipboard', 'xclip xsel wl-paste wl-copy copyq pbpaste pbcopy', {
    refused: ['xclip -o -selection clipboard', 'wl-paste', 'pbpaste', 'xsel -b'],
    allowed: ['xclipboard-notes', 'pbcopy.txt'],
  }),
  group('x-client', 'xwininfo xprop xmodmap xev xkbcomp xkbprint xkbwatch xkbevd setxkbmap xset xrandr xauth xhost xkill xlsclients xdpyinfo xrdb', {
    refused: ['xwininfo -root -tree', 'xprop -root', 'xauth list', 'xhost +', 'setxkbmap -print'],
    allowed: ['xpropx', 'man xauth'],
  }),
  group('x-client', 'xsetroot xbindkeys xwit xeyes', { refused: ['xeyes'], allowed: ['eyes'] }),
  // Keyboard and mouse sharing between computers
  group('x-client', 'x2x synergyc synergys barrierc barriers input-leapc input-leaps', {
    refused: ['barrierc 10.0.0.2', 'synergys -f'],
    allowed: ['barrier'],
  }),
  // Wayland session tools
  group('x-client', 'kdotool wlr-randr wl-mirror', { refused: ['wlr-randr', 'kdotool search x'], allowed: ['wl-mirrors'] }),
  // ImageMagick's X clients
  group('x-client', 'display animate', { refused: ['display-im6.q16 -window root', 'animate frames.gif'], allowed: ['git log --author=display'] }),
  group('microphone', 'arecord parecord parec pw-record rec jack_capture gnome-sound-recorder audio-recorder soundrecorder', {
    refused: ['arecord -d 5 x.wav', 'parecord x.wav', 'pw-record x.wav', 'rec x.wav'],
    allowed: ['record x.wav', 'aplay x.wav'],
  }),
  group('camera', 'fswebcam streamer cheese guvcview imagesnap webcamoid uvccapture kamoso mjpg_streamer ustreamer', {
    refused: ['fswebcam shot.jpg', 'imagesnap -w 1 shot.jpg'],
    allowed: ['cheesecake', 'webcam-notes'],
  }),
  // Raspberry Pi cameras
  group('camera', 'libcamera-still libcamera-vid libcamera-jpeg rpicam-still rpicam-vid raspistill raspivid', {
    refused: ['libcamera-still -o x.jpg', 'raspivid -o x.h264'],
    allowed: ['libcamera-hello'],
  }),
  group('remote-desktop', 'x11vnc x0vncserver wayvnc krfb grdctl', { refused: ['x11vnc -display :0', 'wayvnc 0.0.0.0'], allowed: ['vncviewer host'] }),
  group('compositor-ipc', 'swaymsg i3-msg hyprctl niri', { refused: ['swaymsg exec grim', 'hyprctl dispatch exec x'], allowed: ['sway-notes'] }),
];

/** A test on the arguments that makes a program capture. */
export type ArgumentTest =
  /** Some argument matches. */
  | { arg: RegExp }
  /** The option followed by a value that matches (`-t alsa`). */
  | { option: string; value: RegExp }
  /** The first argument matches (a subcommand). */
  | { first: RegExp };

/** Programs that capture only when one of `when` holds for their arguments. */
export interface ArgumentCapture {
  programs: readonly string[];
  /** The rule reported when it captures. */
  rule: string;
  when: readonly ArgumentTest[];
  /** What it then does, in the refusal after its name. */
  does: string;
  examples: CaptureExamples;
}

export const ARGUMENT_CAPTURES: readonly ArgumentCapture[] = [
  {
    programs: ['sox'],
    rule: 'capture-executable/microphone',
    // The default device or an audio driver records when it is an input (and plays otherwise; both are refused).
    when: [{ arg: /^(-d|--default-device)$/ }, { option: '-t', value: /^(alsa|pulseaudio|coreaudio|waveaudio|oss|sndio|ao)$/i }],
    does: 'uses the sound device (-d or -t with an audio driver), which can record',
    examples: { refused: ['sox -d out.wav', 'sox -t alsa default out.wav'], allowed: ['sox in.wav out.mp3', 'sox -t wav in.raw out.wav'] },
  },
  {
    programs: ['pw-cat', 'pacat'],
    rule: 'capture-executable/microphone',
    when: [{ arg: /^(-r|--record)$/ }],
    does: `--record ${CATEGORY_DOES.microphone}`,
    examples: { refused: ['pw-cat --record x.wav', 'pacat -r --file-format=wav x.wav'], allowed: ['pw-cat --playback x.wav', 'pacat x.wav'] },
  },
  {
    programs: ['v4l2-ctl'],
    rule: 'capture-executable/camera',
    when: [{ arg: /^--stream-(mmap|user|dmabuf|to)/ }],
    does: `--stream-* ${CATEGORY_DOES.camera}`,
    examples: { refused: ['v4l2-ctl --stream-mmap --stream-to=f.raw'], allowed: ['v4l2-ctl --list-devices'] },
  },
  {
    programs: ['magick', 'convert', 'gm'],
    rule: 'imagemagick-screen-grab',
    when: [{ first: /^import$/i }, { arg: /^(x|screenshot):/i }],
    does: 'reads the X display (import or the x: coder)',
    examples: {
      refused: ['convert x:root /tmp/s.png', 'magick import -window root s.png', 'convert-im6.q16hdri X:root s.png', 'magick.exe screenshot: s.png'],
      allowed: ['convert in.png -resize 50% out.png', 'magick in.jpg out.png', 'convert x.png y.png'],
    },
  },
];

export const FFMPEG_PROGRAMS: ReadonlySet<string> = new Set(['ffmpeg', 'ffplay', 'ffprobe', 'avconv']);

/** ffmpeg input formats (-f) and lavfi sources that read the screen. */
export const FFMPEG_SCREEN = {
  rule: 'ffmpeg-screen-grab',
  formats: new Set(splitWords('x11grab xcbgrab kmsgrab gdigrab avfoundation fbdev pipewiregrab')),
  /** lavfi sources, in -i, -vf or -filter_complex graphs (`ddagrab=output_idx=0`). */
  filters: ['ddagrab', 'gfxcapture'],
  examples: {
    refused: [
      'ffmpeg -f x11grab -i :0.0 out.mp4',
      'FFMPEG.EXE -f lavfi -i ddagrab=output_idx=0 out.mkv',
      'ffmpeg -filter_complex [0]ddagrab=0,hwdownload o.mp4',
      'ffmpeg -f avfoundation -i 1 out.mov',
    ],
    allowed: ['ffmpeg -i x11grab-notes.mp4 -vf scale=640:-1 out.webm', 'ffmpeg -f lavfi -i testsrc=duration=1 out.mp4'],
  },
};

/** ffmpeg input formats (-f) that read a camera or a microphone. */
export const FFMPEG_DEVICES = {
  rule: 'ffmpeg-device-capture',
  formats: new Set(splitWords('v4l2 video4linux2 v4l alsa pulse oss jack sndio openal dshow vfwcap decklink android_camera')),
  examples: {
    refused: [
      'ffmpeg -f v4l2 -i /dev/video0 o.mkv',
      'ffmpeg -f pulse -i default o.wav',
      ['ffmpeg.exe', '-f', 'dshow', '-i', 'video=Integrated Camera', 'o.mp4'],
    ],
    allowed: ['ffmpeg -f wav -i in.wav o.mp3', 'ffprobe -v error in.mp4'],
  },
};

/** GStreamer elements that read the screen. */
export const GST_SCREEN = {
  rule: 'gstreamer-screen-source',
  elements: splitWords('ximagesrc pipewiresrc d3d11screencapturesrc d3d12screencapturesrc dx9screencapsrc gdiscreencapsrc dxgiscreencapsrc'),
  examples: {
    refused: ['gst-launch-1.0 ximagesrc ! videoconvert ! pngenc ! filesink location=s.png', ['gst-launch-1.0', 'pipewiresrc path=42 ! autovideosink']],
    allowed: ['gst-launch-1.0 videotestsrc ! fakesink'],
  },
};

/** GStreamer elements that read a camera or a microphone (avfvideosrc reads the screen with capture-screen=true). */
export const GST_DEVICES = {
  rule: 'gstreamer-device-source',
  elements: splitWords(`v4l2src libcamerasrc avfvideosrc ksvideosrc mfvideosrc qtkitvideosrc dshowvideosrc dshowaudiosrc wasapisrc wasapi2src
    directsoundsrc pulsesrc alsasrc autoaudiosrc autovideosrc osxaudiosrc jackaudiosrc openalsrc osssrc oss4src`),
  examples: {
    refused: ['gst-launch-1.0 v4l2src ! jpegenc ! filesink location=x.jpg', 'gst-launch-1.0 avfvideosrc ! fakesink'],
    allowed: ['gst-launch-1.0 filesrc location=a.wav ! wavparse ! fakesink'],
  },
};
