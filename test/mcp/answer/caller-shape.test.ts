import { describe, expect, it } from 'vitest';
import { shapeFor } from '../../../main/mcp/answer/caller-shape.js';

describe('shapeFor', () => {
  it('gives ChatGPT the payload in the text only, by clientInfo, User-Agent or OAuth client name', () => {
    expect(shapeFor({ clientName: 'openai-mcp' })).toBe('text');
    expect(shapeFor({ userAgent: 'openai-mcp/1.0.0' })).toBe('text');
    expect(shapeFor({ authClient: 'ChatGPT' })).toBe('text');
  });

  it('gives every other host the answer whole in either part', () => {
    expect(shapeFor(undefined)).toBe('both');
    expect(shapeFor({ clientName: 'claude-code', userAgent: 'node' })).toBe('both');
    expect(shapeFor({ clientName: 'not-openai-mcp' })).toBe('both');
    expect(shapeFor({ authClient: 'bearer token' })).toBe('both');
    // A client whose name only starts like ChatGPT's is not ChatGPT.
    expect(shapeFor({ clientName: 'chatgpt-mcp-bench', authClient: 'chatgpt-helper' })).toBe('both');
  });
});
