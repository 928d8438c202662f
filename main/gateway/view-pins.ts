/**
 * An upstream's own MCP Apps views (`ui://` resources) are pinned with its prompts and templates
 * (catalog-pins.ts): a host renders a view's HTML and lets it call tools, so a page swapped after
 * the owner accepted the tool that points at it, or a wider CSP in its listing, is the same rug
 * pull as a changed tool. A view is pinned as its listing entry plus a hash of what a read of it
 * answers: the gateway reads each listed view once the upstream started, and compares every read
 * the host makes with what the owner accepted; a view that differs is held until accepted.
 */
import { createHash } from 'node:crypto';
import { canonicalJson } from '../canonical-json.js';

/** At most this many views of one upstream are read when it starts; one past them keeps what it read before (viewItems). */
export const MAX_VIEWS = 32;

/**
 * What a read of a view answered, as compared: the hash and size of the answer, and its page's
 * first lines for the owner to read in the difference; null when it could not be read.
 */
export type ViewContent = { sha256: string; bytes: number; page: string[] } | null;

/** How much of a page the owner is shown (and the pins file keeps): characters in all, in lines of at most LINE_CHARS. */
const PAGE_CHARS = 64 * 1024;
const LINE_CHARS = 160;

/** A pinned view: the listing entry and what it read as. */
export interface ViewItem extends Record<string, unknown> {
  uri: string;
  listed: Record<string, unknown>;
  content: ViewContent;
}

export function isViewUri(uri: string): boolean {
  return /^ui:\/\//i.test(uri);
}

/** A resources/read answer as a host gets it (the contents, their types and `_meta`, and the answer's own `_meta`), hashed whole. */
export function viewContent(read: unknown): ViewContent {
  const { contents, _meta } = (read ?? {}) as { contents?: unknown; _meta?: unknown };
  if (!Array.isArray(contents)) return null;
  const text = canonicalJson({ contents, _meta });
  return { sha256: createHash('sha256').update(text).digest('hex'), bytes: Buffer.byteLength(text), page: pageLines(contents) };
}

/**
 * The text of each content by lines (a blob as its size), a long line (minified script) wrapped
 * so a change in it shows as the piece it is in, cut past PAGE_CHARS with a line saying so.
 */
function pageLines(contents: unknown[]): string[] {
  const lines = contents.flatMap((content) => {
    const { text, blob } = (content ?? {}) as { text?: unknown; blob?: unknown };
    if (typeof text !== 'string') return [typeof blob === 'string' ? `(${blob.length} characters of base64)` : '(no text)'];
    return text.split('\n').flatMap((line) => (line.length <= LINE_CHARS ? [line] : (line.match(new RegExp(`[^]{1,${LINE_CHARS}}`, 'g')) ?? [])));
  });
  const shown: string[] = [];
  let chars = 0;
  for (const line of lines) {
    if (chars + line.length > PAGE_CHARS) {
      const left = lines.slice(shown.length).reduce((sum, rest) => sum + rest.length, 0);
      return [...shown, `… ${left} more characters not shown: a change in them shows only in sha256 and bytes`];
    }
    shown.push(line);
    chars += line.length;
  }
  return shown;
}

/**
 * The views among the listed resources, each with what its read answered; one not read at this
 * start (past MAX_VIEWS) keeps what it read as before (`earlier`), else null: a read compares it.
 */
export function viewItems(
  resources: ReadonlyArray<Record<string, unknown>>,
  reads: ReadonlyMap<string, ViewContent>,
  earlier: ReadonlyArray<Record<string, unknown>> = [],
): ViewItem[] {
  const before = new Map(earlier.map((view) => [String(view.uri), view.content as ViewContent]));
  // A URI listed twice is pinned as first listed; its other entries never go out (acceptedOnly).
  const first = new Map<string, Record<string, unknown>>();
  for (const resource of resources) if (isViewUri(String(resource.uri)) && !first.has(String(resource.uri))) first.set(String(resource.uri), resource);
  return [...first].map(([uri, listed]) => ({ uri, listed, content: reads.has(uri) ? reads.get(uri)! : (before.get(uri) ?? null) }));
}

/** Why a view read is refused while the owner has not accepted it as it reads now. */
export function heldViewMessage(upstream: string): string {
  return `differs from what the owner accepted, so it is held until the owner accepts it (the tray, or "chatgpt-mcp gateway show ${upstream}", then "gateway accept")`;
}
