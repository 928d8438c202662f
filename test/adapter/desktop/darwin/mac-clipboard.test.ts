/**
 * The macOS clipboard's images (mac-clipboard.ts). Here: the Node side against a stand-in for the
 * osascript run. On macOS (the workflow's runner): a PNG put on the real pasteboard reads back
 * byte for byte (the pasteboard needs no Accessibility grant).
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { macClipboardRead, macClipboardWriteImage, PASTEBOARD_SCRIPT } from '../../../../adapter/desktop/darwin/mac-clipboard.js';
import type { runJxa } from '../../../../adapter/desktop/darwin/jxa.js';
import { jxaDefinesRun } from '../../../helpers/jxa-script.js';

const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

it('its script parses as JXA and defines run', () => {
  expect(jxaDefinesRun(PASTEBOARD_SCRIPT)).toBe(true);
});

describe('the macOS clipboard, against a stand-in for osascript', () => {
  it('writes the image through a file of its own that is gone afterwards, and says what failed', async () => {
    let seen: string | undefined;
    const run: typeof runJxa = async (script, request) => {
      expect(script).toBe(PASTEBOARD_SCRIPT);
      seen = request.file as string;
      expect(fs.readFileSync(seen)).toEqual(png);
      expect(fs.statSync(seen).mode & 0o777).toBe(0o600);
      return '{"ok":true}';
    };
    await macClipboardWriteImage(png, 'clipboard.write', run);
    expect(fs.existsSync(seen!)).toBe(false);
    const refused: typeof runJxa = async () => '{"error":"the pasteboard refused the image"}';
    await expect(macClipboardWriteImage(png, 'clipboard.write', refused)).rejects.toMatchObject({
      code: 'OS_ERROR',
      message: 'writing the clipboard failed: the pasteboard refused the image',
    });
  });

  it('asks for the preferred kind and bounds what comes back', async () => {
    const requests: unknown[] = [];
    const run: typeof runJxa = async (_script, request) => {
      requests.push(request);
      return JSON.stringify({ formats: ['public.png'], png64: png.toString('base64') });
    };
    expect(await macClipboardRead({ prefer: 'image', maxBytes: 1000 }, 'clipboard.read', run)).toMatchObject({
      kind: 'image',
      bytes: png.length,
      formats: ['public.png'],
    });
    expect(requests).toEqual([{ prefer: 'image' }]);
    await expect(macClipboardRead({ prefer: 'image', maxBytes: 4 }, 'clipboard.read', run)).rejects.toMatchObject({ code: 'OUTPUT_LIMIT' });
  });

  it.runIf(process.platform === 'darwin')('puts a PNG on the real pasteboard and reads the same bytes back', async () => {
    const sharp = (await import('sharp')).default;
    const image = await sharp({ create: { width: 5, height: 3, channels: 4, background: { r: 9, g: 8, b: 7, alpha: 0.5 } } })
      .png()
      .toBuffer();
    await macClipboardWriteImage(image, 'clipboard.write');
    const read = await macClipboardRead({ prefer: 'image', maxBytes: 1 << 20 }, 'clipboard.read');
    expect(read.kind).toBe('image');
    expect(Buffer.compare(read.image!.data, image)).toBe(0);
  });
});
