/**
 * stdio transport: the same factory as HTTP, one connection per process, on our own wire (see
 * stdio-wire.ts for why). stdout carries only protocol messages; every diagnostic goes to the
 * stderr logger.
 */
import type { McpServerFactory } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import type { Logger } from '../log.js';
import { StdioWire, type DirectTools } from './stdio-wire.js';

export function startStdioServer(factory: McpServerFactory & { directTools?: DirectTools }, logger: Logger): { close(): Promise<void> } {
  return serveStdio(factory, {
    transport: new StdioWire(factory.directTools ?? new Map()),
    onerror: (error) => logger.warn('stdio error', { error: error.message.slice(0, 200) }),
  });
}
