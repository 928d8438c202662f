import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { zipSync } from 'fflate';
import path from 'node:path';
import zlib from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GuardedPath, ImageFileRead, ImageReadOptions } from '../../../../adapter/contract/files.js';
import { readFileAs } from '../../../../adapter/fs/formats/read-as.js';
import { makeTempDir, removeDir } from '../../../helpers/temp.js';

let dir: string;
beforeAll(() => {
  dir = makeTempDir();
});
afterAll(() => removeDir(dir));

const guard = (file: string, seen: string[] = []): GuardedPath => ({ path: file, confirm: (real) => void seen.push(real) });
const image: ImageReadOptions = { maxWidth: 1568, maxHeight: 1568, maxPixels: 1_150_000 };
const read = (file: string, more: Partial<ImageReadOptions> = {}) => readFileAs(guard(file), { maxBytes: 1 << 20, image: { ...image, ...more } });
const magick = (...args: string[]) => execFileSync('convert', args, { stdio: 'pipe' });
const asImage = async (file: string, more: Partial<ImageReadOptions> = {}) => {
  const result = await read(file, more);
  if (result.kind !== 'image') throw new Error(`read ${file} as ${result.kind}`);
  return result;
};
const pixelAt = async (result: ImageFileRead, x: number, y: number) => {
  const { data, info } = await sharp(result.data).raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * info.channels;
  return [data[at], data[at + 1], data[at + 2]];
};

