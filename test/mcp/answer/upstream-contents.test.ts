import { describe, expect, it } from 'vitest';
import { boundPrompt, boundResourceRead } from '../../../main/mcp/answer/upstream-contents.js';
import { MAX_BLOCK_BYTES } from '../../../main/mcp/answer/upstream-answer.js';

describe('boundResourceRead', () => {
  it('passes a resource that fits, an MCP App page of a megabyte included, as it is', () => {
    const page = { contents: [{ uri: 'ui://app/page.html', mimeType: 'text/html;profile=mcp-app', text: '<p>'.repeat(350_000), _meta: { ui: { csp: {} } } }] };
    expect(boundResourceRead(page)).toBe(page);
  });

  it('cuts text past the bound, leaves out a blob and a heavy _meta, and says so in a last part', () => {
    const result = boundResourceRead({
      contents: [
        { uri: 'notes://a', text: 'x'.repeat(MAX_BLOCK_BYTES - 10) },
        { uri: 'notes://b', text: 'y'.repeat(1000) },
        { uri: 'notes://c', blob: 'z'.repeat(1000) },
      ],
      _meta: { blob: 'm'.repeat(100_000) },
    });
    expect(JSON.stringify(result).length).toBeLessThan(MAX_BLOCK_BYTES + 1000);
    expect(result._meta).toBeUndefined();
    expect(result.contents.map((c) => c.uri)).toEqual(['notes://a', 'notes://b', 'notes://a']);
    expect((result.contents[1] as { text: string }).text).toBe(`${'y'.repeat(10)}\n[cut by the gateway]`);
    expect((result.contents[2] as { text: string }).text).toMatch(
      /^\[the gateway left out or changed: part 2 cut after 10 of its 1000 characters; part 3 \(\d+ bytes, over what is left of 4 MiB\); its _meta \(over 16 KiB\)\]$/,
    );
  });
});

describe('boundPrompt', () => {
  it('passes a prompt that fits as it is, and bounds one that does not', () => {
    const small = { messages: [{ role: 'user' as const, content: { type: 'text' as const, text: 'hello' } }] };
    expect(boundPrompt(small)).toBe(small);
    const result = boundPrompt({
      description: 'big',
      messages: [
        { role: 'user', content: { type: 'text', text: 'a'.repeat(MAX_BLOCK_BYTES) } },
        { role: 'assistant', content: { type: 'image', data: 'A'.repeat(5000), mimeType: 'image/png' } },
      ],
    });
    expect(result.description).toBe('big');
    expect(result.messages.map((m) => [m.role, m.content.type])).toEqual([
      ['user', 'text'],
      ['user', 'text'],
    ]);
    expect((result.messages[1]!.content as { text: string }).text).toMatch(/message 2 \(\d+ bytes, over what is left/);
  });
});
