/**
 * Which URLs browser.open may hand to the OS default browser: a policy object built once per
 * config (the owner's patterns are compiled once). Pure (no I/O), asked by the tool before the
 * adapter is called.
 *
 * Rules:
 * - http: and https: only. file:, javascript:, data:, vbscript:, about:, blob:, ftp: and custom
 *   schemes (ms-settings:, steam:, vscode:...) are refused: they run code, read local files or
 *   start arbitrary registered handlers.
 * - No user name or password in the URL: `https://trusted.com@evil.com/` is a classic deception,
 *   and the opener's argv (visible to every local user in `ps`) would carry the credential.
 * - At most MAX_URL_LENGTH characters.
 * - The URL opened is the WHATWG-normalized form (`new URL(raw).href`): spaces, quotes, `<`, `>`
 *   and control characters are percent-encoded, so the opener always receives one argument
 *   with no whitespace or quotes, starting with `http`.
 *
 * Owner patterns (`desktop.browserUrls`; an empty list allows any http(s) URL):
 *
 *   <scheme>://<host>[:<port>][<path>]
 *
 * - scheme: `http`, `https`, or `*` for either.
 * - host: an exact name (`example.com`), `*.example.com` (example.com AND any subdomain), or `*`
 *   (any host). Compared case-insensitively, internationalized names in their ASCII form.
 * - port: omitted = the scheme's default port only; `:8080` = that port; `:*` = any port.
 * - path: omitted = any path. Otherwise it must start with `/`, and `*` matches any run of
 *   characters (including `/` and `?`). It is matched against the URL's path plus query
 *   (`/docs/a?x=1`), never the fragment, in normalized (percent-encoded) form.
 *
 * Examples: `https://*.example.com/*`, `https://docs.python.org/3/*`, `http://localhost:*`.
 */
import { domainToASCII } from 'node:url';
import { adapterError } from '../../adapter/contract/errors.js';

export const MAX_URL_LENGTH = 4096;
const ALLOWED_SCHEMES = new Set(['http:', 'https:']);
const DEFAULT_PORTS: Record<string, string> = { 'http:': '80', 'https:': '443' };

export interface UrlPattern {
  source: string;
  schemes: ReadonlySet<string>;
  /** Lowercase ASCII host; `*` for any. */
  host: string;
  /** `host` also matches its subdomains (`*.example.com`). */
  subdomains: boolean;
  /** null = default port only; `*` = any. */
  port: string | null;
  /** null = any path. */
  path: RegExp | null;
}

export type UrlDecision = { ok: true; url: string } | { ok: false; reason: string };

const PATTERN = /^(\*|https?):\/\/(\*|(?:\*\.)?[^/:*?#]+)(?::(\*|\d{1,5}))?(\/.*)?$/i;

/** Parses one owner pattern; throws an Error whose message says what the syntax is. */
export function parseUrlPattern(source: string): UrlPattern {
  const match = PATTERN.exec(source.trim());
  if (!match) {
    throw new Error(`"${source}" is not a valid URL pattern (expected scheme://host[:port][/path], e.g. https://*.example.com/*)`);
  }
  const [, scheme, hostPart, port, path] = match;
  const subdomains = hostPart!.startsWith('*.');
  const rawHost = subdomains ? hostPart!.slice(2) : hostPart!;
  const host = rawHost === '*' ? '*' : domainToASCII(rawHost.toLowerCase());
  if (!host) throw new Error(`"${source}" has an invalid host "${rawHost}"`);
  if (port !== undefined && port !== '*' && Number(port) > 65535) throw new Error(`"${source}" has an invalid port ${port}`);
  const schemes = scheme === '*' ? new Set(['http:', 'https:']) : new Set([`${scheme!.toLowerCase()}:`]);
  return { source, schemes, host, subdomains, port: port ?? null, path: path === undefined ? null : globToRegExp(path) };
}

/** Parses the patterns once; invalid ones are reported, never silently treated as "allow". */
export function compileUrlPatterns(sources: readonly string[]): { patterns: UrlPattern[]; errors: string[] } {
  const patterns: UrlPattern[] = [];
  const errors: string[] = [];
  for (const source of sources) {
    try {
      patterns.push(parseUrlPattern(source));
    } catch (error) {
      errors.push((error as Error).message);
    }
  }
  return { patterns, errors };
}

export class UrlPolicy {
  private readonly patterns: UrlPattern[];
  private readonly errors: string[];
  /** No patterns: any http(s) URL. */
  private readonly anyUrl: boolean;

  constructor(sources: readonly string[]) {
    ({ patterns: this.patterns, errors: this.errors } = compileUrlPatterns(sources));
    this.anyUrl = sources.length === 0;
  }

  /** The normalized URL to open, or INVALID_INPUT saying why not and what is allowed. */
  check(raw: string): string {
    const decision = this.decide(raw);
    if (!decision.ok) throw adapterError('INVALID_INPUT', 'browser.open', decision.reason);
    return decision.url;
  }

  /** Decides whether `raw` may be opened under desktop.browserUrls. */
  decide(raw: string): UrlDecision {
    if (raw.length > MAX_URL_LENGTH) return deny(`the URL is ${raw.length} characters long; the limit is ${MAX_URL_LENGTH}`);
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return deny(`"${clip(raw)}" is not an absolute URL; give a full http:// or https:// URL`);
    }
    if (!ALLOWED_SCHEMES.has(url.protocol)) return deny(`the ${url.protocol} scheme is not allowed; only http and https URLs can be opened`);
    if (url.username || url.password) return deny('URLs with a user name or password (user:pass@host) are not allowed; remove the credentials');
    if (!url.hostname) return deny('the URL has no host');
    const href = url.href;
    // WHATWG serialization percent-encodes these; keep the guarantee explicit for the opener.
    if (/[\s"]/.test(href)) return deny('the URL contains whitespace or quotes after normalization');

    if (this.anyUrl) return { ok: true, url: href };
    if (this.patterns.some((pattern) => matchesPattern(url, pattern))) return { ok: true, url: href };
    const broken = this.errors.length ? ` (ignored invalid patterns: ${this.errors.join('; ')})` : '';
    return deny(
      `${clip(href)} does not match desktop.browserUrls; allowed patterns: ${this.patterns.map((p) => p.source).join(', ') || 'none valid'}${broken}`,
    );
  }
}

export function matchesPattern(url: URL, pattern: UrlPattern): boolean {
  if (!pattern.schemes.has(url.protocol)) return false;
  const host = url.hostname.toLowerCase();
  if (pattern.host !== '*') {
    const hostOk = host === pattern.host || (pattern.subdomains && host.endsWith(`.${pattern.host}`));
    if (!hostOk) return false;
  }
  const port = url.port || DEFAULT_PORTS[url.protocol]!;
  if (pattern.port === null ? port !== DEFAULT_PORTS[url.protocol] : pattern.port !== '*' && pattern.port !== port) return false;
  return pattern.path === null || pattern.path.test(url.pathname + url.search);
}

function globToRegExp(glob: string): RegExp {
  const body = glob
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${body}$`);
}

function deny(reason: string): UrlDecision {
  return { ok: false, reason };
}

function clip(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}...` : text;
}
