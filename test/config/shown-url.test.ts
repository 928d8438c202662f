/**
 * An upstream URL as it is printed: path segments and query values that look like keys are
 * redacted (a known token shape, or 20+ characters mixing letters and digits); words, versions,
 * short ids stay; what is redacted is also what the gateway scrubs.
 */
import { describe, expect, it } from 'vitest';
import { secretInUrl, shownUrl, urlSecrets } from '../../main/config/shown-url.js';

describe('shownUrl', () => {
  it('redacts what looks like a key in the path or query, and nothing else', () => {
    expect(shownUrl('https://mcp.example.com/v1/mcp')).toBe('https://mcp.example.com/v1/mcp');
    expect(shownUrl('https://mcp.example.com/api/mcp/s/sk-proj-abcdefghijklmnopqrstuv/mcp')).toBe('https://mcp.example.com/api/mcp/s/<redacted>/mcp');
    expect(shownUrl('https://h.example/mcp/ghp_abcdefghijklmnopqrstuvwxyz0123')).toBe('https://h.example/mcp/<redacted>');
    expect(shownUrl('https://h.example/mcp?workspace=1f0e2d3c4b5a69788796a5b4c3d2e1f0&lang=en')).toBe('https://h.example/mcp?workspace=<redacted>&lang=en');
    // Long words without digits, and short ids, are not keys.
    expect(shownUrl('https://h.example/servers/documentation-search-service/42')).toBe('https://h.example/servers/documentation-search-service/42');
    expect(shownUrl('not a url')).toBe('<not a URL>');
  });

  it('names the same parts for the scrubber, as written and decoded', () => {
    const url = 'https://h.example/s/abc%2Bdef0123456789ghijklmn/mcp';
    expect(secretInUrl(url)).toBe(true);
    expect(urlSecrets(url).sort()).toEqual(['abc%2Bdef0123456789ghijklmn', 'abc+def0123456789ghijklmn']);
    expect(secretInUrl('https://h.example/mcp')).toBe(false);
  });
});
