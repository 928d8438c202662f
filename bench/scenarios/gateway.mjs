/**
 * Scenario 6: the gateway. The same client (the v1 SDK over stdio, how hosts drive a server)
 * calls a no-op upstream tool through our CLI's gateway (`noop_noop`, the upstream sandboxed as
 * by default) and the same upstream directly (`noop`), in alternating rounds: the CPU ratio is
 * our server's CPU per call (the hop: the upstream under it runs on and is not counted) against
 * the upstream's own; the time ratio is what the client waits. The floor under both: the same
 * call through a process that only pipes bytes (bench/lib/byte-pipe.mjs), counted the same way. Then the first call's cold start through a lazy upstream (our server already up: the
 * call starts the upstream in its sandbox) against spawning the upstream and making the call
 * directly; and the resident memory of one idle upstream through the gateway (its process tree:
 * bubblewrap and the server) against the same server run directly.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { memoryRow, residentMiB, settle } from '../lib/memory.mjs';
import { GATEWAY_COLD_START, GATEWAY_OVERHEAD, NO_GOAL } from '../lib/goals.mjs';
import { interleave } from '../lib/rounds.mjs';
import { median, round1, round3 } from '../lib/stats.mjs';
import { sequentialRunner, startStdioClient } from '../lib/stdio-client.mjs';
import { REPO } from '../lib/peers.mjs';

const UPSTREAM = path.join(REPO, 'bench/lib/noop-upstream.mjs');
const BYTE_PIPE = path.join(REPO, 'bench/lib/byte-pipe.mjs');
const MAX_CALLS_PER_ROUND = 5000;
const IDS = {
  call: 'gateway no-op call stdio vs the upstream directly',
  floor: 'a byte pipe (no gateway) no-op call stdio vs the upstream directly',
  busy: 'gateway 2 ms call stdio vs the upstream directly',
  cold: 'gateway first call (lazy start) vs spawn + call directly',
  memory: 'idle upstream RSS through the gateway vs directly',
};
const COLD_LAUNCHES = 6;

export async function gatewayScenario({ ours: oursModule, timing, wanted, progress }) {
  if (!Object.values(IDS).some(wanted)) return [];
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'chatgpt-mcp-bench-gateway-')));
  const home = path.join(dir, 'home');
  fs.mkdirSync(home);
  const env = { PATH: process.env.PATH ?? '', HOME: home, XDG_CONFIG_HOME: path.join(home, '.config') };
  const config = (start) =>
    oursModule.stdioCommand(
      oursModule.writeStdioConfig(path.join(dir, `gateway-${start}.json`), {
        gateway: { servers: [{ name: 'noop', command: process.execPath, args: [UPSTREAM], start, idleStopMs: 0 }] },
      }),
    );
  const rows = [];
  try {
    const atStart = config('at-start');
    if (wanted(IDS.floor)) rows.push(await bytePipeFloor(progress, timing));
    if (wanted(IDS.call) || wanted(IDS.busy) || wanted(IDS.memory)) {
      const ours = await startStdioClient('ours (gateway)', atStart.command, atStart.args, REPO, env, { children: true });
      const direct = await startStdioClient('upstream directly', process.execPath, [UPSTREAM], REPO, {}, { children: true });
      try {
        await ours.call('noop_noop', {});
        await direct.call('noop', {});
        if (wanted(IDS.memory)) {
          await settle();
          rows.push(
            memoryRow({
              id: IDS.memory,
              baselineName: 'the upstream directly',
              ours: upstreamTree(UPSTREAM, direct.pid),
              baseline: residentMiB(direct.pid),
              goal: NO_GOAL,
            }),
          );
        }
        for (const [id, tool, goal] of [
          [IDS.call, 'noop', GATEWAY_OVERHEAD],
          [IDS.busy, 'busy', NO_GOAL],
        ]) {
          if (!wanted(id)) continue;
          progress(id);
          const figures = await interleave({
            ours: sequentialRunner(ours, `noop_${tool}`, {}, MAX_CALLS_PER_ROUND),
            baseline: sequentialRunner(direct, tool, {}, MAX_CALLS_PER_ROUND),
            ...timing,
          });
          rows.push({
            id,
            tool,
            transport: 'stdio',
            protocol: '2025-11-25 (v1 client)',
            concurrency: 1,
            baselineName: 'the upstream directly',
            cpuIncludesChildren: true,
            goal,
            ...figures,
          });
        }
      } finally {
        await Promise.all([ours.close(), direct.close()]).catch(() => {});
      }
    }
    if (wanted(IDS.cold)) {
      progress(`${IDS.cold}: ${COLD_LAUNCHES} launches each`);
      rows.push(await coldStart(config('lazy'), env));
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

/** The same no-op call through a process that only pipes bytes: what one more process on the way costs, parsing nothing. */
async function bytePipeFloor(progress, timing) {
  progress(IDS.floor);
  const piped = await startStdioClient('a byte pipe', process.execPath, [BYTE_PIPE, process.execPath, UPSTREAM], REPO, {}, { children: true });
  const direct = await startStdioClient('upstream directly', process.execPath, [UPSTREAM], REPO, {}, { children: true });
  try {
    const figures = await interleave({
      ours: sequentialRunner(piped, 'noop', {}, MAX_CALLS_PER_ROUND),
      baseline: sequentialRunner(direct, 'noop', {}, MAX_CALLS_PER_ROUND),
      ...timing,
    });
    return {
      id: IDS.floor,
      tool: 'noop',
      transport: 'stdio',
      protocol: '2025-11-25 (v1 client)',
      concurrency: 1,
      baselineName: 'the upstream directly',
      cpuIncludesChildren: true,
      goal: NO_GOAL,
      ...figures,
    };
  } finally {
    await Promise.all([piped.close(), direct.close()]).catch(() => {});
  }
}

