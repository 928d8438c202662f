import { describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { boundUpstreamAnswer, MAX_BLOCK_BYTES } from '../../../main/mcp/answer/upstream-answer.js';

/** A PNG header of the given size (what image-tokens reads), padded to `bytes` of base64. */
function png(width: number, height: number, bytes = 100): string {
  const head = Buffer.alloc(24);
  Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex').copy(head);
  head.writeUInt32BE(width, 16);
  head.writeUInt32BE(height, 20);
  return (head.toString('base64') + 'A'.repeat(bytes)).slice(0, Math.max(bytes, 32));
}

const image = (data: string) => ({ type: 'image' as const, data, mimeType: 'image/png' });
const note = (result: CallToolResult) => (result.content.at(-1) as { text: string }).text;

describe('boundUpstreamAnswer', () => {
  it('keeps images in order while they fit half the budget, and says how many were left out', () => {
    const result = boundUpstreamAnswer({ content: [{ type: 'text', text: 'hi' }, ...Array.from({ length: 2000 }, () => image(png(64, 64)))] }, 2000);
    const images = result.content.filter((b) => b.type === 'image').length;
    expect(images).toBeGreaterThan(0);
    expect(images).toBeLessThan(100);
    expect(note(result)).toContain(`${2000 - images} of its 2000 image, audio or resource blocks`);
  });

  it('bounds the bytes of what it keeps, however few tokens an image counts for', () => {
    const big = image(png(10, 10, MAX_BLOCK_BYTES + 10));
    const result = boundUpstreamAnswer({ content: [big, image(png(10, 10))] }, 1_000_000);
    expect(result.content.map((b) => b.type)).toEqual(['image', 'text']);
    expect((result.content[0] as { data: string }).data.length).toBeLessThan(1000);
  });

  it('turns an embedded text resource into text the budget can cut, joins many text blocks, and leaves out a large _meta', () => {
    const result = boundUpstreamAnswer(
      {
        content: [
          { type: 'resource', resource: { uri: 'notes://a', text: 'x'.repeat(3_000_000) } },
          ...Array.from({ length: 100 }, (_, i) => ({ type: 'text' as const, text: `t${i}` })),
        ],
        _meta: { blob: 'y'.repeat(100_000) },
      },
      25_000,
    );
    expect(result._meta).toBeUndefined();
    expect(result.content).toHaveLength(2);
    expect((result.content[0] as { text: string }).text.startsWith('[resource notes://a]\nxxx')).toBe(true);
    expect((result.content[0] as { text: string }).text.endsWith('t98\nt99')).toBe(true);
    expect(note(result)).toMatch(/text blocks were joined.*_meta/);
  });

  it("leaves out a text block's heavy fields besides its text, and the answer's heavy unknown fields, keeping the known ones", () => {
    const result = boundUpstreamAnswer(
      {
        content: [
          { type: 'text', text: 'small', _meta: { blob: 'm'.repeat(3_000_000) } },
          { type: 'text', text: 'kept whole', annotations: { priority: 1 } },
        ],
        blob: 'b'.repeat(3_000_000),
        structuredContent: { ok: true },
        isError: false,
      } as CallToolResult,
      25_000,
    );
    expect(JSON.stringify(result).length).toBeLessThan(2_000);
    expect(result.content.slice(0, 2)).toEqual([
      { type: 'text', text: 'small' },
      { type: 'text', text: 'kept whole', annotations: { priority: 1 } },
    ]);
    expect(result).toMatchObject({ structuredContent: { ok: true }, isError: false });
    expect(note(result)).toMatch(/besides the text of 1 text block.*its fields blob \(over 16 KiB\)/);
    // Small unknown fields pass.
    const small = { content: [{ type: 'text' as const, text: 'x' }], extra: 'fine' } as CallToolResult;
    expect(boundUpstreamAnswer(small, 25_000)).toBe(small);
  });

  it('leaves an ordinary answer, and any answer without a budget, as it is', () => {
    const ordinary: CallToolResult = { content: [{ type: 'text', text: 'ok' }, image(png(10, 10))], _meta: { small: true } };
    expect(boundUpstreamAnswer(ordinary, 25_000)).toBe(ordinary);
    const huge: CallToolResult = { content: Array.from({ length: 100 }, () => image(png(4000, 4000))) };
    expect(boundUpstreamAnswer(huge, Infinity)).toBe(huge);
  });
});
