/**
 * fs.download: one URL's body saved into a writable root. The download policy vets the URL, every
 * redirect and every address the host resolves to (main/policy/download.ts); the filesystem
 * policy vets the target as for fs.write. The body is fetched whole first (capped by
 * download.maxBytes), then written atomically, so a failed download leaves no file behind.
 */
import * as z from 'zod';
import { downloadUrl, MAX_REDIRECTS, pickAddress, type DownloadRules } from '../../policy/download.js';
import { GRANT } from '../../policy/grants.js';
import { defineTool, OPEN_WORLD_DESTRUCTIVE } from '../tool.js';
import { exclusive, pathInput, writeOptions } from './fs-common.js';

export const fsDownload = defineTool({
  name: 'fs.download',
  title: 'Download a URL into a file',
  description:
    'Fetch one public https:// URL (http:// only if the owner allows) and save its body to a new file inside a writable root (overwrite: true replaces an existing file). ' +
    `Follows at most ${MAX_REDIRECTS} redirects; refuses private, loopback, link-local and cloud-metadata addresses, URLs with credentials, and bodies over the owner's size cap. ` +
    'Answers the saved size, sha256, the Content-Type header and what the first bytes say the file is (the body is saved exactly as sent, never decompressed), the final URL and the redirects.',
  input: z.object({
    url: z.string().min(1).describe('The https:// URL to fetch'),
    path: pathInput.describe('The file to create (absolute, or relative to the first allowed root)'),
    overwrite: z.boolean().default(false).describe('Replace the file if it exists'),
  }),
  output: z.object({
    path: z.string(),
    bytes: z.number(),
    sha256: z.string(),
    contentType: z.string().optional().describe('The Content-Type header, as the server sent it'),
    sniffed: z.string().describe('What the first bytes say: text, html, binary, png, jpeg, gif, webp, heif, pdf, zip, gzip, elf'),
    finalUrl: z.string(),
    redirects: z.array(z.string()),
  }),
  annotations: OPEN_WORLD_DESTRUCTIVE,
  grant: GRANT.download,
  // The activity view and audit log show the URL without its query, which may carry a signed token.
  target: (args) => ({ url: shownUrl(args.url), path: args.path }),
  async run(args, { adapter, policy, config }, signal) {
    const { download } = config;
    const rules: DownloadRules = { allowHttp: download.allowHttp, testLoopbackOrigin: download.testLoopbackOrigin };
    downloadUrl(args.url, rules); // a refused URL is refused before the target is looked at
    const file = await policy.filesystem.resolve(args.path, 'write', 'fs.download');
    const body = await adapter.net.fetchBody(args.url, {
      nextUrl: (location, base) => downloadUrl(location, rules, base),
      pickAddress: (url, addresses) => pickAddress(url, addresses, rules),
      maxRedirects: MAX_REDIRECTS,
      maxBytes: download.maxBytes,
      timeoutMs: download.timeoutMs,
      stallMs: download.stallMs,
      signal,
    });
    const options = { ...writeOptions(config, policy.sizes, signal), replace: args.overwrite };
    const written = await policy.fsLock.run([exclusive(file.path)], () => adapter.files.createFile(file, body.data, options));
    const structured = {
      path: file.path,
      bytes: written.bytesWritten,
      sha256: written.sha256,
      ...(body.contentType === undefined ? {} : { contentType: body.contentType }),
      sniffed: body.sniffed,
      finalUrl: body.finalUrl,
      redirects: body.redirects,
    };
    const via = body.redirects.length ? ` after ${body.redirects.length} redirect${body.redirects.length === 1 ? '' : 's'}` : '';
    const type = `${body.contentType ?? 'no Content-Type'}; first bytes: ${body.sniffed}`;
    return { structured, text: `Saved ${body.finalUrl}${via} to ${file.path}: ${written.bytesWritten} bytes (${type}), sha256 ${written.sha256}` };
  },
});

/** Scheme, host and path; a query is only marked (credentials are refused before any fetch). */
function shownUrl(raw: string): string {
  try {
    const url = new URL(raw);
    return `${url.protocol}//${url.host}${url.pathname}${url.search ? '?…' : ''}`;
  } catch {
    return raw.slice(0, 200);
  }
}

export const downloadTools = [fsDownload];
