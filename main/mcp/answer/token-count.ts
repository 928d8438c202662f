/**
 * Tokens as OpenAI's current models count them: the o200k_base encoding (GPT-4o, GPT-4.1, o-series,
 * GPT-5), through gpt-tokenizer. The encoding costs about 0.4 s of CPU and 60 MiB of memory to
 * load, so it loads only once an answer needs it, and after that answer has gone: a token is at
 * least one UTF-8 byte, so an answer with no more bytes than its budget fits without counting (as
 * most do), and the first one that must be cut is cut counting a token per byte (an upper bound:
 * it comes out shorter, never over the budget) instead of waiting for the encoding.
 */

export interface TokenCounter {
  count(text: string): number;
  /** The count when it is at most `limit`, else false; stops counting past the limit. */
  within(text: string, limit: number): number | false;
}

/** Special-token text such as "<|endoftext|>" in a file is counted as the text it is, never refused. */
const ORDINARY = { disallowedSpecial: new Set<string>() };
/** The encoder caches merges per word; 100,000 by default is more memory than answers need. */
const MERGE_CACHE = 20_000;
/**
 * Text is encoded this many characters at a time: byte-pair encoding is superlinear in the length
 * of one word, and a 1 MB line of one letter would otherwise take minutes. A split inside a word
 * can only add a token, so a count stays an upper bound (about 1% over, on such text only).
 */
export const CHUNK_CHARS = 512;

let loading: Promise<TokenCounter> | undefined;
let loaded: TokenCounter | undefined;
let scheduled = false;
/** After this long, the answer that asked for the encoding has been written out. */
const LOAD_AFTER_MS = 100;

/** A token per UTF-8 byte: never fewer than the encoding counts. */
export const BYTE_COUNTER: TokenCounter = {
  count: (text) => Buffer.byteLength(text),
  within: (text, limit) => {
    const bytes = Buffer.byteLength(text);
    return bytes <= limit ? bytes : false;
  },
};

/** The encoding when it is loaded; else the byte count for now, with the encoding loading once this answer is out. */
export function tokenCounterNow(): TokenCounter {
  if (loaded) return loaded;
  if (!scheduled) {
    scheduled = true;
    setTimeout(() => void loadTokenCounter(), LOAD_AFTER_MS).unref();
  }
  return BYTE_COUNTER;
}

export function loadTokenCounter(): Promise<TokenCounter> {
  loading ??= import('gpt-tokenizer/encoding/o200k_base').then((encoding) => {
    encoding.setMergeCacheSize(MERGE_CACHE);
    const within = (text: string, limit: number): number | false => {
      let total = 0;
      for (let at = 0; at < text.length;) {
        const end = chunkEnd(text, at);
        const count = encoding.isWithinTokenLimit(text.slice(at, end), limit - total, ORDINARY);
        if (count === false) return false;
        total += count;
        at = end;
      }
      return total;
    };
    loaded = { within, count: (text) => within(text, Infinity) as number };
    return loaded;
  });
  return loading;
}

/** Where the chunk from `at` ends: before the last whitespace in its second half (a word keeps its leading space), else CHUNK_CHARS on (never inside a surrogate pair). */
function chunkEnd(text: string, at: number): number {
  const end = at + CHUNK_CHARS;
  if (end >= text.length) return text.length;
  for (let i = end; i > at + CHUNK_CHARS / 2; i--) if (text.charCodeAt(i - 1) <= 32) return i - 1;
  const code = text.charCodeAt(end - 1);
  return code >= 0xd800 && code <= 0xdbff ? end - 1 : end;
}

/** True when `text` certainly has at most `tokens` tokens, without loading the encoding. */
export function surelyWithin(text: string, tokens: number): boolean {
  // UTF-16 units need at most 3 UTF-8 bytes each (a surrogate pair 4 for 2), and never fewer than 1.
  if (text.length * 3 <= tokens) return true;
  return text.length <= tokens && Buffer.byteLength(text) <= tokens;
}
