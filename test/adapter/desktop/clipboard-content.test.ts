/** Clipboard content bounded the same way by every backend: text cut on a character, images refused whole. */
import { describe, expect, it } from 'vitest';
import { clipboardImage, clipboardText, fromScriptClipboard } from '../../../adapter/desktop/clipboard-content.js';

describe('clipboardText', () => {
  it('keeps text within the bound and says nothing was cut', () => {
    expect(clipboardText('héllo', 6, ['UTF8_STRING'])).toEqual({ kind: 'text', text: 'héllo', bytes: 6, truncated: false, formats: ['UTF8_STRING'] });
  });

  it('cuts on a character boundary, never inside a multi-byte character, and gives the whole size', () => {
    // "日本語" is 3 bytes per character: 7 bytes hold two whole characters and a third of the third
    expect(clipboardText('日本語', 7, [])).toMatchObject({ text: '日本', bytes: 9, truncated: true });
    expect(clipboardText('ab✓', 3, [])).toMatchObject({ text: 'ab', truncated: true });
  });

  it('empty text is an empty clipboard', () => {
    expect(clipboardText('', 10, ['TARGETS'])).toEqual({ kind: 'empty', bytes: 0, truncated: false, formats: ['TARGETS'] });
  });
});

describe('clipboardImage', () => {
  it('returns an image within the bound and refuses a larger one, naming both sizes', () => {
    expect(clipboardImage(Buffer.alloc(10), 10, ['image/png'], 'clipboard.read')).toMatchObject({ kind: 'image', bytes: 10, image: { mimeType: 'image/png' } });
    expect(() => clipboardImage(Buffer.alloc(4), 10, [], 'clipboard.read', 11)).toThrow(/holds a 11-byte PNG image, more than maxBytes \(10\)/);
  });
});

describe('fromScriptClipboard', () => {
  const b64 = (s: string | Buffer) => Buffer.from(s).toString('base64');
  const png = Buffer.from('\x89PNG fake');
  it('gives the preferred kind when both are there, the other when only it is', () => {
    const both = { formats: ['public.utf8-plain-text', 'public.png'], text64: b64('héllo'), png64: b64(png) };
    expect(fromScriptClipboard(both, { prefer: 'text', maxBytes: 100 }, 'clipboard.read')).toMatchObject({
      kind: 'text',
      text: 'héllo',
      formats: both.formats,
    });
    expect(fromScriptClipboard(both, { prefer: 'image', maxBytes: 100 }, 'clipboard.read')).toMatchObject({ kind: 'image', bytes: png.length });
    expect(fromScriptClipboard({ formats: 'PNG', png64: b64(png) }, { prefer: 'text', maxBytes: 100 }, 'clipboard.read')).toMatchObject({
      kind: 'image',
      formats: ['PNG'],
    });
    expect(fromScriptClipboard({ formats: 'UnicodeText', text64: b64('only text') }, { prefer: 'image', maxBytes: 100 }, 'clipboard.read')).toMatchObject({
      kind: 'text',
    });
  });

  it('bounds both kinds as every backend does, and says when nothing is there', () => {
    expect(fromScriptClipboard({ text64: b64('日本語') }, { prefer: 'text', maxBytes: 7 }, 'clipboard.read')).toMatchObject({ text: '日本', truncated: true });
    expect(() => fromScriptClipboard({ png64: b64(png) }, { prefer: 'image', maxBytes: 4 }, 'clipboard.read')).toThrow(/more than maxBytes \(4\)/);
    expect(fromScriptClipboard({ formats: [] }, { prefer: 'text', maxBytes: 10 }, 'clipboard.read')).toEqual({
      kind: 'empty',
      bytes: 0,
      truncated: false,
      formats: [],
    });
  });
});
