import { describe, expect, test } from 'vitest';
import { CAPTURE_RULES, captureDenial, checkCaptureExamples } from '../../main/policy/capture-gate.js';

const b64 = (script: string) => Buffer.from(script, 'utf16le').toString('base64');

// [command, realPath, args, expected rule (substring) or null when allowed]
const rows: Array<[string, string | null, string[], string | null]> = [
  // X11 / Wayland / macOS / Windows screenshot and recording tools
  ['import', '/usr/bin/import-im6.q16', ['-window', 'root', '/tmp/s.png'], 'capture-executable/screenshot'],
  ['xwd', null, ['-root', '-out', '/tmp/s.xwd'], 'capture-executable/screenshot'],
  ['scrot', null, [], 'capture-executable/screenshot'],
  ['/usr/bin/maim', null, ['/tmp/s.png'], 'capture-executable/screenshot'],
  ['gnome-screenshot', null, ['-f', '/tmp/s.png'], 'capture-executable/screenshot'],
  ['spectacle', null, ['-b', '-n'], 'capture-executable/screenshot'],
  ['grim', null, ['-'], 'capture-executable/screenshot'],
  ['flameshot', null, ['full', '-p', '/tmp'], 'capture-executable/screenshot'],
  ['wf-recorder', null, ['-f', 'out.mp4'], 'capture-executable/recorder'],
  ['obs', null, ['--startrecording'], 'capture-executable/recorder'],
  ['screencapture', '/usr/sbin/screencapture', ['-x', '/tmp/s.png'], 'capture-executable/screenshot'],
  ['C:\\Windows\\System32\\SnippingTool.exe', null, ['/clip'], 'capture-executable/screenshot'],
  ['psr.exe', null, ['/start', '/output', 'x.zip'], 'capture-executable/screenshot'],
  // input, clipboard, remote desktop, compositor IPC
  ['xdotool', null, ['type', 'hello'], 'capture-executable/input'],
  ['ydotool', null, ['click', '0xC0'], 'capture-executable/input'],
  ['xinput', null, ['test', '11'], 'capture-executable/input'],
  ['xclip', null, ['-o', '-selection', 'clipboard'], 'capture-executable/clipboard'],
  ['wl-paste', null, [], 'capture-executable/clipboard'],
  ['pbpaste', null, [], 'capture-executable/clipboard'],
  ['x11vnc', null, ['-display', ':0'], 'capture-executable/remote-desktop'],
  ['swaymsg', null, ['exec', 'grim'], 'capture-executable/compositor-ipc'],
  // renamed or symlinked: the resolved real path decides
  ['snap', '/usr/bin/scrot', ['x.png'], 'capture-executable/screenshot'],
  ['/opt/tools/cap', '/usr/bin/grim', [], 'capture-executable/screenshot'],
  // ffmpeg / gstreamer / ImageMagick / vlc payloads
  ['ffmpeg', null, ['-f', 'x11grab', '-i', ':0.0', 'out.mp4'], 'ffmpeg-screen-grab'],
  ['ffmpeg', null, ['-f', 'kmsgrab', '-i', '-', 'out.mp4'], 'ffmpeg-screen-grab'],
  ['ffmpeg.exe', null, ['-f', 'gdigrab', '-i', 'desktop', 'out.mp4'], 'ffmpeg-screen-grab'],
  ['FFMPEG.EXE', null, ['-f', 'lavfi', '-i', 'ddagrab=output_idx=0', 'out.mkv'], 'ffmpeg-screen-grab'],
  ['ffmpeg', null, ['-filter_complex', '[0]ddagrab=0,hwdownload', 'o.mp4'], 'ffmpeg-screen-grab'],
  ['ffmpeg', null, ['-f', 'avfoundation', '-i', '1', 'out.mov'], 'ffmpeg-screen-grab'],
  ['gst-launch-1.0', null, ['ximagesrc', '!', 'videoconvert', '!', 'pngenc', '!', 'filesink', 'location=s.png'], 'gstreamer-screen-source'],
  ['gst-launch-1.0', null, ['pipewiresrc path=42 ! videoconvert ! autovideosink'], 'gstreamer-screen-source'],
  ['gst-launch-1.0', null, ['avfvideosrc', 'capture-screen=true', '!', 'fakesink'], 'gstreamer-screen-source'],
  ['gst-launch-1.0', null, ['avfvideosrc', '!', 'fakesink'], 'gstreamer-device-source'], // the camera
  ['convert', null, ['x:root', '/tmp/s.png'], 'imagemagick-screen-grab'],
  ['magick', null, ['import', '-window', 'root', 's.png'], 'imagemagick-screen-grab'],
  ['cvlc', null, ['screen://', '--sout', 'file/ts:out.ts'], 'screen-mrl'],
  // interpreter one-liners
  ['python3', '/usr/bin/python3.11', ['-c', 'import pyautogui; pyautogui.screenshot("s.png")'], 'interpreter-capture-payload'],
  ['python', null, ['-c', 'from PIL import ImageGrab; ImageGrab.grab().save("s.png")'], 'interpreter-capture-payload'],
  ['python3', null, ['-Ic', 'import mss; mss.mss().shot()'], 'interpreter-capture-payload'],
  ['python3', null, ['-W', 'ignore', '-c', 'import pyscreenshot'], 'interpreter-capture-payload'],
  ['python3', null, ['-m', 'mss'], 'interpreter-capture-payload'],
  ['python3', null, ['-c', 'import subprocess; subprocess.run(["scrot", "x.png"])'], 'interpreter-capture-payload'],
  ['node', null, ['-e', 'require("robotjs").keyTap("a")'], 'interpreter-capture-payload'],
  ['node', null, ['-e', "import('@nut-tree-fork/nut-js').then(n => n.screen.grab())"], 'interpreter-capture-payload'],
  ['node', null, ['-e', "require('screenshot-desktop')().then(b => 1)"], 'interpreter-capture-payload'],
  ['perl', null, ['-MX11::GUITest', '-e', 'SendKeys("hi")'], 'interpreter-capture-payload'],
  ['ruby', null, ['-e', 'system("xdotool key ctrl+c")'], 'interpreter-capture-payload'],
  ['osascript', null, ['-e', 'do shell script "screencapture -x /tmp/s.png"'], 'interpreter-capture-payload'],
  ['osascript', null, ['-e', 'tell application "System Events" to keystroke "q"'], 'interpreter-capture-payload'],
  ['powershell.exe', null, ['-Command', '$g=[Drawing.Graphics]::FromImage($b); $g.CopyFromScreen(0,0,0,0,$b.Size)'], 'interpreter-capture-payload'],
  ['pwsh', null, ['-c', 'Add-Type -A System.Windows.Forms; [System.Windows.Forms.SendKeys]::SendWait("x")'], 'interpreter-capture-payload'],
  ['powershell', null, ['-enc', b64('$g.CopyFromScreen(0,0,0,0,$s)')], 'interpreter-capture-payload'],
  ['powershell', null, ['Get-Clipboard'], 'interpreter-capture-payload'],
  // shells and wrappers
  ['sh', null, ['-c', 'grim -g "$(slurp)" /tmp/s.png'], 'capture-executable/screenshot'],
  ['bash', null, ['-lc', 'cd /tmp && import -window root s.png'], 'shell-capture-payload'],
  ['bash', null, ['-c', 'sleep 1; scrot'], 'capture-executable/screenshot'],
  ['bash', null, ['-c', 'DISPLAY=:0 xwd -root'], 'display-env-assignment'],
  ['cmd.exe', null, ['/c', 'echo x & nircmd savescreenshot s.png'], 'capture-executable/input'],
  ['env', null, ['DISPLAY=:0', 'import', '-window', 'root', 's.png'], 'display-env-assignment'],
  ['env', null, ['FOO=1', 'scrot'], 'capture-executable/screenshot'],
  ['timeout', null, ['5', 'grim', 'out.png'], 'capture-executable/screenshot'],
  ['sudo', null, ['-E', 'python3', '-c', 'import pyautogui'], 'interpreter-capture-payload'],
  ['watch', null, ['-n', '1', 'scrot /tmp/x.png'], 'capture-executable/screenshot'],
  ['nohup', null, ['sh', '-c', 'xdotool key super'], 'capture-executable/input'],
  // D-Bus capture interfaces and display env in any command's args
  [
    'gdbus',
    null,
    [
      'call',
      '--session',
      '--dest',
      'org.gnome.Shell.Screenshot',
      '--object-path',
      '/org/gnome/Shell/Screenshot',
      '--method',
      'org.gnome.Shell.Screenshot.Screenshot',
    ],
    'dbus-capture-interface',
  ],
  [
    'dbus-send',
    null,
    ['--session', '--dest=org.freedesktop.portal.Desktop', '/org/freedesktop/portal/desktop', 'org.freedesktop.portal.Screenshot.Screenshot'],
    'dbus-capture-interface',
  ],
  ['make', null, ['test', 'WAYLAND_DISPLAY=wayland-0'], 'display-env-assignment'],
  ['bash', null, ['-c', 'cat notes.txt | xclip -selection clipboard'], 'capture-executable/clipboard'],
  ['gawk', null, ['BEGIN { system("scrot /tmp/x.png") }'], 'interpreter-capture-payload'],
  ['osascript', null, ['-l', 'JavaScript', '-e', 'ObjC.import("CoreGraphics"); $.CGDisplayCreateImage(1)'], 'interpreter-capture-payload'],

  // Debian's real ImageMagick names, the x: and screenshot: coders, ImageMagick's X clients
  ['import-im6.q16', null, ['-window', 'root', 's.png'], 'capture-executable/screenshot'],
  ['/usr/bin/import-im7.q16hdri', null, ['-window', 'root', 's.png'], 'capture-executable/screenshot'],
  ['convert-im6.q16', null, ['x:root', 's.png'], 'imagemagick-screen-grab'],
  ['convert-im6.q16hdri', null, ['X:root', 's.png'], 'imagemagick-screen-grab'],
  ['magick', null, ['x:root', 's.png'], 'imagemagick-screen-grab'],
  ['magick-im7.q16', null, ['import', 's.png'], 'imagemagick-screen-grab'],
  ['magick.exe', null, ['screenshot:', 's.png'], 'imagemagick-screen-grab'],
  ['display-im6.q16', null, ['-window', 'root'], 'capture-executable/x-client'],
  // any program told where the display is
  ['xterm', null, ['-display', ':0'], 'display-argument'],
  ['firefox', null, ['--display=:0', 'https://example.com'], 'display-argument'],
  ['gm', null, ['import', '-display', ':0', 's.png'], 'imagemagick-screen-grab'],
  // quoting and expansion tricks a shell undoes
  ['sh', null, ['-c', 'imp""ort -window root s.png'], 'capture-executable/screenshot'],
  ['sh', null, ['-c', "imp''ort -window root s.png"], 'capture-executable/screenshot'],
  ['bash', null, ['-c', 'i\\mport -window root s.png'], 'capture-executable/screenshot'],
  ['sh', null, ['-c', "'import' -window root s.png"], 'capture-executable/screenshot'],
  ['sh', null, ['-c', 'cd /tmp; "s"c"r"o"t" x.png'], 'capture-executable/screenshot'],
  ['sh', null, ['-c', 'x=import; $x -window root s.png'], 'shell-computed-command'],
  ['sh', null, ['-c', 'x=import; ${x} -window root s.png'], 'shell-computed-command'],
  ['bash', null, ['-c', "$'\\x69mport' -window root s.png"], 'shell-computed-command'],
  ['sh', null, ['-c', '$(printf imp)ort -window root s.png'], 'shell-computed-command'],
  ['sh', null, ['-c', '`printf imp`ort -window root s.png'], 'shell-computed-command'],
  ['sh', null, ['-c', '/usr/bin/imp*rt -window root s.png'], 'shell-computed-command'],
  ['bash', null, ['-c', '/usr/bin/{import,x} -window root s.png'], 'shell-computed-command'],
  ['sh', null, ['-c', 'exec "$@"', 'sh', 'import', '-window', 'root'], 'shell-computed-command'],
  ['sh', null, ['-c', 'eval "sc""rot /tmp/x.png"'], 'capture-executable/screenshot'],
  ['sh', null, ['-c', 'echo "$(scrot -)" > /tmp/x'], 'capture-executable/screenshot'],
  ['env', null, ['$CMD', '-window', 'root'], 'shell-computed-command'],
  // X and Wayland clients that read or drive the session
  ['xwininfo', null, ['-root', '-tree'], 'capture-executable/x-client'],
  ['xprop', null, ['-root'], 'capture-executable/x-client'],
  ['xmodmap', null, ['-pke'], 'capture-executable/x-client'],
  ['xinput', null, ['list'], 'capture-executable/input'],
  ['xsel', null, ['-b'], 'capture-executable/clipboard'],
  ['wmctrl', null, ['-l'], 'capture-executable/input'],
  ['xdotool', null, ['getactivewindow', 'getwindowname'], 'capture-executable/input'],
  ['xev', null, ['-root'], 'capture-executable/x-client'],
  ['xauth', null, ['list'], 'capture-executable/x-client'],
  ['xhost', null, ['+'], 'capture-executable/x-client'],
  ['xrandr', null, ['--listmonitors'], 'capture-executable/x-client'],
  ['setxkbmap', null, ['-print'], 'capture-executable/x-client'],
  ['sh', null, ['-c', 'xprop -root _NET_ACTIVE_WINDOW'], 'capture-executable/x-client'],
  // microphones and cameras
  ['arecord', null, ['-d', '5', 'x.wav'], 'capture-executable/microphone'],
  ['parecord', null, ['x.wav'], 'capture-executable/microphone'],
  ['pw-record', null, ['x.wav'], 'capture-executable/microphone'],
  ['rec', null, ['x.wav'], 'capture-executable/microphone'],
  ['pw-cat', null, ['--record', 'x.wav'], 'capture-executable/microphone'],
  ['pacat', null, ['-r', '--file-format=wav', 'x.wav'], 'capture-executable/microphone'],
  ['sox', null, ['-d', 'out.wav'], 'capture-executable/microphone'],
  ['sox', null, ['-t', 'alsa', 'default', 'out.wav'], 'capture-executable/microphone'],
  ['ffmpeg', null, ['-f', 'v4l2', '-i', '/dev/video0', 'o.mkv'], 'ffmpeg-device-capture'],
  ['ffmpeg', null, ['-f', 'alsa', '-i', 'default', 'o.wav'], 'ffmpeg-device-capture'],
  ['ffmpeg', null, ['-f', 'pulse', '-i', 'default', 'o.wav'], 'ffmpeg-device-capture'],
  ['ffmpeg.exe', null, ['-f', 'dshow', '-i', 'video=Integrated Camera', 'o.mp4'], 'ffmpeg-device-capture'],
  ['ffmpeg', null, ['-f', 'avfoundation', '-i', '0:0', 'o.mov'], 'ffmpeg-screen-grab'],
  ['fswebcam', null, ['shot.jpg'], 'capture-executable/camera'],
  ['imagesnap', null, ['-w', '1', 'shot.jpg'], 'capture-executable/camera'],
  ['v4l2-ctl', null, ['--stream-mmap', '--stream-to=f.raw'], 'capture-executable/camera'],
  ['gst-launch-1.0', null, ['v4l2src', '!', 'jpegenc', '!', 'filesink', 'location=x.jpg'], 'gstreamer-device-source'],
  ['gst-launch-1.0', null, ['pulsesrc ! wavenc ! filesink location=x.wav'], 'gstreamer-device-source'],
  ['cat', null, ['/dev/video0'], 'capture-device-path'],
  ['dd', null, ['if=/dev/fb0', 'of=/tmp/s.raw'], 'capture-device-path'],
  ['cat', null, ['/dev/input/event3'], 'capture-device-path'],
  ['evtest', null, ['/dev/input/event0'], 'capture-device-path'],
  ['mpv', null, ['av://v4l2:/dev/video0'], 'capture-mrl'],
  ['mpv', null, ['av://x11grab::0'], 'screen-mrl'],
  ['cvlc', null, ['v4l2:///dev/video0'], 'capture-mrl'],
  ['python3', null, ['-c', 'import cv2; cv2.VideoCapture(0).read()'], 'interpreter-capture-payload'],
  ['python3', null, ['-c', 'import sounddevice as sd; sd.rec(10)'], 'interpreter-capture-payload'],
  ['sh', null, ['-c', 'ffmpeg -f alsa -i default x.wav'], 'shell-capture-payload'],

  // allowed look-alikes
  ['ffmpeg', null, ['-i', 'in.mp4', 'out.webm'], null],
  ['ffmpeg', null, ['-i', 'x11grab-notes.mp4', '-vf', 'scale=640:-1', 'out.webm'], null],
  ['ffmpeg', null, ['-f', 'lavfi', '-i', 'testsrc=duration=1', 'out.mp4'], null],
  ['gst-launch-1.0', null, ['videotestsrc', '!', 'fakesink'], null],

  ['python3', null, ['script.py'], null],
  ['python3', null, ['screenshot_tool.py', '-c', 'import pyautogui'], null],
  ['python3', null, ['-c', 'import os; print(os.getcwd())'], null],
  ['python3', null, ['-c', "d = {'obs': 1}; print(d['obs'])"], null],
  ['python3', null, ['-m', 'pytest', '-q'], null],
  ['node', null, ['build.js', '--mode', 'production'], null],
  ['node', null, ['-e', 'console.log(process.version)'], null],
  ['convert', null, ['in.png', '-resize', '50%', 'out.png'], null],
  ['magick', null, ['in.jpg', 'out.png'], null],
  ['vlc', null, ['movie.mkv'], null],
  ['git', null, ['commit', '-m', 'import screenshot helpers'], null],
  ['grep', null, ['-r', 'pyautogui', 'src/'], null],
  ['bash', null, ['-c', 'echo import; ls -la'], null],
  ['bash', null, ['build.sh', 'scrot'], null],
  ['sh', null, ['-c', 'npm test && python3 -c "import json"'], null],
  ['env', null, ['NODE_ENV=test', 'node', 'app.js'], null],
  ['timeout', null, ['5', 'ls'], null],
  ['powershell', null, ['-Command', 'Get-ChildItem C:\\'], null],
  ['ls', null, ['/usr/bin/scrot'], null],
  ['cat', null, ['screen.txt'], null],
  ['xvfb-run', null, ['-a', 'node', 'test.js'], null],
  ['dbus-send', null, ['--session', '--dest=org.freedesktop.Notifications', '/'], null],
  ['npm', null, ['install', 'robotjs'], null],
  ['node', null, ['--import', 'tsx', 'script.ts'], null],
  ['perl', null, ['-ne', 'print if /import/', 'f.txt'], null],
  ['awk', null, ['-F', ':', '{print $1}', '/etc/passwd'], null],
  ['bash', null, ['-c', 'echo $DISPLAY'], null],
  ['ffprobe', null, ['-v', 'error', 'in.mp4'], null],
  ['sox', null, ['in.wav', 'out.mp3'], null],
  ['ffmpeg', null, ['-f', 'wav', '-i', 'in.wav', 'o.mp3'], null],
  ['pw-cat', null, ['--playback', 'x.wav'], null],
  ['cat', null, ['/dev/null'], null],
  ['ls', null, ['-l', '/dev/'], null],
  ['sh', null, ['-c', 'echo $HOME; ls "$dir"'], null],
  ['sh', null, ['-c', '[ -f x ] && echo yes'], null],
  ['bash', null, ['-c', 'for f in *.txt; do wc -l "$f"; done'], null],
  ['sh', null, ['-c', 'x=$(date); echo "$x"'], null],
  ['convert-im6.q16', null, ['in.png', '-resize', '50%', 'out.jpg'], null],
  ['git', null, ['log', '--author=display'], null],
  ['timeout', null, ['5', 'make', '$TARGET'], null],
  ['python3', null, ['-c', 'print("display")'], null],
];

