/**
 * The upstream the gateway scenario puts behind the gateway and calls directly: a v1 SDK stdio
 * server (how most owners' servers are written) with a tool that does nothing, so what is
 * measured is the hop, not the work, and one that works for 2 ms.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

const server = new McpServer({ name: 'noop-upstream', version: '1.0.0' });
server.registerTool('noop', { description: 'Does nothing.', inputSchema: {}, annotations: { readOnlyHint: true } }, async () => ({
  content: [{ type: 'text', text: 'ok' }],
}));
// A tool with real work (2 ms of CPU): the hop's fixed cost against a call that does something.
server.registerTool('busy', { description: 'Spins for 2 ms.', inputSchema: {}, annotations: { readOnlyHint: true } }, async () => {
  const until = performance.now() + 2;
  while (performance.now() < until);
  return { content: [{ type: 'text', text: 'done' }] };
});
await server.connect(new StdioServerTransport());