/** RSS of every process running the upstream except the direct one: bubblewrap and the server inside it. */
function upstreamTree(script, exclude) {
  let rss = 0;
  let peak = 0;
  for (const pid of fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    if (Number(pid) === exclude) continue;
    let cmdline;
    try {
      cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    if (!cmdline.includes(script)) continue;
    const figures = residentMiB(Number(pid));
    rss += figures?.rssMiB ?? 0;
    peak += figures?.peakMiB ?? 0;
  }
  return { rssMiB: round1(rss), peakMiB: round1(peak) };
}

/** Ours: the server is up and the upstream pinned but asleep; the first call starts it. Directly: spawn, connect, call. */
async function coldStart(lazy, env) {
  const warm = await startStdioClient('ours (pinning)', lazy.command, lazy.args, REPO, env);
  await warm.call('noop_noop', {});
  await warm.close();
  const sides = { ours: [], direct: [] };
  for (let i = 0; i < COLD_LAUNCHES; i++) {
    const ours = await startStdioClient('ours (lazy)', lazy.command, lazy.args, REPO, env);
    try {
      await ours.client.listTools();
      const t0 = performance.now();
      await ours.call('noop_noop', {});
      sides.ours.push(performance.now() - t0);
    } finally {
      await ours.close();
    }
    const t0 = performance.now();
    const direct = await startStdioClient('upstream directly', process.execPath, [UPSTREAM], REPO, {});
    await direct.call('noop', {});
    sides.direct.push(performance.now() - t0);
    await direct.close();
  }
  const o = round1(median(sides.ours));
  const b = round1(median(sides.direct));
  return {
    id: IDS.cold,
    tool: 'noop',
    transport: 'stdio',
    baselineName: 'spawn + connect + call',
    kind: 'cold start',
    judgedOn: 'time',
    goal: GATEWAY_COLD_START,
    ours: { launches: COLD_LAUNCHES, p50Ms: o },
    baseline: { launches: COLD_LAUNCHES, p50Ms: b },
    ratio: { time: round3(o / b), cpu: null },
    cells: { ours: `${o} ms`, baseline: `${b} ms`, detail: `${COLD_LAUNCHES} launches each, medians`, oursSide: `p50 ${o} ms`, baselineSide: `p50 ${b} ms` },
  };
}
