/**
 * Points against pixels on a Retina (2x) Mac, which no machine here has: nut-js works in points
 * there and captures in pixels, and every coordinate of the tools is a physical pixel. A stand-in
 * for nut-js shaped as its public API (screen.width/height in points, grabRegion's pixelDensity,
 * mouse.setPosition/getPosition in points) checks the conversion both ways.
 */
import { describe, expect, it } from 'vitest';
import { DesktopSession } from '../../../../adapter/desktop/desktop-session.js';
import { nutBackend } from '../../../../adapter/desktop/nut/nut-backend.js';

class Point {
  constructor(
    readonly x: number,
    readonly y: number,
  ) {}
}
class Region {
  constructor(
    readonly left: number,
    readonly top: number,
    readonly width: number,
    readonly height: number,
  ) {}
}

/** A 1440x900-point screen at 2x, and a pointer kept in points. */
function retina() {
  const moves: Point[] = [];
  let at = new Point(0, 0);
  const nut = {
    Point,
    Region,
    screen: {
      width: async () => 1440,
      height: async () => 900,
      grabRegion: async (region: Region) => ({ width: region.width * 2, height: region.height * 2, pixelDensity: { scaleX: 2, scaleY: 2 } }),
    },
    mouse: {
      setPosition: async (point: Point) => {
        moves.push(point);
        at = point;
      },
      getPosition: async () => at,
    },
  };
  return { desktop: new DesktopSession(nutBackend(nut as never, 'darwin'), 'darwin'), moves };
}

describe('the nut-js backend on a 2x display', () => {
  it('reports the desktop in physical pixels', async () => {
    const { desktop } = retina();
    expect(await desktop.screenSize()).toEqual({ width: 2880, height: 1800 });
    const { displays } = await desktop.listDisplays();
    expect(displays).toEqual([expect.objectContaining({ index: 0, width: 2880, height: 1800, scaleFactor: 2, primary: true })]);
  });

  it('moves to a physical pixel by moving to half of it in points, and reports pixels back', async () => {
    const { desktop, moves } = retina();
    const reached = await desktop.moveMouse({ x: 2000, y: 1000 });
    expect(moves.at(-1)).toEqual(new Point(1000, 500));
    expect(reached).toMatchObject({ x: 2000, y: 1000, display: 0 });
    expect(await desktop.cursor()).toMatchObject({ x: 2000, y: 1000 });
  });

  it('maps a model-sized space onto the whole pixel desktop', async () => {
    const { desktop, moves } = retina();
    // The last pixel of a 1440x900 image covers pixels 2878-2879 of the 2880x1800 desktop: its first one, point 1439.
    expect(await desktop.moveMouse({ x: 1439, y: 899, space: { width: 1440, height: 900 } })).toMatchObject({ x: 2878, y: 1798 });
    expect(moves.at(-1)).toEqual(new Point(1439, 899));
    await desktop.moveMouse({ x: 720, y: 450, space: { width: 1440, height: 900 } });
    expect(moves.at(-1)).toEqual(new Point(720, 450));
    expect(await desktop.moveMouse({ x: 3000, y: 10 }).catch((error: Error) => error.message)).toMatch(/outside the 2880x1800 screen/);
  });
});
