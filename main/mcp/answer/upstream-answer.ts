/**
 * Another MCP server's answer, bounded before the answer budget cuts it. The budget cuts text;
 * it counts an image or an embedded resource as a whole and never cuts one, so an upstream could
 * still send two thousand images, a 6 MB one, 3 MB in an embedded resource or in `_meta`, or
 * twenty thousand text blocks (each cut on its own, with a marker each). Here:
 *
 * - an embedded resource's text becomes a text block (its URI first), which the budget cuts;
 * - more than MAX_TEXT_BLOCKS text blocks are joined into one;
 * - images, audio and other blocks are kept in order while they fit half the budget and
 *   MAX_BLOCK_BYTES in all; the rest are left out;
 * - a `_meta` larger than MAX_META_BYTES is left out, and so are a text block's fields besides its
 *   text (its `_meta`, `annotations`) and the answer's fields besides the known ones (`content`,
 *   `structuredContent`, `isError`, `_meta`) where they weigh more than that: the budget cuts
 *   neither;
 *
 * and a last text block says what was left out. Without a budget the answer is whole.
 */
import type { CallToolResult } from '@modelcontextprotocol/server';
import { imageBlockTokens } from './image-tokens.js';

type Content = CallToolResult['content'];
type Block = Content[number];

const MAX_TEXT_BLOCKS = 64;
/** What the non-text blocks of one answer may weigh together (base64 as sent). */
export const MAX_BLOCK_BYTES = 4 * 1024 * 1024;
export const MAX_META_BYTES = 16 * 1024;

export function boundUpstreamAnswer(result: CallToolResult, budget: number): CallToolResult {
  if (budget === Infinity) return result;
  const left: string[] = [];
  const original = result.content ?? [];
  let content = original.map(resourceAsText);
  const converted = content.some((block, i) => block !== original[i]);
  const texts = content.filter((block) => block.type === 'text').length;
  if (texts > MAX_TEXT_BLOCKS) content = joinTexts(content);
  const full = content;
  content = content.map((block) => (block.type === 'text' ? bareText(block) : block));
  const slimmed = content.filter((block, i) => block !== full[i]).length;
  let tokens = 0;
  let bytes = 0;
  let dropped = 0;
  const kept = content.filter((block) => {
    if (block.type === 'text') return true;
    const weight = JSON.stringify(block).length;
    const cost = block.type === 'image' ? imageBlockTokens(block.data) : weight;
    if (tokens + cost > budget / 2 || bytes + weight > MAX_BLOCK_BYTES) {
      dropped++;
      return false;
    }
    tokens += cost;
    bytes += weight;
    return true;
  });
  if (dropped > 0) left.push(`${dropped} of its ${content.length - texts} image, audio or resource blocks (they would not fit this answer's budget)`);
  if (texts > MAX_TEXT_BLOCKS) left.push(`its ${texts} text blocks were joined into one`);
  if (slimmed > 0) left.push(`the fields besides the text of ${slimmed} text block(s) (over ${MAX_META_BYTES / 1024} KiB)`);
  const { _meta, content: _content, structuredContent, isError, ...extra } = result;
  const metaTooBig = _meta !== undefined && JSON.stringify(_meta).length > MAX_META_BYTES;
  if (metaTooBig) left.push(`its _meta (over ${MAX_META_BYTES / 1024} KiB)`);
  const extraTooBig = Object.keys(extra).length > 0 && JSON.stringify(extra).length > MAX_META_BYTES;
  if (extraTooBig) left.push(`its fields ${Object.keys(extra).slice(0, 5).join(', ')} (over ${MAX_META_BYTES / 1024} KiB)`);
  if (left.length === 0 && !converted) return result;
  const note: Block[] = left.length ? [{ type: 'text', text: `[the gateway left out or changed: ${left.join('; ')}]` }] : [];
  return {
    ...(extraTooBig ? {} : extra),
    ...(structuredContent === undefined ? {} : { structuredContent }),
    ...(isError === undefined ? {} : { isError }),
    ...(metaTooBig || _meta === undefined ? {} : { _meta }),
    content: [...kept, ...note],
  };
}

/** A text block whose other fields weigh more than MAX_META_BYTES, as its text alone (the block itself otherwise). */
function bareText(block: Extract<Block, { type: 'text' }>): Block {
  const { type: _type, text, ...other } = block;
  if (Object.keys(other).length === 0 || JSON.stringify(other).length <= MAX_META_BYTES) return block;
  return { type: 'text', text };
}

/** An embedded text resource as a text block the budget can cut; anything else as it is. */
function resourceAsText(block: Block): Block {
  if (block.type !== 'resource' || typeof (block.resource as { text?: unknown }).text !== 'string') return block;
  const { uri, text } = block.resource as { uri: string; text: string };
  return { type: 'text', text: `[resource ${uri}]\n${text}` };
}

/** Every text block joined at the place of the first, the other blocks in their order. */
function joinTexts(content: Content): Content {
  const joined = content
    .filter((block) => block.type === 'text')
    .map((block) => (block as { text: string }).text)
    .join('\n');
  let placed = false;
  return content.flatMap((block): Block[] => {
    if (block.type !== 'text') return [block];
    if (placed) return [];
    placed = true;
    return [{ type: 'text', text: joined }];
  });
}