describe('captureDenial', () => {
  test('the reason says what the command does and names the rule', () => {
    expect(captureDenial('/usr/bin/grim', null, [])).toBe('grim takes screenshots of the host display (rule capture-executable/screenshot)');
    expect(captureDenial('ffmpeg', null, ['-f', 'x11grab', '-i', ':0'])).toBe('ffmpeg reads the screen with -f x11grab (rule ffmpeg-screen-grab)');
  });

  test('the table is large enough to mean something', () => {
    expect(rows.length).toBeGreaterThanOrEqual(80);
  });

  test.each(rows)('%s %j %j -> %s', (command, realPath, args, rule) => {
    const reason = captureDenial(command, realPath, args);
    if (rule === null) {
      expect(reason).toBeNull();
    } else {
      expect(reason).not.toBeNull();
      expect(reason).toContain(`(rule ${rule}`);
    }
  });

  test('a pathological argument list terminates quickly', () => {
    const args = Array.from({ length: 2000 }, (_, i) => (i % 2 ? 'env' : 'sudo'));
    const started = performance.now();
    expect(captureDenial('env', null, args)).toBeNull();
    expect(captureDenial('sh', null, ['-c', Array.from({ length: 2000 }, () => 'sh -c "env sudo bash -c x"').join('; ')])).toBeNull();
    expect(captureDenial('python3', null, ['-c', 'x'.repeat(100_000)])).toBeNull();
    expect(performance.now() - started).toBeLessThan(2000);
  });
});

