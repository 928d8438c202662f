/**
 * `chatgpt-mcp version --check`: the latest release's version from its update metadata (the
 * `version:` line of latest-*.yml, as electron-updater reads it), compared with this one. Only
 * when asked: the headless server never looks on its own.
 */
import semver from 'semver';

export interface LatestRelease {
  latest: string;
  current: string;
  newer: boolean;
  /** The release's page, for the owner to read before updating. */
  page: string | null;
}

/** Metadata larger than this is not update metadata. */
const MAX_FEED_BYTES = 64 * 1024;
const TIMEOUT_MS = 15_000;

export class VersionCheckError extends Error {
  override readonly name = 'VersionCheckError';
}

export async function checkLatest(feed: string, current: string, fetchImpl: typeof fetch = fetch): Promise<LatestRelease> {
  let response: Response;
  try {
    // No cookies, no credentials: a plain GET of public metadata.
    response = await fetchImpl(feed, { redirect: 'follow', credentials: 'omit', signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
    throw new VersionCheckError(`cannot reach ${feed} (${cause}): check the connection or proxy`);
  }
  if (!response.ok) throw new VersionCheckError(`${feed} answered HTTP ${response.status}: no release metadata there`);
  const text = await boundedText(response, feed);
  const latest = /^version:\s*['"]?([0-9]+\.[0-9]+\.[0-9]+(?:-[0-9A-Za-z.-]+)?)['"]?\s*$/m.exec(text)?.[1];
  if (!latest) throw new VersionCheckError(`${feed} holds no "version:" line: it is not release metadata`);
  const page = feed.includes('/releases/latest/download/') ? feed.replace(/\/latest\/download\/[^/]+$/, `/tag/v${latest}`) : null;
  return { latest, current, newer: semver.gt(latest, current), page };
}

async function boundedText(response: Response, feed: string): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > MAX_FEED_BYTES) throw new VersionCheckError(`${feed} is ${declared} bytes: too large for release metadata`);
  const text = await response.text();
  if (Buffer.byteLength(text) > MAX_FEED_BYTES) throw new VersionCheckError(`${feed} is too large for release metadata`);
  return text;
}
