import { describe, expect, test } from 'vitest';
import { captureArea, displayAt, fitWithin, rectToPhysical, toPhysical } from '../../../adapter/desktop/coordinates.js';
import { parseXrandrMonitors } from '../../../adapter/desktop/displays.js';

const screen = { width: 1280, height: 800 };

function refusal(run: () => unknown): { code?: string; message?: string } {
  try {
    run();
  } catch (error) {
    return error as { code: string; message: string };
  }
  throw new Error('expected a refusal');
}

describe('toPhysical', () => {
  test.each([
    [
      { x: 0, y: 0 },
      { x: 0, y: 0 },
    ],
    [
      { x: 1279, y: 799 },
      { x: 1279, y: 799 },
    ],
    [
      { x: 10.4, y: 10.6 },
      { x: 10, y: 11 },
    ],
    // a 640x400 capture of the whole screen: doubles
    [
      { x: 320, y: 200, space: { width: 640, height: 400 } },
      { x: 640, y: 400 },
    ],
    [
      { x: 639, y: 399, space: { width: 640, height: 400 } },
      { x: 1278, y: 798 },
    ],
    [
      { x: 639.9, y: 399.9, space: { width: 640, height: 400 } },
      { x: 1279, y: 799 },
    ],
    // a space larger than the screen
    [
      { x: 2559, y: 1599, space: { width: 2560, height: 1600 } },
      { x: 1279, y: 799 },
    ],
    [
      { x: 100, y: 100, space: { width: 1000, height: 1000 } },
      { x: 128, y: 80 },
    ],
  ])('%j -> %j', (target, expected) => {
    expect(toPhysical(target, screen, 'input.move')).toEqual(expected);
  });

  test.each([
    [{ x: 1280, y: 0 }, 'x=1280 is outside the 1280x800 screen (valid x: 0 to 1279)'],
    [{ x: -1, y: 0 }, 'x=-1 is outside the 1280x800 screen'],
    [{ x: 0, y: 800 }, 'y=800 is outside the 1280x800 screen (valid y: 0 to 799)'],
    [{ x: 1279.6, y: 0 }, 'x=1279.6 is outside the 1280x800 screen'],
    [{ x: 640, y: 0, space: { width: 640, height: 400 } }, 'x=640 is outside the 640x400 space (valid x: 0 to 639)'],
    [{ x: 0, y: -0.5, space: { width: 640, height: 400 } }, 'y=-0.5 is outside the 640x400 space'],
    [{ x: 0, y: 0, space: { width: 0, height: 400 } }, 'space must have a positive width and height'],
    [{ x: Number.NaN, y: 0 }, 'x and y must be finite numbers'],
    [{ x: Infinity, y: 0 }, 'x and y must be finite numbers'],
  ])('%j is refused', (target, message) => {
    expect(refusal(() => toPhysical(target, screen, 'input.move'))).toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining(message) });
  });
});

describe('captureArea', () => {
  const displays = [
    { x: 0, y: 0, width: 640, height: 800 },
    { x: 640, y: 0, width: 640, height: 800 },
  ];
  test('whole desktop by default', () => {
    expect(captureArea({}, screen, displays, 'screen.capture')).toEqual({ x: 0, y: 0, width: 1280, height: 800 });
  });
  test('a display', () => {
    expect(captureArea({ display: 1 }, screen, displays, 'screen.capture')).toEqual(displays[1]);
  });
  test('a region of the desktop', () => {
    expect(captureArea({ region: { x: 10, y: 20, width: 100, height: 50 } }, screen, displays, 'screen.capture')).toEqual({
      x: 10,
      y: 20,
      width: 100,
      height: 50,
    });
  });
  test('a region is relative to its display', () => {
    expect(captureArea({ display: 1, region: { x: 10, y: 20, width: 100, height: 50 } }, screen, displays, 'screen.capture')).toEqual({
      x: 650,
      y: 20,
      width: 100,
      height: 50,
    });
  });
  test.each([
    [{ display: 2 }, 'display 2 does not exist; displays: 0 = 640x800 at 0,0; 1 = 640x800 at 640,0'],
    [{ region: { x: 1200, y: 0, width: 100, height: 10 } }, 'region 1200,0 100x10 extends outside the 1280x800 screen'],
    [{ display: 0, region: { x: 600, y: 0, width: 100, height: 10 } }, 'extends outside display 0 (640x800)'],
    [{ region: { x: 0, y: 0, width: 0, height: 10 } }, 'width, height >= 1'],
    [{ region: { x: 1.5, y: 0, width: 10, height: 10 } }, 'whole numbers'],
  ])('%j is refused', (request, message) => {
    expect(refusal(() => captureArea(request, screen, displays, 'screen.capture'))).toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringContaining(message),
    });
  });
});