describe('the denylist checks itself', () => {
  test('every entry carries examples both ways, and they hold through the real matcher', () => {
    expect(CAPTURE_RULES.length).toBeGreaterThanOrEqual(40);
    for (const { rule, says, examples } of CAPTURE_RULES) {
      expect(examples.refused.length, `${rule} ${says ?? ''}`).toBeGreaterThan(0);
      expect(examples.allowed.length, `${rule} ${says ?? ''}`).toBeGreaterThan(0);
    }
    expect(() => checkCaptureExamples(CAPTURE_RULES)).not.toThrow();
  });

  test('a refused example the matcher lets through is caught, naming the rule and the example', () => {
    expect(() => checkCaptureExamples([{ rule: 'capture-executable/screenshot', examples: { refused: ['scrot', 'ls -l'], allowed: [] } }])).toThrow(
      'capture rule capture-executable/screenshot: the example ["ls","-l"] must be refused by this rule, but it is allowed',
    );
  });

  test('a refused example that another rule refuses is caught', () => {
    expect(() => checkCaptureExamples([{ rule: 'capture-executable/screenshot', examples: { refused: ['xdotool type x'], allowed: [] } }])).toThrow(
      'capture rule capture-executable/screenshot: the example ["xdotool","type","x"] must be refused by this rule, but rule capture-executable/input refuses it (xdotool drives or reads the host keyboard and mouse)',
    );
    // Entries sharing a rule are told apart by what the refusal says.
    const perl = { rule: 'interpreter-capture-payload', says: 'a Perl screen capture or input module' };
    expect(() => checkCaptureExamples([{ ...perl, examples: { refused: [['python3', '-c', 'import pyautogui']], allowed: [] } }])).toThrow(
      /^capture rule interpreter-capture-payload \(a Perl screen capture or input module\): the example .* but rule interpreter-capture-payload refuses it \(python inline code uses a Python/,
    );
  });

  test('a look-alike the matcher refuses is caught, naming the rule and the example', () => {
    expect(() =>
      checkCaptureExamples([{ rule: 'ffmpeg-screen-grab', examples: { refused: [], allowed: ['ffmpeg -i in.mp4 out.webm', 'ffmpeg -f kmsgrab -i -'] } }]),
    ).toThrow(
      'capture rule ffmpeg-screen-grab: the look-alike ["ffmpeg","-f","kmsgrab","-i","-"] must be allowed, but rule ffmpeg-screen-grab refuses it (ffmpeg reads the screen with -f kmsgrab)',
    );
  });
});
