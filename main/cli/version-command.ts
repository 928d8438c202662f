/**
 * `chatgpt-mcp version [--check] [--feed URL]`: this version, and on request the latest
 * release's (main/updates/). The headless server never looks by itself.
 */
import { checkLatest, VersionCheckError } from '../updates/version-check.js';
import { releaseFeed } from '../updates/release-feed.js';
import { VERSION } from '../version.js';
import { EXIT, print, say } from './io.js';

export async function versionCommand(check: boolean, feed: string | undefined): Promise<number> {
  if (!check) return print(VERSION);
  const url = feed ?? releaseFeed();
  if (!url) {
    say(`this build (${VERSION}) names no repository its releases come from (package.json "repository"): pass --feed URL of a latest-*.yml`);
    return EXIT.config;
  }
  if (!/^https:\/\//.test(url) && !/^http:\/\/(127\.0\.0\.1|localhost|\[::1\])[:/]/.test(url)) {
    say(`--feed ${url}: release metadata is read over https (plain http only from this computer)`);
    return EXIT.usage;
  }
  try {
    const release = await checkLatest(url, VERSION);
    if (!release.newer) return print(`${VERSION} is the latest release (${release.latest} at ${url})`);
    return print(`${release.latest} is available (this is ${VERSION})${release.page ? `: ${release.page}` : ''}`);
  } catch (error) {
    if (!(error instanceof VersionCheckError)) throw error;
    say(`cannot check for a newer release: ${error.message}`);
    return EXIT.listen;
  }
}
