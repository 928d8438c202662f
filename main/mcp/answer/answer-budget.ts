/**
 * The answer budget: every tool's result sized for a model's context, in one place, for built-in
 * and gateway tools alike (`fitAnswer` takes any CallToolResult). What does not fit is cut in the
 * middle, head and tail kept, with a marker saying how much was left out and the answer.more call
 * that reads it back from the answer store; nothing is lost while the store keeps it.
 *
 * Two shapes (docs/TOOLS.md, "What the model reads"): "both" for hosts that show the model either
 * the text or structuredContent (each fits the budget on its own), "text" for hosts that show it
 * both (ChatGPT): the payload fields, which the text renders in full, leave structuredContent, and
 * the two together fit the budget.
 */
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { AnswerStore } from './answer-store.js';
import { imageBlockTokens } from './image-tokens.js';
import { bigParts, pathText, setAt, withoutPaths, type BigPart } from './json-parts.js';
import { asIs, cutMiddle, jsonEscaped, lineCount, type Measure } from './text-cut.js';
import { tokenCounterNow, type TokenCounter } from './token-count.js';

export type AnswerShape = 'both' | 'text';

export interface FitOptions {
  /** Tokens the model may read of this answer. */
  budget: number;
  shape: AnswerShape;
  /** Dotted paths of structuredContent members the text block renders in full ("content", "stdout.text"). */
  payload?: readonly string[];
  store: AnswerStore;
  /** answer.more as the client calls it. */
  moreTool: string;
  /** The structuredContent member that says which arrays were shortened, when the output schema has one. */
  noteField?: string;
}

/** What the server fixes for every call: where the rest is kept, how to read it, the default budget. */
export type ServerFit = Pick<FitOptions, 'store' | 'moreTool' | 'budget'>;

type Content = CallToolResult['content'];
type Structured = Record<string, unknown> | undefined;
interface Channel {
  content?: Content;
  structured?: Structured;
}

/** Tokens kept back for each cut's marker and for counting pieces apart rather than together. */
const MARKER_TOKENS = 64;
const ATTEMPTS = 3;

export async function fitAnswer(result: CallToolResult, options: FitOptions): Promise<CallToolResult> {
  const original = result.structuredContent as Structured;
  if (options.budget === Infinity && (options.shape === 'both' || !options.payload?.length)) return result;
  if (original && mirrorsStructured(result.content, original)) return fitMirror(result, original, options);
  const structured = options.shape === 'text' && original && options.payload?.length ? withoutPaths(original, options.payload) : original;
  const channels: Channel[] =
    options.shape === 'text' || structured === undefined ? [{ content: result.content, structured }] : [{ content: result.content }, { structured }];
  if (channels.every((channel) => roughTokens(channel) <= options.budget))
    return structured === original ? result : { ...result, structuredContent: structured };
  const counter = tokenCounterNow();
  const fitted = channels.map((channel) => fitChannel(channel, options, counter));
  const content = fitted.find((c) => c.content)?.content ?? result.content;
  const fittedStructured = fitted.find((c) => c.structured)?.structured;
  return { ...result, content, ...(fittedStructured ? { structuredContent: fittedStructured } : {}) };
}

/** One text block that is structuredContent's JSON (as OpenAI specifies search and fetch, and as the MCP spec suggests). */
function mirrorsStructured(content: Content, structured: Record<string, unknown>): boolean {
  const only = content.length === 1 ? content[0] : undefined;
  return only?.type === 'text' && only.text.startsWith('{') && only.text === JSON.stringify(structured);
}

/**
 * Cut the structured result and write its JSON again, so the text stays the JSON it was (a cut
 * in the middle of the text would leave no JSON at all); a host showing both pays for both.
 */
function fitMirror(result: CallToolResult, structured: Record<string, unknown>, options: FitOptions): CallToolResult {
  const budget = options.shape === 'text' ? Math.floor(options.budget / 2) : options.budget;
  if (roughTokens({ structured }) <= budget) return result;
  const fitted = fitChannel({ structured }, { ...options, budget }, tokenCounterNow()).structured!;
  return { ...result, content: [{ type: 'text', text: JSON.stringify(fitted) }], structuredContent: fitted };
}

