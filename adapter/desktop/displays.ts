/**
 * The monitors of the desktop, in physical pixels. nut-js sees one screen (on X11 the whole
 * root window across monitors), so on Linux the monitor layout comes from RandR via
 * `xrandr --listmonitors` (package x11-xserver-utils). Without it, and on macOS and Windows,
 * the desktop is a single display 0: what nut-js captures.
 */
import { execFile } from 'node:child_process';
import { helperEnvironment } from '../process/child-env.js';
import type { ScreenRect, ScreenSize } from './desktop-ops.js';

// " 0: +*DP-1 2560/597x1440/336+0+0  DP-1"
const MONITOR_LINE = /^\s*\d+:\s+\S+\s+(\d+)\/\d+x(\d+)\/\d+\+(-?\d+)\+(-?\d+)/;

export function parseXrandrMonitors(stdout: string): ScreenRect[] {
  const monitors: ScreenRect[] = [];
  for (const line of stdout.split('\n')) {
    const m = MONITOR_LINE.exec(line);
    if (m) monitors.push({ width: Number(m[1]), height: Number(m[2]), x: Number(m[3]), y: Number(m[4]) });
  }
  return monitors;
}

export async function listDisplays(screen: ScreenSize, platform: NodeJS.Platform = process.platform): Promise<ScreenRect[]> {
  const whole = [{ x: 0, y: 0, ...screen }];
  if (platform !== 'linux') return whole;
  const stdout = await new Promise<string>((resolve) => {
    execFile('xrandr', ['--listmonitors'], { timeout: 3000, windowsHide: true, env: helperEnvironment() }, (error, out) => resolve(error ? '' : out));
  });
  const monitors = parseXrandrMonitors(stdout);
  return monitors.length > 0 ? monitors : whole;
}
