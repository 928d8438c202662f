/**
 * A stdio MCP server in a child process, driven the way most hosts drive one: the v1 SDK
 * Client (legacy initialize) over StdioClientTransport. Its stderr is kept (last 4 KiB) only
 * to explain a failure.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { processCpuMs } from './cpu.mjs';

/**
 * `env` is added to the SDK's default environment; `cpu.children` counts the server's exited
 * children too; `maxBufferSize` raises the client's 10 MiB limit on one message; `clientName` is
 * the clientInfo name (a server may shape its answers for the host it names).
 */
export async function startStdioClient(label, command, args, cwd, env = {}, cpu = {}, maxBufferSize = undefined, clientName = 'chatgpt-mcp-bench') {
  const transport = new StdioClientTransport({ command, args, cwd, env, stderr: 'pipe', maxBufferSize });
  let stderr = '';
  transport.stderr?.on('data', (chunk) => {
    stderr = (stderr + chunk.toString()).slice(-4096);
  });
  const client = new Client({ name: clientName, version: '1.0.0' });
  try {
    await client.connect(transport);
  } catch (error) {
    throw new Error(`${label}: could not connect over stdio: ${error.message}\n${stderr}`, { cause: error });
  }
  return {
    client,
    pid: transport.pid,
    /** The server process's CPU time so far (ms), or null where it cannot be read. */
    cpuMs: () => (transport.pid ? processCpuMs(transport.pid, cpu) : null),
    /** One call; throws on a tool error so no failed call is ever timed as a success. */
    async call(name, args) {
      const result = await client.callTool({ name, arguments: args });
      if (result.isError) throw new Error(`${label}: ${name} failed: ${JSON.stringify(result.content).slice(0, 300)}\n${stderr}`);
      return result;
    },
    close: () => client.close(),
  };
}

/** A sequential (concurrency 1) runner for interleave(): calls until the deadline or maxCalls. */
export function sequentialRunner(session, name, args, maxCalls) {
  return alternatingRunner(session, name, [args], maxCalls);
}

/** Like sequentialRunner, cycling through `argsList` (an edit and the edit that undoes it). */
export function alternatingRunner(session, name, argsList, maxCalls) {
  let next = 0;
  return async (durationMs) => {
    const latencies = [];
    const cpu0 = session.cpuMs();
    const started = performance.now();
    const deadline = started + durationMs;
    while (latencies.length < maxCalls && performance.now() < deadline) {
      const t0 = performance.now();
      await session.call(name, argsList[next++ % argsList.length]);
      latencies.push(performance.now() - t0);
    }
    const elapsedMs = performance.now() - started;
    const cpu1 = session.cpuMs();
    return { latencies, elapsedMs, cpuMs: cpu0 === null || cpu1 === null ? null : cpu1 - cpu0 };
  };
}