/** An upper bound without the encoding: UTF-8 bytes (a token is at least one), images by their rule. */
function roughTokens({ content, structured }: Channel): number {
  let total = structured ? Buffer.byteLength(JSON.stringify(structured)) : 0;
  for (const block of content ?? []) total += block.type === 'text' ? Buffer.byteLength(block.text) : fixedTokens(block, undefined);
  return total;
}

/** A block the budget does not cut: images by their rule, anything else as its JSON. */
function fixedTokens(block: Content[number], counter: TokenCounter | undefined): number {
  if (block.type === 'image') return imageBlockTokens(block.data);
  const json = JSON.stringify(block);
  return counter ? counter.count(json) : Buffer.byteLength(json);
}

/** A piece that can be cut, with its tokens (more than the budget when it is that big: counting stops there). */
interface Piece {
  tokens: number;
  cut(share: number, keep: Kept): { value: unknown; note?: string };
  /** Where it goes: a text block's index, or a path in structuredContent. */
  at: { block: number } | { path: BigPart['path'] };
}
type Kept = (text: string, start: number, end: number) => string | null;

function fitChannel(channel: Channel, options: FitOptions, counter: TokenCounter): Channel {
  const limit = options.budget + 1;
  const pieces: Piece[] = [];
  let fixed = 0;
  (channel.content ?? []).forEach((block, i) => {
    if (block.type !== 'text') fixed += fixedTokens(block, counter);
    else pieces.push(stringPiece(block.text, asIs, counter, limit, { block: i }, options));
  });
  if (channel.structured) {
    const parts = bigParts(channel.structured);
    for (const part of parts)
      pieces.push(
        typeof part.value === 'string'
          ? stringPiece(part.value, jsonEscaped, counter, limit, { path: part.path }, options)
          : arrayPiece(part, counter, limit, options),
      );
    const hollow = parts.reduce((at, part) => setAt(at, part.path, typeof part.value === 'string' ? '' : []), channel.structured);
    fixed += counter.count(JSON.stringify(hollow));
  }
  if (fixed + pieces.reduce((sum, p) => sum + p.tokens, 0) <= options.budget) return channel;
  let slack = 0;
  let last: { channel: Channel; ids: string[] } | undefined;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    if (last) for (const id of last.ids) options.store.delete(id);
    const available = Math.max(0, options.budget - fixed - slack - MARKER_TOKENS * pieces.length);
    last = applyCuts(
      channel,
      pieces,
      waterFill(
        pieces.map((p) => p.tokens),
        available,
      ),
      options,
    );
    const over = channelTokens(last.channel, counter) - options.budget;
    if (over <= 0) break;
    slack += over + Math.ceil(options.budget / 20);
  }
  return last!.channel;
}

function applyCuts(channel: Channel, pieces: Piece[], shares: number[], options: FitOptions): { channel: Channel; ids: string[] } {
  const ids: string[] = [];
  const keep: Kept = (text, start, end) => {
    const id = options.store.put({ text, start, end });
    if (id) ids.push(id);
    return id;
  };
  const content = channel.content ? [...channel.content] : undefined;
  let structured = channel.structured;
  const notes: string[] = [];
  pieces.forEach((piece, i) => {
    if (shares[i]! >= piece.tokens) return;
    const { value, note } = piece.cut(shares[i]!, keep);
    if (note) notes.push(note);
    if ('block' in piece.at) content![piece.at.block] = { type: 'text', text: value as string };
    else structured = setAt(structured, piece.at.path, value);
  });
  if (structured && notes.length && options.noteField) structured = { ...structured, [options.noteField]: notes.join('\n') };
  return { channel: { ...(content ? { content } : {}), ...(channel.structured ? { structured } : {}) }, ids };
}

