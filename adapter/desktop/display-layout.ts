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
    /** The backend's own monitor list, where it has one (a Wayland compositor's outputs). */
    private readonly own?: () => Promise<Array<Omit<DisplayInfo, 'index'>>>,
  ) {}

  async of(desktop: ScreenSize, scaleFactor: number, fresh = false): Promise<DisplayInfo[]> {
    const cached = this.cached;
    const now = Date.now();
    if (!fresh && cached && now - cached.at < TTL_MS && cached.desktop.width === desktop.width && cached.desktop.height === desktop.height) {
      return cached.displays;
    }
    const owned = this.own ? (await this.own()).map((d, index) => ({ ...d, index })) : [];
    const displays = owned.length > 0 ? owned : await listDisplays(desktop, this.platform, scaleFactor, this.env);
    this.cached = { at: now, desktop, displays };
    return displays;
  }
}
