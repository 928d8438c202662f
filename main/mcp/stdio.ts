/**
 * stdio transport: the same factory as HTTP, one connection per process. stdout carries only
 * protocol messages; every diagnostic goes to the stderr logger.
 */
import type { McpServerFactory } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import type { Logger } from '../log.js';

export function startStdioServer(factory: McpServerFactory, logger: Logger): { close(): Promise<void> } {
  return serveStdio(factory, { onerror: (error) => logger.warn('stdio error', { error: error.message.slice(0, 200) }) });
}