function channelTokens({ content, structured }: Channel, counter: TokenCounter): number {
  let total = structured ? counter.count(JSON.stringify(structured)) : 0;
  for (const block of content ?? []) total += block.type === 'text' ? counter.count(block.text) : fixedTokens(block, counter);
  return total;
}

/** Shares of `available` tokens: small pieces keep all they need, the large ones split the rest evenly. */
export function waterFill(sizes: readonly number[], available: number): number[] {
  const order = sizes.map((_, i) => i).sort((a, b) => sizes[a]! - sizes[b]!);
  const shares = new Array<number>(sizes.length).fill(0);
  let left = available;
  order.forEach((i, n) => {
    const share = Math.min(sizes[i]!, Math.floor(left / (order.length - n)));
    shares[i] = share;
    left -= share;
  });
  return shares;
}

function stringPiece(text: string, measure: Measure, counter: TokenCounter, limit: number, at: Piece['at'], options: FitOptions): Piece {
  const tokens = counter.within(measure(text), limit);
  return {
    tokens: tokens === false ? limit : tokens,
    at,
    cut(share, keep) {
      const { headEnd, tailStart } = cutMiddle(text, share, counter, measure);
      const id = keep(text, headEnd, tailStart);
      const marker = elisionMarker(text, headEnd, tailStart, id, options.moreTool);
      const before = headEnd === 0 || text[headEnd - 1] === '\n' ? '' : '\n';
      return { value: `${text.slice(0, headEnd)}${before}${marker}\n${text.slice(tailStart)}` };
    },
  };
}

function arrayPiece(part: BigPart, counter: TokenCounter, limit: number, options: FitOptions): Piece {
  const items = part.value as unknown[];
  const tokens = counter.within(JSON.stringify(items), limit);
  return {
    tokens: tokens === false ? limit : tokens,
    at: { path: part.path },
    cut(share, keep) {
      let used = 2;
      let shown = 0;
      for (; shown < items.length; shown++) {
        const cost = counter.within(JSON.stringify(items[shown]), share - used - 1);
        if (cost === false) break;
        used += cost + 1;
      }
      const rest = `${items
        .slice(shown)
        .map((item) => JSON.stringify(item))
        .join('\n')}\n`;
      const id = keep(rest, 0, rest.length);
      const left = items.length - shown;
      const where = id ? `${options.moreTool} {"id":"${id}"} reads them, one JSON item per line` : keptNothing();
      return {
        value: items.slice(0, shown),
        note: `${pathText(part.path)}: the first ${shown} of ${items.length} items; the other ${left} (${size(rest.length)}) were left out to fit the answer budget: ${where}.`,
      };
    },
  };
}

function elisionMarker(text: string, headEnd: number, tailStart: number, id: string | null, moreTool: string): string {
  const lines = lineCount(text, headEnd, tailStart);
  const first = lineCount(text, 0, headEnd) + (headEnd === 0 || text[headEnd - 1] === '\n' ? 1 : 0);
  const span = lines > 1 ? `lines ${digits(first)}-${digits(first + lines - 1)}` : `part of line ${digits(first)}`;
  const how = id ? `${moreTool} {"id":"${id}"} reads them` : keptNothing();
  return `[… ${digits(lines)} line${lines === 1 ? '' : 's'} / ${size(tailStart - headEnd)} elided (${span}) to fit the answer budget: ${how} …]`;
}

function keptNothing(): string {
  return 'too large to keep for reading back; narrow the call (a line range, a filter, fewer results) to see them';
}

/** 480 KB, 1.2 MB: characters, as a model gauges them. */
function size(chars: number): string {
  if (chars < 1024) return `${chars} characters`;
  if (chars < 1024 * 1024) return `${digits(Math.round(chars / 1024))} KB`;
  return `${(chars / (1024 * 1024)).toFixed(1)} MB`;
}

/** 12345 -> "12,345" (not toLocaleString: it loads ICU's locale data into the server). */
export function digits(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+$)/g, ',');
}
