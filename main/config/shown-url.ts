import { looksLikeToken } from './sections/gateway.js';

/**
 * An upstream's URL as it may be printed (`config check`, `gateway list`, the log): some
 * services put the key in the path (`https://mcp.example.com/s/<key>/mcp`), so a path segment
 * or query value that looks like one is shown as `<redacted>`. The config file keeps it as
 * written; config check warns about it (secretInUrl).
 */
export function shownUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return '<not a URL>';
  }
  const path = url.pathname
    .split('/')
    .map((segment) => (looksSecret(decodeSafely(segment)) ? '<redacted>' : segment))
    .join('/');
  const query = [...url.searchParams].map(([key, item]) => `${key}=${looksSecret(item) ? '<redacted>' : encodeURIComponent(item)}`).join('&');
  return `${url.origin}${path}${query ? `?${query}` : ''}`;
}

/** Whether the URL's path or query holds what looks like a key (then it is printed redacted). */
export function secretInUrl(value: string): boolean {
  return urlSecrets(value).length > 0;
}

/** What of the URL looks like a key, as written and decoded: the gateway scrubs these like resolved secrets. */
export function urlSecrets(value: string): string[] {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return [];
  }
  const found = new Set<string>();
  for (const segment of url.pathname.split('/')) if (looksSecret(decodeSafely(segment))) found.add(segment).add(decodeSafely(segment));
  for (const [, item] of url.searchParams) if (looksSecret(item)) found.add(item);
  return [...found];
}

/**
 * A known token's shape, or a long run of letters and digits mixed (20 or more, as generated
 * keys are; words, versions and short ids are not).
 */
function looksSecret(text: string): boolean {
  if (looksLikeToken(text)) return true;
  return text.length >= 20 && /^[A-Za-z0-9_\-.~+=]+$/.test(text) && /[0-9]/.test(text) && /[A-Za-z]/.test(text);
}

function decodeSafely(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
