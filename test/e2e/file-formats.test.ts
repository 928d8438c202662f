/**
 * Files that are not text, through real clients (v2 pinned to 2026-07-28 and v1 legacy): images
 * arrive as image content scaled for the answer budget with their token cost, PDFs as page text
 * with ranges and continuations; the filesystem policy decides first, whatever the format.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imageTokens } from '../../main/mcp/answer/image-tokens.js';
import { textOf, type TestClient } from '../helpers/clients.js';
import { readerSuite } from '../helpers/reader-suite.js';
import { textPdf } from '../helpers/pdf-file.js';

const readers = readerSuite((root) => {
  execFileSync('convert', ['-size', '3000x2000', 'gradient:red-blue', path.join(root, 'wide.png')]);
  execFileSync('convert', ['-size', '1200x900', 'gradient:green-yellow', path.join(root, 'IMG_0001.HEIC')]);
  fs.mkdirSync(path.join(root, '.ssh'));
  execFileSync('convert', ['-size', '10x10', 'xc:black', path.join(root, '.ssh', 'shot.png')]);
  fs.writeFileSync(path.join(root, '.ssh', 'keys.pdf'), textPdf([['private']]));
  const long = Array.from({ length: 40 }, (_, page) => Array.from({ length: 40 }, (_, line) => `page ${page + 1} line ${line + 1} of a long report`));
  fs.writeFileSync(path.join(root, 'report.pdf'), textPdf(long));
});

describe.each(readers)('%s client', (_kind, connect) => {
  let client: TestClient;
  beforeAll(async () => {
    client = await connect();
  });
  afterAll(() => client.close());

  it('gets an image file as image content, scaled like a capture, with its original size and token cost', async () => {
    const result = await client.callTool({ name: 'fs.read', arguments: { path: 'wide.png' } });
    const block = result.content.find((c) => c.type === 'image')!;
    expect(block.mimeType).toBe('image/png');
    const meta = await sharp(Buffer.from(block.data!, 'base64')).metadata();
    expect(meta.width).toBeLessThanOrEqual(1568);
    expect(meta.width! * meta.height!).toBeLessThanOrEqual(1_150_000);
    const image = result.structuredContent?.image as Record<string, number>;
    expect(image).toMatchObject({
      originalWidth: 3000,
      originalHeight: 2000,
      width: meta.width,
      height: meta.height,
      tokens: imageTokens(meta.width!, meta.height!),
    });
    expect(textOf(result)).toContain(`PNG image 3000x2000`);
    expect(textOf(result)).toContain(`${image.tokens} tokens`);
  });

  it("gets an iPhone's HEIC photo as JPEG image content with its size", async () => {
    const result = await client.callTool({ name: 'fs.read', arguments: { path: 'IMG_0001.HEIC' } });
    const block = result.content.find((c) => c.type === 'image')!;
    expect(block.mimeType).toBe('image/jpeg');
    expect(await sharp(Buffer.from(block.data!, 'base64')).metadata()).toMatchObject({ format: 'jpeg', width: 1200, height: 900 });
    expect(result.structuredContent?.image).toMatchObject({ sourceFormat: 'heif', originalWidth: 1200, originalHeight: 900 });
    expect(textOf(result)).toContain('HEIF image 1200x900');
  });

  it('shrinks the image when the answer budget is small, and reads a region at full detail', async () => {
    const small = await client.callTool({ name: 'fs.read', arguments: { path: 'wide.png', maxTokens: 1000 } });
    expect(small.structuredContent?.image).toMatchObject({ width: 768, height: 512 });
    expect((small.structuredContent?.image as { tokens: number }).tokens).toBeLessThan(1000);
    const region = await client.callTool({ name: 'fs.read', arguments: { path: 'wide.png', region: { x: 100, y: 100, width: 400, height: 300 } } });
    expect(region.structuredContent?.image).toMatchObject({ width: 400, height: 300, area: { x: 100, y: 100, width: 400, height: 300 } });
  });

  it('refuses an image or a PDF where a secret pattern protects it, as it refuses a key', async () => {
    const result = await client.callTool({ name: 'fs.read', arguments: { path: '.ssh/shot.png' } });
    expect(result.isError).toBe(true);
    expect(result.content.some((c) => c.type === 'image')).toBe(false);
    expect(textOf(result)).toMatch(/secret pattern/);
    const pdf = await client.callTool({ name: 'fs.read', arguments: { path: '.ssh/keys.pdf' } });
    expect(pdf.isError).toBe(true);
    expect(textOf(pdf)).toMatch(/secret pattern/);
    expect(textOf(pdf)).not.toContain('private');
  });

  it('reads a PDF’s pages as text, a range, and cuts a long one to the budget with the way to the rest', async () => {
    const range = await client.callTool({ name: 'fs.read', arguments: { path: 'report.pdf', pages: '3-4' } });
    expect(range.structuredContent?.pdf).toMatchObject({ totalPages: 40, firstPage: 3, lastPage: 4, pagesWithoutText: [] });
    expect(textOf(range)).toContain('[page 3 of 40]\npage 3 line 1 of a long report');
    expect(textOf(range)).toContain('page 4 line 40 of a long report');
    expect(textOf(range)).not.toContain('page 5 line');
    const capped = await client.callTool({ name: 'fs.read', arguments: { path: 'report.pdf', maxBytes: 5000 } });
    const next = (capped.structuredContent?.pdf as { nextPage: number }).nextPage;
    expect(next).toBeGreaterThan(1);
    expect(textOf(capped)).toContain(`read on with pages "${next}-"`);
    const cut = await client.callTool({ name: 'fs.read', arguments: { path: 'report.pdf', maxTokens: 1000 } });
    expect(textOf(cut)).toMatch(/elided .* answer[._]more \{"id":"[^"]+"\} reads them/);
    expect(textOf(cut)).toContain('[page 1 of 40]');
  });
});
