import { describe, expect, it } from 'vitest';
import { imageBlockTokens, imageSize, imageTokens, MAX_IMAGE_TOKENS } from '../../../main/mcp/answer/image-tokens.js';

describe('imageTokens', () => {
  // The worked examples of OpenAI's vision guide ("Calculating costs").
  it('follows the published rule', () => {
    expect(imageTokens(1024, 1024)).toBe(765);
    expect(imageTokens(2048, 4096)).toBe(1105);
    expect(imageTokens(512, 512)).toBe(255);
    expect(imageTokens(1568, 882)).toBe(1105);
    expect(MAX_IMAGE_TOKENS).toBe(1445);
  });
});

describe('imageSize', () => {
  it('reads PNG, GIF and JPEG headers', () => {
    const png = Buffer.alloc(24);
    png.writeUInt32BE(0x89504e47, 0);
    png.write('IHDR', 12, 'ascii');
    png.writeUInt32BE(640, 16);
    png.writeUInt32BE(480, 20);
    expect(imageSize(png)).toEqual({ width: 640, height: 480 });
    const gif = Buffer.from('GIF89a\x20\x03\x58\x02', 'latin1');
    expect(imageSize(gif)).toEqual({ width: 800, height: 600 });
    // SOI, an APP0 segment of 16 bytes, then SOF0 with height 300 and width 400.
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, ...new Array(14).fill(0), 0xff, 0xc0, 0, 17, 8, 0x01, 0x2c, 0x01, 0x90, 3]);
    expect(imageSize(jpeg)).toEqual({ width: 400, height: 300 });
    expect(imageSize(Buffer.from('not an image'))).toBeNull();
    expect(imageBlockTokens(Buffer.from('not an image').toString('base64'))).toBe(MAX_IMAGE_TOKENS);
  });
});
