/** The baseline HTTP server: createMcpHandler + toNodeHandler on node:http, one McpServer with one tool per request. */
import http from 'node:http';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { bareMcpServer } from './bare-tools.mjs';

export async function startBareServer(tool) {
  const handler = createMcpHandler(() => bareMcpServer([tool]));
  const server = http.createServer(toNodeHandler(handler));
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  return {
    port: server.address().port,
    async close() {
      await new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await handler.close();
    },
  };
}
