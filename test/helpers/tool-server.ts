/** A real HTTP MCP server on 127.0.0.1:0 and a real 2026-07-28 client, for tool tests (the desktop app, browser and service tools by default; pass ALL_TOOLS or a family's list). */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { ComputerAdapter } from '../../adapter/contract/computer-adapter.js';
import { localAdapter } from './adapter.js';
import { configSchema, type ConfigInput } from '../../main/config/schema.js';
import { silentLogger } from '../../main/log.js';
import { startHttpServer } from '../../main/mcp/http.js';
import { createServerFactory } from '../../main/mcp/server.js';
import type { ToolDefinition } from '../../main/mcp/tool.js';
import { appClose, appLaunch } from '../../main/mcp/tools/app.js';
import { browserOpen } from '../../main/mcp/tools/browser.js';
import { serviceControl, serviceStatus } from '../../main/mcp/tools/service.js';
import { systemInfo } from '../../main/mcp/tools/system.js';

export const DESKTOP_APP_TOOLS = [systemInfo, appLaunch, appClose, browserOpen, serviceStatus, serviceControl] as unknown as ToolDefinition[];

export interface TestServer {
  client: Client;
  call(name: string, args?: Record<string, unknown>): Promise<{ isError: boolean; text: string; structured: Record<string, unknown> | undefined }>;
  toolNames(): Promise<string[]>;
  close(): Promise<void>;
}

export async function startTestServer(
  config: ConfigInput,
  adapter: ComputerAdapter = localAdapter(),
  tools: readonly ToolDefinition[] = DESKTOP_APP_TOOLS,
): Promise<TestServer> {
  const parsed = configSchema.parse({ ...config, server: { auth: 'none', toolNames: 'dotted', ...config.server, port: 0 } });
  const factory = createServerFactory({ config: parsed, adapter, logger: silentLogger, tools });
  const http = await startHttpServer({ config: parsed, factory, logger: silentLogger });
  const client = new Client({ name: 'desktop-apps-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new StreamableHTTPClientTransport(new URL(http.url)));
  return {
    client,
    async call(name, args = {}) {
      const result = await client.callTool({ name, arguments: args });
      const content = (result.content ?? []) as Array<{ type: string; text?: string }>;
      const text = content
        .filter((c) => c.type === 'text')
        .map((c) => c.text ?? '')
        .join('\n');
      return { isError: result.isError === true, text, structured: result.structuredContent as Record<string, unknown> | undefined };
    },
    async toolNames() {
      return (await client.listTools()).tools.map((t) => t.name).sort();
    },
    async close() {
      await client.close();
      await http.close();
    },
  };
}