describe('fitWithin', () => {
  test.each([
    [1280, 800, 1280, 1280, { width: 1280, height: 800, scale: 1 }],
    [2560, 1600, 1280, 1280, { width: 1280, height: 800, scale: 0.5 }],
    [1280, 800, 640, 1280, { width: 640, height: 400, scale: 0.5 }],
    [1280, 800, 1280, 200, { width: 320, height: 200, scale: 0.25 }],
    [100, 50, 1280, 1280, { width: 100, height: 50, scale: 1 }], // never upscaled
    [3840, 2160, 1280, 1280, { width: 1280, height: 720, scale: 1280 / 3840 }],
    [10_000, 1, 100, 100, { width: 100, height: 1, scale: 0.01 }],
  ])('%dx%d within %dx%d', (w, h, mw, mh, expected) => {
    expect(fitWithin(w, h, mw, mh)).toEqual(expected);
  });

  // the model defaults: long edge 1568, about 1.15 megapixels
  test.each([
    [2560, 1600, { width: 1356, height: 848 }],
    [1280, 1600, { width: 959, height: 1199 }],
    [3840, 2160, { width: 1430, height: 804 }],
    [1920, 1080, { width: 1430, height: 804 }],
    [1280, 800, { width: 1280, height: 800 }],
    [5120, 1440, { width: 1568, height: 441 }],
  ])('%dx%d within the model defaults', (w, h, expected) => {
    const fit = fitWithin(w, h, 1568, 1568, 1_150_000);
    expect(fit).toMatchObject(expected);
    expect(fit.width * fit.height).toBeLessThanOrEqual(1_150_000);
    expect(Math.max(fit.width, fit.height)).toBeLessThanOrEqual(1568);
    expect(fit.scale).toBe(fit.width / w);
  });
});

describe('spaces with an area, rectangles and displays', () => {
  const desktop = { width: 2560, height: 1600 };
  const right = { x: 1280, y: 0, width: 1280, height: 1600 };

  test('a point in the space of a display capture maps into that display', () => {
    expect(toPhysical({ x: 0, y: 0, space: { width: 959, height: 1199, area: right } }, desktop, 'input.click')).toEqual({ x: 1280, y: 0 });
    expect(toPhysical({ x: 958, y: 1198, space: { width: 959, height: 1199, area: right } }, desktop, 'input.click')).toEqual({ x: 2558, y: 1598 });
    expect(toPhysical({ x: 479.5, y: 10, space: { width: 959, height: 1199, area: right } }, desktop, 'input.click')).toEqual({ x: 1920, y: 13 });
  });

  test('an area outside the desktop, or a point outside the space, is refused', () => {
    expect(
      refusal(() => toPhysical({ x: 1, y: 1, space: { width: 10, height: 10, area: { x: 2000, y: 0, width: 1280, height: 10 } } }, desktop, 'input.move')),
    ).toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringContaining('is not inside the 2560x1600 desktop'),
    });
    expect(refusal(() => toPhysical({ x: 959, y: 1, space: { width: 959, height: 1199, area: right } }, desktop, 'input.move')).message).toBe(
      'x=959 is outside the 959x1199 space (valid x: 0 to 958)',
    );
  });

  test('rectToPhysical scales a rectangle of a space out to whole pixels', () => {
    const space = { width: 1356, height: 848 };
    expect(rectToPhysical({ x: 100, y: 50, width: 20, height: 10 }, space, desktop, 'screen.capture')).toEqual({ x: 188, y: 94, width: 39, height: 20 });
    expect(rectToPhysical({ x: 10, y: 20, width: 30, height: 40 }, undefined, desktop, 'screen.capture')).toEqual({ x: 10, y: 20, width: 30, height: 40 });
    expect(refusal(() => rectToPhysical({ x: 2500, y: 0, width: 100, height: 10 }, undefined, desktop, 'screen.capture')).message).toContain(
      'extends outside the 2560x1600 screen',
    );
  });

  test('displayAt: the display holding a point, or the nearest', () => {
    const displays = [{ x: 0, y: 0, width: 1280, height: 1600 }, right];
    expect(displayAt({ x: 1279, y: 5 }, displays)).toBe(0);
    expect(displayAt({ x: 1280, y: 5 }, displays)).toBe(1);
    expect(displayAt({ x: 5000, y: 5 }, displays)).toBe(1);
    expect(displayAt({ x: 5, y: 5 }, [])).toBe(0);
  });
});

describe('parseXrandrMonitors', () => {
  test('reads each monitor, in the listed order', () => {
    const out = 'Monitors: 3\n 0: +*DP-1 2560/597x1440/336+0+0  DP-1\n 1: +HDMI-1 1920/527x1080/296+2560+180  HDMI-1\n 2: left 640/100x800/100+-640+0 \n';
    expect(parseXrandrMonitors(out)).toEqual([
      { index: 0, name: 'DP-1', primary: true, scaleFactor: 1, x: 0, y: 0, width: 2560, height: 1440 },
      { index: 1, name: 'HDMI-1', primary: false, scaleFactor: 1, x: 2560, y: 180, width: 1920, height: 1080 },
      { index: 2, name: 'left', primary: false, scaleFactor: 1, x: -640, y: 0, width: 640, height: 800 },
    ]);
  });
  test('without a primary flag the first monitor is primary', () => {
    const out = 'Monitors: 2\n 0: left 1280/339x1600/212+0+0  screen\n 1: right 1280/339x1600/212+1280+0  none\n';
    expect(parseXrandrMonitors(out, 2).map((d) => [d.name, d.primary, d.scaleFactor])).toEqual([
      ['left', true, 2],
      ['right', false, 2],
    ]);
  });
  test('nothing parsable is no monitors', () => {
    expect(parseXrandrMonitors('')).toEqual([]);
    expect(parseXrandrMonitors("Can't open display")).toEqual([]);
  });
});
