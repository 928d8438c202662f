/** browser.open: an http(s) URL in the OS default browser, within the owner's URL patterns. */
import * as z from 'zod';
import { MAX_URL_LENGTH } from '../../policy/url-policy.js';
import { defineTool } from '../tool.js';
import { GRANT } from '../../policy/grants.js';

export const browserOpen = defineTool({
  name: 'browser.open',
  title: 'Open a URL in the browser',
  description:
    'Opens an http or https URL in the default web browser of the computer. Other schemes (file:, javascript:, data:, custom app links) and URLs ' +
    'with user:password are refused; when the owner set desktop.browserUrls patterns, the URL must match one of them.',
  input: z.object({ url: z.string().min(1).max(MAX_URL_LENGTH).describe('An absolute http:// or https:// URL') }),
  output: z.object({ url: z.string().describe('The normalized URL that was opened') }),
  annotations: Object.freeze({ readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true }),
  grant: GRANT.browser,
  // Host only: paths and queries can carry tokens.
  target: (args) => ({ host: hostOf(args.url) }),
  async run(args, { adapter, policy }) {
    const url = policy.urls.check(args.url);
    await adapter.browser.openUrl(url);
    return { structured: { url }, text: `Opened ${url} in the default browser.` };
  },
});

export const browserTools = [browserOpen];

function hostOf(raw: string): string {
  try {
    return new URL(raw).host;
  } catch {
    return '(invalid)';
  }
}
