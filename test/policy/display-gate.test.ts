import { describe, expect, test } from 'vitest';
import { captureDenial, DISPLAY_ENV_KEYS, displayEnvKeysIn, scrubDisplayEnv } from '../../main/policy/display-gate.js';

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

  // allowed look-alikes
  ['ffmpeg', null, ['-i', 'in.mp4', 'out.webm'], null],
  ['ffmpeg', null, ['-i', 'x11grab-notes.mp4', '-vf', 'scale=640:-1', 'out.webm'], null],
  ['ffmpeg', null, ['-f', 'lavfi', '-i', 'testsrc=duration=1', 'out.mp4'], null],
  ['gst-launch-1.0', null, ['videotestsrc', '!', 'fakesink'], null],
  ['gst-launch-1.0', null, ['avfvideosrc', '!', 'fakesink'], null],
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

describe('display environment', () => {
  test('the Linux graphical-session keys are all covered', () => {
    for (const key of ['DISPLAY', 'WAYLAND_DISPLAY', 'XAUTHORITY', 'MIR_SOCKET', 'DBUS_SESSION_BUS_ADDRESS', 'XDG_RUNTIME_DIR', 'WAYLAND_SOCKET', 'SWAYSOCK']) {
      expect(DISPLAY_ENV_KEYS).toContain(key);
    }
  });

  test('scrubDisplayEnv removes them (any case) and keeps everything else, without touching its input', () => {
    const env = {
      PATH: '/usr/bin',
      HOME: '/home/u',
      DISPLAY: ':0',
      XAUTHORITY: '/home/u/.Xauthority',
      WAYLAND_DISPLAY: 'wayland-0',
      DBUS_SESSION_BUS_ADDRESS: 'unix:path=/run/user/1000/bus',
      XDG_RUNTIME_DIR: '/run/user/1000',
      display: ':1',
      LANG: 'C',
      XDG_SESSION_TYPE: 'x11',
    };
    const scrubbed = scrubDisplayEnv(env);
    expect(scrubbed).toEqual({ PATH: '/usr/bin', HOME: '/home/u', LANG: 'C', XDG_SESSION_TYPE: 'x11' });
    expect(env.DISPLAY).toBe(':0');
  });

  test('displayEnvKeysIn names the caller keys to reject', () => {
    expect(displayEnvKeysIn({ FOO: '1', DISPLAY: ':0', Xauthority: '/x' })).toEqual(['DISPLAY', 'Xauthority']);
    expect(displayEnvKeysIn({ FOO: '1' })).toEqual([]);
    expect(displayEnvKeysIn(undefined)).toEqual([]);
  });
});