/** A PNG whose header claims width x height, with one tiny IDAT: what a decompression bomb's header looks like. */
function pngClaiming(width: number, height: number): Buffer {
  const chunk = (type: string, body: Buffer) => {
    const head = Buffer.alloc(4);
    head.writeUInt32BE(body.length);
    const typed = Buffer.concat([Buffer.from(type, 'latin1'), body]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(typed));
    return Buffer.concat([head, typed, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 0, 0, 0, 0], 8); // 8-bit greyscale
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', ihdr), chunk('IDAT', zlib.deflateSync(Buffer.alloc(1024))), chunk('IEND', Buffer.alloc(0))]);
}

describe('readFileAs: images', () => {
  it('reads a PNG by its magic bytes, whatever its name says, and confirms what it opened', async () => {
    const file = path.join(dir, 'notes.txt');
    magick('-size', '200x100', 'xc:red', `png:${file}`);
    const seen: string[] = [];
    const result = await readFileAs(guard(file, seen), { maxBytes: 1 << 20, image });
    expect(result).toMatchObject({
      kind: 'image',
      sourceFormat: 'png',
      format: 'png',
      mimeType: 'image/png',
      width: 200,
      height: 100,
      originalWidth: 200,
      originalHeight: 100,
    });
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(seen.every((p) => p === file)).toBe(true);
    expect(await pixelAt(result as ImageFileRead, 10, 10)).toEqual([255, 0, 0]);
  });

  it('scales a large photo within the limits keeping its aspect ratio, as JPEG', async () => {
    const file = path.join(dir, 'photo.jpg');
    magick('-size', '4000x3000', 'gradient:blue-yellow', '-quality', '85', file);
    const result = await asImage(file);
    expect(result).toMatchObject({ sourceFormat: 'jpeg', format: 'jpeg', originalWidth: 4000, originalHeight: 3000 });
    expect(result.width).toBeLessThanOrEqual(1568);
    expect(result.width * result.height).toBeLessThanOrEqual(1_150_000);
    expect(Math.abs(result.width / result.height - 4 / 3)).toBeLessThan(0.01);
    const meta = await sharp(result.data).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', result.width, result.height]);
  });

  it('reads a region at full resolution, in the original’s pixels', async () => {
    const file = path.join(dir, 'halves.png');
    magick('-size', '1000x500', 'xc:white', '-fill', 'lime', '-draw', 'rectangle 500,0 999,499', file);
    const result = await asImage(file, { region: { x: 600, y: 100, width: 300, height: 200 } });
    expect(result).toMatchObject({ width: 300, height: 200, area: { x: 600, y: 100, width: 300, height: 200 } });
    expect(await pixelAt(result, 150, 100)).toEqual([0, 255, 0]);
    await expect(read(file, { region: { x: 900, y: 0, width: 200, height: 10 } })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringContaining('is not inside'),
    });
  });

  it('reads the first frame of an animated GIF and a WebP, and encodes as asked', async () => {
    const gif = path.join(dir, 'anim.gif');
    magick('-size', '40x30', 'xc:blue', 'xc:red', '-loop', '0', gif);
    const frame = await asImage(gif);
    expect(frame).toMatchObject({ sourceFormat: 'gif', format: 'png', width: 40, height: 30 });
    expect(await pixelAt(frame, 5, 5)).toEqual([0, 0, 255]);
    const webp = path.join(dir, 'pic.webp');
    magick('-size', '64x48', 'xc:green', webp);
    expect(await asImage(webp, { format: 'png' })).toMatchObject({ sourceFormat: 'webp', format: 'png', width: 64, height: 48 });
  });

  it('refuses a decompression bomb by its pixel count before decoding, quickly', async () => {
    const file = path.join(dir, 'bomb.png');
    fs.writeFileSync(file, pngClaiming(60_000, 60_000));
    const started = Date.now();
    await expect(read(file)).rejects.toMatchObject({ code: 'INVALID_INPUT', message: expect.stringMatching(/60000x60000 pixels.*refused/) });
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('refuses a truncated PNG with a clear error and returns nothing', async () => {
    const whole = path.join(dir, 'whole.png');
    magick('-size', '300x300', 'plasma:', whole);
    const file = path.join(dir, 'cut.png');
    const bytes = fs.readFileSync(whole);
    fs.writeFileSync(file, bytes.subarray(0, Math.floor(bytes.length / 2)));
    await expect(read(file)).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringContaining('is a PNG file that could not be read as an image'),
    });
  });

  it('reads a HEIC photo (HEVC, decoded in a worker) and an AVIF one (AV1), whole or a region', async () => {
    for (const [name, coder] of [
      ['photo.heic', 'heic'],
      ['photo.avif', 'avif'],
    ] as const) {
      const file = path.join(dir, name);
      magick('-size', '300x200', 'xc:red', '-fill', 'blue', '-draw', 'rectangle 150,0 299,199', `${coder}:${file}`);
      const whole = await asImage(file);
      expect(whole).toMatchObject({ sourceFormat: 'heif', format: 'jpeg', width: 300, height: 200, originalWidth: 300, originalHeight: 200 });
      const [r, , b] = (await pixelAt(whole, 20, 100)) as number[];
      expect(r! > 200 && b! < 60, `${name} left half is red`).toBe(true);
      const part = await asImage(file, { region: { x: 150, y: 0, width: 150, height: 200 } });
      expect(part).toMatchObject({ width: 150, height: 200 });
      const [r2, , b2] = (await pixelAt(part, 20, 100)) as number[];
      expect(r2! < 60 && b2! > 200, `${name} region is the blue half`).toBe(true);
    }
  });

  it('refuses a HEIC whose header claims over 100 megapixels before decoding a pixel', async () => {
    const file = path.join(dir, 'bomb.heic');
    magick('-size', '64x64', 'xc:green', `heic:${file}`);
    const bytes = fs.readFileSync(file);
    // Every image spatial extent (ispe: version and flags, then width and height) claims 20000 x 20000.
    for (let at = bytes.indexOf('ispe'); at !== -1; at = bytes.indexOf('ispe', at + 4)) {
      bytes.writeUInt32BE(20_000, at + 8);
      bytes.writeUInt32BE(20_000, at + 12);
    }
    fs.writeFileSync(file, bytes);
    await expect(read(file)).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringMatching(/claims 20000x20000 pixels; images over 100 megapixels are refused/),
    });
  });

  it('names what it cannot read (a HEIF that is only a header, a ZIP that is no Office file, a damaged one), and still reads text as text', async () => {
    const heic = path.join(dir, 'x.heic');
    fs.writeFileSync(heic, Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from('ftypheic\0\0\0\0mif1heic')]));
    await expect(read(heic)).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringContaining('is a HEIF file that could not be read as an image'),
    });
    const zip = path.join(dir, 'doc.docx');
    fs.writeFileSync(zip, Buffer.from('PK\x03\x04rest', 'latin1'));
    await expect(read(zip)).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringContaining('is an Office document (ZIP) that could not be read'),
    });
    const archive = path.join(dir, 'photos.docx');
    fs.writeFileSync(archive, zipSync({ 'a.txt': new Uint8Array(3) }));
    await expect(read(archive)).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringContaining('is a ZIP archive, not a Word, Excel or PowerPoint file'),
    });
    const text = path.join(dir, 'a.png');
    fs.writeFileSync(text, 'just text\nline two\n');
    expect(await read(text)).toMatchObject({ kind: 'text', content: 'just text\nline two\n', totalLines: 2 });
    const lines = await readFileAs(guard(text), { maxBytes: 100, startLine: 2, image });
    expect(lines).toMatchObject({ kind: 'text', content: 'line two\n', startLine: 2, endLine: 2 });
  });

  it('reads an image by its magic bytes with a line range too, which text-only reading would refuse', async () => {
    const file = path.join(dir, 'ranged.log');
    magick('-size', '20x10', 'xc:blue', `png:${file}`);
    const seen: string[] = [];
    const result = await readFileAs(guard(file, seen), { maxBytes: 1 << 20, startLine: 1, endLine: 5, image });
    expect(result).toMatchObject({ kind: 'image', width: 20, height: 10 });
    expect(seen.every((p) => p === file)).toBe(true);
  });
});
