/**
 * computer.batch against the round trips it saves: one batch of 10 input.move steps against the
 * same 10 moves as 10 input.move calls, on a real X display (Xvfb), over stdio and over HTTP,
 * the built CLI as the server both ways. One "call" of either side is the 10 moves; the ratio is
 * wall time (the point of a batch is the round trips a model waits for; CPU is in the JSON).
 * Over loopback a round trip costs about a millisecond; through a tunnel it is far more, so the
 * ratio here is the least a batch saves.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { BATCH_OF_TEN } from '../lib/goals.mjs';
import { interleave } from '../lib/rounds.mjs';
import { startStdioClient } from '../lib/stdio-client.mjs';
import { treeCpuMs } from '../lib/tree-cpu.mjs';
import { missingXvfb, startXDisplay } from '../lib/x-display.mjs';
import { REPO } from '../lib/peers.mjs';

const STEPS = 10;
const POINTS = Array.from({ length: STEPS }, (_, i) => ({ x: 200 + i * 40, y: 300 + (i % 3) * 30 }));
const MAX_UNITS_PER_ROUND = 500;
const ID = (transport) => `desktop computer.batch ${STEPS} moves vs ${STEPS} calls ${transport}`;

export async function desktopBatchScenario({ ours: oursModule, timing, wanted, progress }) {
  const transports = ['stdio', 'http'].filter((t) => wanted(ID(t)));
  if (transports.length === 0) return [];
  const missing = missingXvfb();
  if (missing) return transports.map((t) => ({ id: ID(t), tool: 'computer.batch', skipped: missing }));
  progress('desktop batch: starting Xvfb 1280x800');
  const x = await startXDisplay({ width: 1280, height: 800 });
  const rows = [];
  try {
    const env = { DISPLAY: x.display, HOME: x.home };
    for (const transport of transports) {
      const configPath = path.join(x.home, `batch-${transport}.json`);
      const desktop = { hostDisplayAccess: true, screen: true, input: true };
      oursModule.writeStdioConfig(configPath, { desktop, server: { auth: 'none', logLevel: transport === 'http' ? 'info' : 'silent' } });
      const session = transport === 'stdio' ? await stdioSession(oursModule, configPath, env) : await httpSession(oursModule, configPath, env);
      try {
        progress(ID(transport));
        const batch = { steps: POINTS.map((p) => ({ action: 'move', ...p })) };
        const first = await session.call('computer.batch', batch);
        if (first.structuredContent?.completed !== STEPS)
          throw new Error(`computer.batch did not run its ${STEPS} steps: ${JSON.stringify(first.structuredContent).slice(0, 300)}`);
        const figures = await interleave({
          ours: runner(session, () => session.call('computer.batch', batch)),
          baseline: runner(session, async () => {
            for (const p of POINTS) await session.call('input.move', p);
          }),
          ...timing,
        });
        rows.push({
          id: ID(transport),
          tool: 'computer.batch',
          transport,
          protocol: '2025-11-25 (v1 client)',
          concurrency: 1,
          baselineName: `the same server, ${STEPS} input.move calls`,
          goal: BATCH_OF_TEN,
          judgedOn: 'time',
          ...figures,
        });
      } finally {
        await session.close();
      }
    }
  } finally {
    await x.stop();
  }
  return rows;
}

/** One unit (a batch, or the 10 single calls) per "call", until the round's deadline. */
function runner(session, unit) {
  return async (durationMs) => {
    const latencies = [];
    const cpu0 = session.cpuMs();
    const started = performance.now();
    while (latencies.length < MAX_UNITS_PER_ROUND && performance.now() < started + durationMs) {
      const t0 = performance.now();
      await unit();
      latencies.push(performance.now() - t0);
    }
    const cpu1 = session.cpuMs();
    return { latencies, elapsedMs: performance.now() - started, cpuMs: cpu0 === null || cpu1 === null ? null : cpu1 - cpu0 };
  };
}

async function stdioSession(oursModule, configPath, env) {
  const spawnOurs = oursModule.stdioCommand(configPath);
  const session = await startStdioClient(
    'ours (stdio)',
    'env',
    [...Object.entries(env).map(([k, v]) => `${k}=${v}`), spawnOurs.command, ...spawnOurs.args],
    REPO,
  );
  return { ...session, cpuMs: () => (session.pid ? treeCpuMs(session.pid) : null) };
}

/** The CLI over HTTP on a free loopback port, driven by the v1 client's Streamable HTTP transport. */
async function httpSession(oursModule, configPath, env) {
  const spawnOurs = oursModule.stdioCommand(configPath);
  const args = spawnOurs.args.map((a) => (a === '--stdio' ? '--http' : a));
  const child = spawn(spawnOurs.command, [...args, '--port', '0'], { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  const url = await new Promise((resolve, reject) => {
    let stderr = '';
    const timer = setTimeout(() => reject(new Error(`ours (http) did not start: ${stderr.slice(-500)}`)), 15_000);
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      const match = /"msg":"listening","url":"([^"]+)"/.exec(stderr);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('exit', (code) => reject(new Error(`ours (http) exited with ${code}: ${stderr.slice(-500)}`)));
  });
  const client = new Client({ name: 'chatgpt-mcp-bench', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return {
    cpuMs: () => treeCpuMs(child.pid),
    async call(name, args) {
      const result = await client.callTool({ name, arguments: args });
      if (result.isError) throw new Error(`ours (http): ${name} failed: ${JSON.stringify(result.content).slice(0, 300)}`);
      return result;
    },
    async close() {
      await client.close();
      child.kill('SIGTERM');
    },
  };
}
