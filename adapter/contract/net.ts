/**
 * Fetching one URL's body over the network. Every rule is the caller's: `nextUrl` vets the first
 * URL and each redirect, `pickAddress` the addresses a host resolved to; the implementation
 * connects only to the address it was handed (no second lookup), sends no cookies, credentials
 * or proxy, follows at most `maxRedirects`, and stops at `maxBytes`, `timeoutMs` and `stallMs`.
 */

export interface FetchOptions {
  /** The first URL (no base) or a redirect's Location (against the URL that sent it); throws to refuse. */
  nextUrl(location: string, base?: URL): URL;
  /** Of the addresses the URL's host resolved to, the one to connect to; throws to refuse. */
  pickAddress(url: URL, addresses: readonly string[]): string;
  maxRedirects: number;
  maxBytes: number;
  timeoutMs: number;
  stallMs: number;
  signal?: AbortSignal;
}

/** What the first bytes say the body is. */
export type BodyKind = 'text' | 'binary' | 'png' | 'jpeg' | 'gif' | 'webp' | 'heif' | 'pdf' | 'zip' | 'gzip' | 'elf' | 'html';

export interface FetchedBody {
  data: Uint8Array;
  sha256: string;
  /** The URL the body came from, after redirects. */
  finalUrl: string;
  /** Each redirect's target, in order. */
  redirects: string[];
  status: number;
  /** The Content-Type header, if any. */
  contentType?: string;
  sniffed: BodyKind;
}

export interface NetOps {
  fetchBody(url: string, options: FetchOptions): Promise<FetchedBody>;
}
