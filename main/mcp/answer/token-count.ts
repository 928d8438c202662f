/**
 * Tokens as OpenAI's current models count them: the o200k_base encoding (GPT-4o, GPT-4.1, o-series,
 * GPT-5), through gpt-tokenizer. The encoding costs about half a second and 60 MiB of memory to
 * load, so it loads on the first answer that needs it: a token is at least one UTF-8 byte, so an
 * answer with no more bytes than its budget has tokens fits without counting, as most do.
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

let loading: Promise<TokenCounter> | undefined;

export function loadTokenCounter(): Promise<TokenCounter> {
  loading ??= import('gpt-tokenizer/encoding/o200k_base').then((encoding) => {
    encoding.setMergeCacheSize(MERGE_CACHE);
    return {
      count: (text) => (text ? encoding.countTokens(text, ORDINARY) : 0),
      within: (text, limit) => (text ? encoding.isWithinTokenLimit(text, limit, ORDINARY) : 0),
    };
  });
  return loading;
}

/** True when `text` certainly has at most `tokens` tokens, without loading the encoding. */
export function surelyWithin(text: string, tokens: number): boolean {
  // UTF-16 units need at most 3 UTF-8 bytes each (a surrogate pair 4 for 2), and never fewer than 1.
  if (text.length * 3 <= tokens) return true;
  return text.length <= tokens && Buffer.byteLength(text) <= tokens;
}
