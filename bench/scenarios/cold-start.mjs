/**
 * Scenario 2c: cold start, the wait every host that spawns a stdio server pays before the first
 * tool list: spawn, `initialize`, `notifications/initialized`, `tools/list`, until the answer to
 * tools/list arrives. Ours (the CLI with the scenario-2 config) against the bare-SDK stdio
 * server and the official server-filesystem, launched in turn (ours, bare, official, then the
 * next order) so drift lands on all three. Each figure is the median of the launches; the CPU
 * is the server's own until its answer.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { processCpuMs } from '../lib/cpu.mjs';
import { COLD_START, FASTER_THAN_OFFICIAL } from '../lib/goals.mjs';
import { median, percentile, round1, round3 } from '../lib/stats.mjs';
import { bareStdio, officialFs, REPO, stdioGrants } from '../lib/peers.mjs';

/** A launch that has not answered by then has failed (a cold start here takes well under a second). */
const ANSWER_TIMEOUT_MS = 15_000;

const IDS = { bare: 'cold start stdio vs bare SDK', official: 'cold start stdio vs server-filesystem' };

export async function coldStartScenario({ ours: oursModule, timing, wanted, progress }) {
  const peers = Object.keys(IDS).filter((peer) => wanted(IDS[peer]));
  if (peers.length === 0) return [];
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'chatgpt-mcp-bench-cold-')));
  try {
    const home = path.join(dir, 'home');
    fs.mkdirSync(home);
    const configPath = oursModule.writeStdioConfig(path.join(dir, 'bench-config.json'), stdioGrants(dir));
    const ours = oursModule.stdioCommand(configPath);
    const sides = {
      ours: [ours.command, ours.args],
      bare: bareStdio('system.info', 'fs.read', 'shell.exec'),
      official: officialFs(dir),
    };
    const order = ['ours', ...peers];
    // Two launches per round pair: as many launches as the latency rows have rounds, at least 8.
    const launches = Math.max(8, timing.pairs * 2);
    const env = { PATH: process.env.PATH ?? '', HOME: home, XDG_CONFIG_HOME: path.join(home, '.config') };
    progress(`cold start: ${launches} launches each of ${order.join(', ')}`);
    for (const side of order) await launch(side, ...sides[side], env); // warm the OS file cache; not counted
    const results = Object.fromEntries(order.map((side) => [side, []]));
    for (let i = 0; i < launches; i++) {
      const turn = i % 2 === 0 ? order : [...order].reverse();
      for (const side of turn) results[side].push(await launch(side, ...sides[side], env));
    }
    return peers.map((peer) =>
      startRow(IDS[peer], peer === 'bare' ? 'bare SDK' : 'server-filesystem', results.ours, results[peer], peer === 'bare' ? COLD_START : FASTER_THAN_OFFICIAL),
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** One launch: ms from spawn to the tools/list answer, and the server's CPU ms by then. */
function launch(label, command, args, env) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, args, { cwd: REPO, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(
      () => finish(new Error(`${label}: no tools/list answer within ${ANSWER_TIMEOUT_MS} ms\n${stderr.slice(-2000)}`)),
      ANSWER_TIMEOUT_MS,
    );
    const finish = (error, figures) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      child.once('close', () => (error ? reject(error) : resolve(figures)));
    };
    child.on('error', (error) => finish(error));
    child.stderr.on('data', (chunk) => (stderr = (stderr + chunk).slice(-4096)));
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      const answer = stdout.split('\n').find((line) => line.includes('"id":2'));
      if (!answer) return;
      const ms = performance.now() - started;
      const cpuMs = processCpuMs(child.pid);
      const tools = JSON.parse(answer).result?.tools;
      if (!Array.isArray(tools) || tools.length === 0) finish(new Error(`${label}: tools/list answered without tools: ${answer.slice(0, 300)}`));
      else finish(undefined, { ms, cpuMs });
    });
    const send = (message) => child.stdin.write(JSON.stringify({ jsonrpc: '2.0', ...message }) + '\n');
    send({
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'chatgpt-mcp-bench', version: '1.0.0' } },
    });
    send({ method: 'notifications/initialized' });
    send({ id: 2, method: 'tools/list' });
  });
}

function startRow(id, baselineName, ours, theirs, goal) {
  const side = (launches) => {
    const ms = launches.map((l) => l.ms).sort((a, b) => a - b);
    const cpu = launches.map((l) => l.cpuMs);
    return {
      launches: launches.length,
      p50Ms: round1(median(ms)),
      p99Ms: round1(percentile(ms, 99)),
      cpuMsPerStart: cpu.includes(null) ? null : round1(median(cpu)),
    };
  };
  const o = side(ours);
  const b = side(theirs);
  const timePairs = ours.map((l, i) => round3(l.ms / theirs[i].ms));
  const ratio = { time: round3(o.p50Ms / b.p50Ms), timePairs, cpu: o.cpuMsPerStart && b.cpuMsPerStart ? round3(o.cpuMsPerStart / b.cpuMsPerStart) : null };
  const cell = (s) => `${s.p50Ms} ms`;
  const detail = (s) => `p50 ${s.p50Ms} ms, max ${s.p99Ms} ms, CPU ${s.cpuMsPerStart ?? 'n/a'} ms`;
  return {
    id,
    tool: 'tools/list',
    transport: 'stdio',
    baselineName,
    kind: 'cold start',
    judgedOn: 'time',
    goal,
    ours: o,
    baseline: b,
    ratio,
    cells: {
      ours: cell(o),
      baseline: cell(b),
      detail: `pairs ${Math.min(...timePairs).toFixed(2)}-${Math.max(...timePairs).toFixed(2)}, CPU ${ratio.cpu === null ? 'n/a' : `${ratio.cpu.toFixed(2)}x`}`,
      oursSide: detail(o),
      baselineSide: detail(b),
    },
  };
}
