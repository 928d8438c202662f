/** What the owner is shown as the place an app's code goes ("Returns to"), from its redirect URI. */
import { describe, expect, it } from 'vitest';
import { hostOf } from '../../main/auth/owner-actions.js';

describe('hostOf', () => {
  it.each([
    ['https://chatgpt.com/connector_platform_oauth_redirect', 'chatgpt.com'],
    ['http://127.0.0.1:8123/callback', '127.0.0.1:8123'],
    // An app's own scheme stays in view: it is not the web site whose name follows it.
    ['com.evil.app://chatgpt.com/cb', 'com.evil.app://chatgpt.com'],
    ['cursor://anysphere.cursor-mcp/oauth/callback', 'cursor://anysphere.cursor-mcp'],
    ['myapp:/callback', 'myapp://'],
    ['not a uri', 'not a uri'],
  ])('%s shows as %s', (uri, shown) => expect(hostOf(uri)).toBe(shown));
});
