/**
 * The monitors of the desktop, in physical pixels of the virtual desktop. nut-js sees one
 * screen (on X11 the whole root window across monitors), so on Linux the layout comes from RandR
 * via `xrandr --listmonitors` (package x11-xserver-utils): real outputs, Xinerama-style layouts
 * and monitors defined with `xrandr --setmonitor` alike. Without it, and on macOS and Windows,
 * the desktop is one display 0: what nut-js captures.
 */
import { execFile } from 'node:child_process';
import { helperEnvironment } from '../process/child-env.js';
import type { DisplayInfo } from '../contract/desktop.js';
import type { ScreenSize } from '../contract/geometry.js';

// " 0: +*DP-1 2560/597x1440/336+0+0  DP-1"  ('+' automatic, '*' primary; the last word is the output)
const MONITOR_LINE = /^\s*(\d+):\s+([+*]*)(\S+)\s+(\d+)\/\d+x(\d+)\/\d+\+(-?\d+)\+(-?\d+)/;

/** RandR monitors in listing order. When none is flagged primary, the first one is (X11 has no primary until one is set). */
export function parseXrandrMonitors(stdout: string, scaleFactor = 1): DisplayInfo[] {
  const monitors: DisplayInfo[] = [];
  for (const line of stdout.split('\n')) {
    const m = MONITOR_LINE.exec(line);
    if (!m) continue;
    monitors.push({
      index: monitors.length,
      name: m[3]!,
      primary: m[2]!.includes('*'),
      width: Number(m[4]),
      height: Number(m[5]),
      x: Number(m[6]),
      y: Number(m[7]),
      scaleFactor,
    });
  }
  if (monitors.length > 0 && !monitors.some((d) => d.primary)) monitors[0]!.primary = true;
  return monitors;
}

/** `scaleFactor`: physical pixels per point of the main display (nut-js's pixel density on macOS, else 1). */
export async function listDisplays(
  screen: ScreenSize,
  platform: NodeJS.Platform = process.platform,
  scaleFactor = 1,
  env: NodeJS.ProcessEnv = process.env,
): Promise<DisplayInfo[]> {
  const whole: DisplayInfo[] = [{ index: 0, name: 'desktop', primary: true, x: 0, y: 0, ...screen, scaleFactor }];
  if (platform !== 'linux') return whole;
  const stdout = await new Promise<string>((resolve) => {
    execFile('xrandr', ['--listmonitors'], { timeout: 3000, windowsHide: true, env: helperEnvironment(env) }, (error, out) => resolve(error ? '' : out));
  });
  const monitors = parseXrandrMonitors(stdout);
  return monitors.length > 0 ? monitors : whole;
}
