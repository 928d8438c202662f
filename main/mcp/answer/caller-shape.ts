/**
 * Which answer shape a caller gets (answer-budget.ts): "text" for the hosts known to show the
 * model both the text block and structuredContent, "both" for every other host, which shows one
 * of them and so must find the whole answer in either.
 *
 * Known to show both: ChatGPT (its MCP client calls itself "openai-mcp", in `clientInfo` and in
 * its User-Agent). Claude Code and VS Code show structuredContent alone when there is one; the
 * OpenAI Agents SDKs show the text alone unless told otherwise: "both" serves each of them once.
 */
import type { AnswerShape } from './answer-budget.js';

/** What a call says about who made it; each is optional (a stateless HTTP call has no clientInfo). */
export interface Caller {
  /** `clientInfo.name` from `initialize` or the request's envelope. */
  clientName?: string;
  /** The HTTP User-Agent. */
  userAgent?: string;
  /** The OAuth client's registered name. */
  authClient?: string | null;
}

const SHOWS_BOTH = [/^openai-mcp(\/|$)/i, /^chatgpt\b/i];

export function shapeFor(caller: Caller | undefined): AnswerShape {
  if (!caller) return 'both';
  const names = [caller.clientName, caller.userAgent, caller.authClient];
  return names.some((name) => name && SHOWS_BOTH.some((known) => known.test(name))) ? 'text' : 'both';
}
