/** grim's PPM as the packed RGB frame the encoder takes. */
import { describe, expect, it } from 'vitest';
import { fromPpm } from '../../../../adapter/desktop/wlroots/grim-capture.js';

describe('fromPpm', () => {
  it('takes the RGB samples after the header as they are', () => {
    const ppm = Buffer.concat([Buffer.from('P6\n2 1\n255\n', 'latin1'), Buffer.from([10, 20, 30, 40, 50, 60])]);
    const frame = fromPpm(ppm);
    expect([frame.width, frame.height, frame.byteWidth, frame.rgb]).toEqual([2, 1, 6, true]);
    expect([...frame.data]).toEqual([10, 20, 30, 40, 50, 60]);
  });

  it('refuses what is not a whole 8-bit binary PPM', () => {
    expect(() => fromPpm(Buffer.from('P3\n1 1\n255\n1 2 3', 'latin1'))).toThrow(/not a binary PPM/);
    expect(() => fromPpm(Buffer.concat([Buffer.from('P6\n2 2\n255\n', 'latin1'), Buffer.alloc(3)]))).toThrow(/shorter than its size says/);
  });
});
