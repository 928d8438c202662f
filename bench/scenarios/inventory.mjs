/**
 * Scenario: system.ports through our stdio server (the v1 client, as hosts drive it) against
 * `ss -H -tulpn`, the tool an owner would run for the same answer (listening sockets with pid and
 * program, from the same /proc tables and fd walk). Linux only; wall time per call is compared
 * (ss is a fresh process each call, so its CPU is not one server's).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { NO_GOAL } from '../lib/goals.mjs';
import { interleave } from '../lib/rounds.mjs';
import { sequentialRunner, startStdioClient } from '../lib/stdio-client.mjs';
import { REPO } from '../lib/peers.mjs';

const ID = 'system.ports stdio vs ss -tulpn';
const MAX_CALLS_PER_ROUND = 2000;

function ssRunner(ss) {
  return async (durationMs) => {
    const latencies = [];
    const started = performance.now();
    while (latencies.length < MAX_CALLS_PER_ROUND && performance.now() < started + durationMs) {
      const t0 = performance.now();
      await new Promise((resolve, reject) => execFile(ss, ['-H', '-tulpn'], (error, out) => (error ? reject(error) : resolve(out))));
      latencies.push(performance.now() - t0);
    }
    return { latencies, elapsedMs: performance.now() - started, cpuMs: null };
  };
}

export async function inventoryScenario({ ours: oursModule, timing, wanted, progress }) {
  if (!wanted(ID)) return [];
  const ss = ['/usr/bin/ss', '/bin/ss', '/usr/sbin/ss'].find((p) => fs.existsSync(p));
  if (process.platform !== 'linux' || !ss) return [{ id: ID, skipped: 'Linux with ss(8) only' }];
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'chatgpt-mcp-bench-inventory-')));
  try {
    const configPath = oursModule.writeStdioConfig(path.join(dir, 'config.json'), { system: { inventory: true }, audit: { enabled: false } });
    const { command, args } = oursModule.stdioCommand(configPath);
    const session = await startStdioClient('ours (system.ports)', command, args, REPO, { XDG_CONFIG_HOME: dir });
    try {
      const first = await session.call('system.ports', {});
      if (first.isError) throw new Error(`system.ports failed: ${JSON.stringify(first.content)}`);
      progress(ID);
      const figures = await interleave({
        ours: sequentialRunner(session, 'system.ports', {}, MAX_CALLS_PER_ROUND),
        baseline: ssRunner(ss),
        ...timing,
      });
      return [
        {
          id: ID,
          tool: 'system.ports',
          transport: 'stdio',
          protocol: '2025-11-25 (v1 client)',
          concurrency: 1,
          baselineName: 'ss -H -tulpn (a new process per call)',
          goal: NO_GOAL,
          ...figures,
        },
      ];
    } finally {
      await session.close().catch(() => {});
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
