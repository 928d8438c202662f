import { describe, expect, it } from 'vitest';
import { BoundedOutput } from '../../../adapter/process/bounded-output.js';
import { describeOutput, isBinaryOutput } from '../../../adapter/process/output-text.js';

describe('binary output', () => {
  it('is reported by size and preview, never escaped', () => {
    const nul = Buffer.alloc(2 * 1024 * 1024);
    expect(isBinaryOutput(nul)).toBe(true);
    const described = describeOutput(nul);
    expect(described.text).toBe('');
    expect(described.binary).toEqual({ bytes: nul.length, previewBase64: Buffer.alloc(64).toString('base64') });
  });

  it('leaves text, including a few invalid bytes of a legacy encoding, as text', () => {
    expect(isBinaryOutput(Buffer.from('plain text\n'))).toBe(false);
    expect(isBinaryOutput(Buffer.from('caf\xe9 au lait, na\xefve r\xe9sum\xe9 of a long line of latin-1 text', 'latin1'))).toBe(false);
    expect(isBinaryOutput(Buffer.from([0xff, 0xfe, 0xfd, 0xfc, 0x80, 0x81, 0x82]))).toBe(true);
  });

  it('BoundedOutput says binary for binary, text for text', () => {
    const out = new BoundedOutput(1024);
    out.push(Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 0]));
    expect(out.result()).toMatchObject({ text: '', binary: { bytes: 7 } });
    const text = new BoundedOutput(1024);
    text.push(Buffer.from('ok\n'));
    expect(text.result()).toEqual({ text: 'ok\n', truncated: false });
  });
});
