#!/usr/bin/env node
/**
 * The baseline stdio server: the SDK's own serveStdio with a fresh McpServer per request and
 * the bare tools named on the command line (`node bare-stdio-server.mjs fs.read shell.exec`).
 * It is what "the bare SDK" means in the stdio rows: the same work as ours, no layers.
 */
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { bareFsRead, bareMcpServer, bareShellExec, bareSystemInfo } from './bare-tools.mjs';

const TOOLS = new Map([bareSystemInfo, bareFsRead, bareShellExec].map((tool) => [tool.name, tool]));
const names = process.argv.slice(2);
const unknown = names.filter((name) => !TOOLS.has(name));
if (names.length === 0 || unknown.length > 0) {
  process.stderr.write(`usage: bare-stdio-server.mjs TOOL...  (tools: ${[...TOOLS.keys()].join(', ')}; unknown: ${unknown.join(', ') || 'none'})\n`);
  process.exit(64);
}

serveStdio(() => bareMcpServer(names.map((name) => TOOLS.get(name))));
