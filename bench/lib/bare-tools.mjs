/**
 * The baseline tools: the same operations as ours, written the shortest way the SDK allows,
 * with no policy, no adapter, no logging. Their names, schemas and result shapes mirror the
 * public contract (docs TOOLS.md) so both servers get byte-identical requests and return
 * results of the same size, and the ratio measures what our layers add. Schemas are built
 * once at module level, as the SDK notes advise.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod';

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

/** Same shape as ours' capability summary, fixed once: the baseline has no policy to summarize. */
const CAPABILITIES = {
  tools: ['system.info'],
  filesystem: { read: true, write: false, roots: [], maxReadBytes: 1048576, maxWriteBytes: 4194304 },
  shell: { enabled: false, allowedCommands: [], maxRuntimeMs: 120000, maxOutputBytes: 1048576 },
  process: { list: false, kill: false },
  desktop: { hostDisplayAccess: false, screen: false, input: false, browser: false, apps: [] },
  services: { allowed: [], control: false },
};

const systemInfoOutput = z.object({
  hostname: z.string(),
  platform: z.string(),
  arch: z.string(),
  release: z.string(),
  uptimeSeconds: z.number(),
  cwd: z.string(),
  nodeVersion: z.string(),
  serverVersion: z.string(),
  capabilities: z.object({
    tools: z.array(z.string()),
    filesystem: z.object({
      read: z.boolean(),
      write: z.boolean(),
      roots: z.array(z.object({ path: z.string(), readOnly: z.boolean() })),
      maxReadBytes: z.number(),
      maxWriteBytes: z.number(),
    }),
    shell: z.object({ enabled: z.boolean(), allowedCommands: z.array(z.string()), maxRuntimeMs: z.number(), maxOutputBytes: z.number() }),
    process: z.object({ list: z.boolean(), kill: z.boolean() }),
    desktop: z.object({ hostDisplayAccess: z.boolean(), screen: z.boolean(), input: z.boolean(), browser: z.boolean(), apps: z.array(z.string()) }),
    services: z.object({ allowed: z.array(z.string()), control: z.boolean() }),
  }),
});

export const bareSystemInfo = {
  name: 'system.info',
  config: {
    title: 'System information',
    description: 'Basic facts about the computer.',
    inputSchema: z.object({}),
    outputSchema: systemInfoOutput,
    annotations: READ_ONLY,
  },
  async handler() {
    const structured = {
      hostname: os.hostname(),
      platform: process.platform,
      arch: process.arch,
      release: os.release(),
      uptimeSeconds: Math.round(os.uptime()),
      cwd: process.cwd(),
      nodeVersion: process.version,
      serverVersion: '0.0.0',
      capabilities: CAPABILITIES,
    };
    const text = `${structured.hostname} (${structured.platform} ${structured.arch}, ${structured.release}). Enabled: system.info.`;
    return { content: [{ type: 'text', text }], structuredContent: structured };
  },
};

export const bareFsRead = {
  name: 'fs.read',
  config: {
    title: 'Read a text file',
    description: 'Read a UTF-8 text file.',
    inputSchema: z.object({ path: z.string(), maxBytes: z.number().int().positive().optional() }),
    outputSchema: z.object({ path: z.string(), content: z.string(), bytes: z.number(), totalBytes: z.number(), truncated: z.boolean(), sha256: z.string() }),
    annotations: READ_ONLY,
  },
  async handler({ path }) {
    const data = await readFile(path);
    const content = data.toString('utf8');
    const sha256 = createHash('sha256').update(data).digest('hex');
    const structured = { path, content, bytes: data.length, totalBytes: data.length, truncated: false, sha256 };
    return { content: [{ type: 'text', text: content }], structuredContent: structured };
  },
};

export const bareShellExec = {
  name: 'shell.exec',
  config: {
    title: 'Run a command',
    description: 'Run one executable with arguments, without a shell.',
    inputSchema: z.object({ command: z.string(), args: z.array(z.string()).optional() }),
    outputSchema: z.object({
      exitCode: z.number().nullable(),
      signal: z.string().nullable(),
      stdout: z.string(),
      stderr: z.string(),
      durationMs: z.number(),
      timedOut: z.boolean(),
      stdoutTruncated: z.boolean(),
      stderrTruncated: z.boolean(),
    }),
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  },
  async handler({ command, args = [] }) {
    const started = performance.now();
    const { exitCode, signal, stdout, stderr } = await run(command, args);
    const structured = {
      exitCode,
      signal,
      stdout,
      stderr,
      durationMs: Math.round(performance.now() - started),
      timedOut: false,
      stdoutTruncated: false,
      stderrTruncated: false,
    };
    return { content: [{ type: 'text', text: `exit ${exitCode}\n${stdout}${stderr}` }], structuredContent: structured };
  },
};

function run(command, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { shell: false, stdio: ['ignore', 'pipe', 'pipe'] });
    const out = [];
    const err = [];
    child.stdout.on('data', (chunk) => out.push(chunk));
    child.stderr.on('data', (chunk) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (exitCode, signal) =>
      resolve({ exitCode, signal, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') }),
    );
  });
}

/** A fresh McpServer with `tools` registered, nothing else: what the bare baselines serve per request. */
export function bareMcpServer(tools) {
  const server = new McpServer({ name: 'bare-baseline', version: '0.0.0' }, { capabilities: { tools: {} } });
  for (const tool of tools) server.registerTool(tool.name, tool.config, tool.handler);
  return server;
}
