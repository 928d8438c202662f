/** grim's PPM as the BGRA frame the encoder takes. */
import { describe, expect, it } from 'vitest';
import { fromPpm } from '../../../../adapter/desktop/wlroots/grim-capture.js';

describe('fromPpm', () => {
  it('turns RGB samples into BGRA, row by row', () => {
    const ppm = Buffer.concat([Buffer.from('P6\n2 1\n255\n', 'latin1'), Buffer.from([10, 20, 30, 40, 50, 60])]);
    const frame = fromPpm(ppm);
    expect([frame.width, frame.height, frame.byteWidth]).toEqual([2, 1, 8]);
    expect([...frame.data]).toEqual([30, 20, 10, 255, 60, 50, 40, 255]);
  });

  it('refuses what is not a whole 8-bit binary PPM', () => {
    expect(() => fromPpm(Buffer.from('P3\n1 1\n255\n1 2 3', 'latin1'))).toThrow(/not a binary PPM/);
    expect(() => fromPpm(Buffer.concat([Buffer.from('P6\n2 2\n255\n', 'latin1'), Buffer.alloc(3)]))).toThrow(/shorter than its size says/);
  });
});
