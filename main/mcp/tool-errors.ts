/**
 * Maps anything a tool handler throws to a concise MCP tool error whose text starts with the
 * stable code. Unknown errors are never echoed (they can carry paths, env or config values):
 * the model gets a generic OS_ERROR and the log gets the error's name and code only.
 */
import type { CallToolResult } from '@modelcontextprotocol/server';
import { isComputerAdapterError, type ErrorCode } from '../../adapter/contract/errors.js';

export interface MappedError {
  code: ErrorCode;
  result: CallToolResult;
}

export function mapToolError(error: unknown, tool: string, secrets: readonly string[]): MappedError {
  if (isComputerAdapterError(error)) {
    return { code: error.code, result: errorResult(`${error.code}: ${scrub(error.message, secrets)}`) };
  }
  return { code: 'OS_ERROR', result: errorResult(`OS_ERROR: ${tool} failed unexpectedly; the server log has the details`) };
}

export function errorResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/** Belt and braces: a secret that somehow reached a message is replaced before it leaves. */
function scrub(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret) out = out.split(secret).join('<redacted>');
  return out;
}
