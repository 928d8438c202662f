/**
 * Scenario 4: what the command sandbox costs. shell.exec of `true` over HTTP on our server with
 * the sandbox (shell.sandbox "workspace", bubblewrap, network off: the Linux default) against the
 * same server with shell.sandbox "off", in the same run, interleaved. The cost is mostly outside
 * the server process (bwrap sets up the namespaces and mounts in the child), so CPU here is the
 * server's own plus that of the children it waited for: the whole cost of a call on this machine.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { childrenCpuMs, ownCpuMs } from '../lib/cpu.mjs';
import { SANDBOX_COST } from '../lib/goals.mjs';
import { compareHttp } from '../lib/http-compare.mjs';
import { captureCall } from '../lib/request-shapes.mjs';
import { verifyCall } from '../lib/verify.mjs';

const IDS = [1, 10].map((concurrency) => ({ concurrency, id: `sandbox shell.exec true http c=${concurrency}` }));

export async function sandboxScenario({ ours: oursModule, load, timing, wanted, progress }) {
  const todo = IDS.filter(({ id }) => wanted(id));
  if (todo.length === 0) return [];
  if (process.platform !== 'linux' || childrenCpuMs() === null) {
    return todo.map(({ id }) => ({ id, tool: 'shell.exec', skipped: 'the bubblewrap sandbox is measured on Linux only' }));
  }
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'chatgpt-mcp-bench-sandbox-')));
  const servers = [];
  const rows = [];
  try {
    const config = (sandbox) => ({ filesystem: { read: true, roots: [dir] }, shell: { enabled: true, allowedCommands: ['true'], sandbox } });
    let sandboxed;
    try {
      sandboxed = await oursModule.startOurs(config('workspace'));
    } catch (error) {
      return todo.map(({ id }) => ({ id, tool: 'shell.exec', skipped: `no sandbox here: ${error.message}` }));
    }
    servers.push(sandboxed);
    const plain = await oursModule.startOurs(config('off'));
    servers.push(plain);
    const request = await captureCall('modern', `http://127.0.0.1:${sandboxed.port}/mcp`, 'shell.exec', { command: 'true', args: [] });
    for (const [label, server] of [
      ['sandboxed', sandboxed],
      ['unsandboxed', plain],
    ]) {
      const result = await verifyCall(`${label} shell.exec`, server.port, request);
      if (result.structuredContent?.exitCode !== 0) throw new Error(`${label} shell.exec true: ${JSON.stringify(result.structuredContent).slice(0, 300)}`);
    }
    const treeCpuMs = () => ownCpuMs() + childrenCpuMs();
    for (const { concurrency, id } of todo) {
      progress(id);
      const figures = await compareHttp({ load, oursPort: sandboxed.port, baselinePort: plain.port, request, concurrency, timing, cpuMs: treeCpuMs });
      rows.push({
        id,
        tool: 'shell.exec',
        transport: 'http',
        protocol: '2026-07-28',
        concurrency,
        baselineName: 'same server, shell.sandbox off',
        cpuIncludesChildren: true,
        oursTools: sandboxed.tools,
        goal: SANDBOX_COST,
        ...figures,
      });
    }
  } finally {
    for (const server of servers) await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}
