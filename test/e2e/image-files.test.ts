/**
 * Images read from files reach real clients (v2 pinned to 2026-07-28 and v1 legacy) as image
 * content, scaled for the answer budget, with their token cost; the filesystem policy decides
 * first, whatever the format.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imageTokens } from '../../main/mcp/answer/image-tokens.js';
import { connectLegacyHttp, connectModernHttp, textOf, type TestClient } from '../helpers/clients.js';
import { startTestServer, type TestHttpServer } from '../helpers/servers.js';
import { makeRootAndOutside, removeDir } from '../helpers/temp.js';

let home: string;
let root: string;
let server: TestHttpServer;

beforeAll(async () => {
  ({ home, root } = makeRootAndOutside());
  execFileSync('convert', ['-size', '3000x2000', 'gradient:red-blue', path.join(root, 'wide.png')]);
  fs.mkdirSync(path.join(root, '.ssh'));
  execFileSync('convert', ['-size', '10x10', 'xc:black', path.join(root, '.ssh', 'shot.png')]);
  server = await startTestServer({ filesystem: { roots: [root] } });
});
afterAll(async () => {
  await server.close();
  removeDir(home);
});

describe.each([
  ['modern', () => connectModernHttp(server.url)],
  ['legacy', () => connectLegacyHttp(server.url)],
] as Array<[string, () => Promise<TestClient>]>)('%s client', (_kind, connect) => {
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

  it('shrinks the image when the answer budget is small, and reads a region at full detail', async () => {
    const small = await client.callTool({ name: 'fs.read', arguments: { path: 'wide.png', maxTokens: 1000 } });
    expect(small.structuredContent?.image).toMatchObject({ width: 768, height: 512 });
    expect((small.structuredContent?.image as { tokens: number }).tokens).toBeLessThan(1000);
    const region = await client.callTool({ name: 'fs.read', arguments: { path: 'wide.png', region: { x: 100, y: 100, width: 400, height: 300 } } });
    expect(region.structuredContent?.image).toMatchObject({ width: 400, height: 300, area: { x: 100, y: 100, width: 400, height: 300 } });
  });

  it('refuses an image where a secret pattern protects it, as it refuses a key', async () => {
    const result = await client.callTool({ name: 'fs.read', arguments: { path: '.ssh/shot.png' } });
    expect(result.isError).toBe(true);
    expect(result.content.some((c) => c.type === 'image')).toBe(false);
    expect(textOf(result)).toMatch(/secret pattern/);
  });
});
