/**
 * Cutting text to a number of tokens at line boundaries: the head and the tail of an answer that
 * is too long, and the pages that read the middle back. Each line is counted once, so a cut costs
 * about one pass over what it keeps, never over what it drops.
 */
import type { TokenCounter } from './token-count.js';

/** What a model reads of a piece of text: itself, or its JSON-escaped form inside a structured result. */
export type Measure = (text: string) => string;
export const asIs: Measure = (text) => text;
export const jsonEscaped: Measure = (text) => JSON.stringify(text).slice(1, -1);

/** A range that fits: [from, to) and the tokens it costs. */
export interface Fitted {
  to: number;
  tokens: number;
}

/**
 * The longest run of text from `from` (towards `limit`) within `tokens`: whole lines, or part of
 * a line when whole lines would fill less than half (one long line, minified code).
 */
export function fitForward(text: string, from: number, limit: number, tokens: number, counter: TokenCounter, measure: Measure = asIs): Fitted {
  let used = 0;
  let at = from;
  while (at < limit) {
    const newline = text.indexOf('\n', at);
    const lineEnd = newline === -1 || newline >= limit ? limit : newline + 1;
    const cost = counter.within(measure(text.slice(at, lineEnd)), tokens - used);
    if (cost !== false) {
      used += cost;
      at = lineEnd;
      continue;
    }
    if (used * 2 < tokens) {
      const part = fitChars(text.slice(at, lineEnd), tokens - used, counter, measure, 'start');
      return { to: at + part.chars, tokens: used + part.tokens };
    }
    break;
  }
  return { to: at, tokens: used };
}

/** The mirror of fitForward: the start of the longest run ending at `end` (not before `floor`) within `tokens`. */
export function fitBackward(text: string, floor: number, end: number, tokens: number, counter: TokenCounter, measure: Measure = asIs): Fitted {
  let used = 0;
  let at = end;
  while (at > floor) {
    const newline = at - 2 >= floor ? text.lastIndexOf('\n', at - 2) : -1;
    const lineStart = newline < floor ? floor : newline + 1;
    const cost = counter.within(measure(text.slice(lineStart, at)), tokens - used);
    if (cost !== false) {
      used += cost;
      at = lineStart;
      continue;
    }
    if (used * 2 < tokens) {
      const part = fitChars(text.slice(lineStart, at), tokens - used, counter, measure, 'end');
      return { to: at - part.chars, tokens: used + part.tokens };
    }
    break;
  }
  return { to: at, tokens: used };
}

/** The most characters from one end of `piece` within `tokens` (binary search; never splits a surrogate pair). */
function fitChars(piece: string, tokens: number, counter: TokenCounter, measure: Measure, side: 'start' | 'end'): { chars: number; tokens: number } {
  const take = (n: number) => (side === 'start' ? piece.slice(0, n) : piece.slice(piece.length - n));
  // A token is rarely more than 8 characters (long runs of one letter are, at most): no need to search all of a huge line.
  let lo = 0;
  let loTokens = 0;
  let hi = Math.min(piece.length, Math.max(1, tokens) * 8);
  while (lo < hi) {
    const mid = Math.floor((lo + hi + 1) / 2);
    const cost = counter.within(measure(take(mid)), tokens);
    if (cost === false) hi = mid - 1;
    else {
      lo = mid;
      loTokens = cost;
    }
  }
  const chars = whole(piece, lo, side);
  return { chars, tokens: chars === lo ? loTokens : counter.count(measure(take(chars))) };
}

/** `n` characters from one end, one fewer when the n-th would split a surrogate pair. */
function whole(piece: string, n: number, side: 'start' | 'end'): number {
  if (n <= 0 || n >= piece.length) return n;
  const at = side === 'start' ? n - 1 : piece.length - n;
  const code = piece.charCodeAt(at);
  const splits = side === 'start' ? code >= 0xd800 && code <= 0xdbff : code >= 0xdc00 && code <= 0xdfff;
  return splits ? n - 1 : n;
}

/** Head [0, headEnd) and tail [tailStart, length) of `text` that fit `tokens` together, half each (the head's unused half goes to the tail). */
export function cutMiddle(text: string, tokens: number, counter: TokenCounter, measure: Measure = asIs): { headEnd: number; tailStart: number } {
  const head = fitForward(text, 0, text.length, Math.floor(tokens / 2), counter, measure);
  const tail = fitBackward(text, head.to, text.length, tokens - head.tokens, counter, measure);
  return { headEnd: head.to, tailStart: Math.max(head.to, tail.to) };
}

/** Lines in text[from, to): newlines, plus one for a last line without one. */
export function lineCount(text: string, from: number, to: number): number {
  let lines = 0;
  for (let at = text.indexOf('\n', from); at !== -1 && at < to; at = text.indexOf('\n', at + 1)) lines++;
  return to > from && text[to - 1] !== '\n' ? lines + 1 : lines;
}
