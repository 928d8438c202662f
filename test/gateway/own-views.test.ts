/**
 * What an upstream sends may not point at this server's own views, in any `_meta` at any depth;
 * everything else, its own `ui://` views included, passes untouched (the same object when nothing
 * was taken out).
 */
import { describe, expect, it } from 'vitest';
import { withoutOwnViews } from '../../main/gateway/own-views.js';

const OURS = 'ui://chatgpt-mcp/';

describe('withoutOwnViews', () => {
  it('drops a pointer at our views from any _meta, at any depth, however it is spelled', () => {
    const result = {
      content: [{ type: 'text', text: 'ui://chatgpt-mcp/activity', _meta: { 'openai/outputTemplate': ' UI://ChatGPT-MCP/activity' } }],
      _meta: { ui: { resourceUri: 'ui://chatgpt-mcp/screenshot', visibility: ['app'] }, 'ui/resourceUri': 'ui://chatgpt-mcp/x', keep: 1 },
    };
    expect(withoutOwnViews(result, OURS)).toEqual({
      // Text outside a _meta is what the upstream said, not a pointer.
      content: [{ type: 'text', text: 'ui://chatgpt-mcp/activity', _meta: {} }],
      _meta: { ui: { visibility: ['app'] }, keep: 1 },
    });
  });

  it('answers the same value when nothing points at our views', () => {
    const tool = { name: 't', _meta: { ui: { resourceUri: 'ui://upstream/view' } }, inputSchema: { type: 'object' } };
    expect(withoutOwnViews(tool, OURS)).toBe(tool);
    expect(withoutOwnViews('text', OURS)).toBe('text');
    expect(withoutOwnViews(null, OURS)).toBe(null);
  });
});
