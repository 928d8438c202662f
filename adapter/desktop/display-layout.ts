/**
 * The monitor layout behind the `display` field of pointer results, cached: xrandr is a process,
 * so it is re-read at most every 2 s, at once when the desktop's size changes, and always for
 * calls that name a display (they must see a layout change immediately).
 */
import type { DisplayInfo } from '../contract/desktop.js';
import type { ScreenSize } from '../contract/geometry.js';
import { listDisplays } from './displays.js';

const TTL_MS = 2000;

export class DisplayLayout {
  private cached: { at: number; desktop: ScreenSize; displays: DisplayInfo[] } | undefined;

  constructor(
    private readonly platform: NodeJS.Platform,
    /** The environment naming the display (xrandr runs with it). */
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {}

  async of(desktop: ScreenSize, scaleFactor: number, fresh = false): Promise<DisplayInfo[]> {
    const cached = this.cached;
    const now = Date.now();
    if (!fresh && cached && now - cached.at < TTL_MS && cached.desktop.width === desktop.width && cached.desktop.height === desktop.height) {
      return cached.displays;
    }
    const displays = await listDisplays(desktop, this.platform, scaleFactor, this.env);
    this.cached = { at: now, desktop, displays };
    return displays;
  }
}
