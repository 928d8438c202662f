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

/** ChatGPT's MCP client, by clientInfo name or User-Agent ("openai-mcp/1.0.0"). */
const OPENAI_MCP = /^openai-mcp(\/|$)/i;
/** ChatGPT as an OAuth client registers itself by name ("ChatGPT"). */
const CHATGPT = /^chatgpt( |$)/i;

export function shapeFor(caller: Caller | undefined): AnswerShape {
  if (!caller) return 'both';
  const named = [caller.clientName, caller.userAgent].some((name) => name && OPENAI_MCP.test(name));
  return named || (caller.authClient && CHATGPT.test(caller.authClient)) ? 'text' : 'both';
}
