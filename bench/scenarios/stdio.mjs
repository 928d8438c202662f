/**
 * Scenario 2b: over stdio, the way hosts spawn a server. Our CLI against a bare-SDK stdio server
 * doing the same work (bench/lib/bare-stdio-server.mjs) and against the official
 * @modelcontextprotocol/server-filesystem, all spawned and driven by the v1 client: fs.read of
 * 1 KiB and 1 MiB, shell.exec of `true` and `echo hello`, and each server's resident memory
 * when idle, right after those runs and once idle again. Ours runs twice (one copy per peer), so both copies have done
 * exactly the runs their peer did when their memory is compared.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AS_FAST_AS_OFFICIAL, FASTER_THAN_OFFICIAL, IDLE_MEMORY, MEMORY_AFTER_RUNS, NO_GOAL, WITHIN_BARE_STDIO } from '../lib/goals.mjs';
import { memoryRow, residentMiB } from '../lib/memory.mjs';
import { interleave } from '../lib/rounds.mjs';
import { sequentialRunner, startStdioClient } from '../lib/stdio-client.mjs';
import { checkExit, checkRead, KIB, MIB, writeTextFile } from '../lib/text-files.mjs';

const repo = new URL('../../', import.meta.url).pathname;
const OFFICIAL_FS = 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js';
const BARE_STDIO = new URL('../lib/bare-stdio-server.mjs', import.meta.url).pathname;
const MAX_CALLS_PER_ROUND = 5000;
/** Time for a server to finish start-up work before its idle memory is read. */
const SETTLE_MS = 1000;

const PEERS = {
  bare: { label: 'bare SDK', readTool: 'fs.read' },
  official: { label: 'server-filesystem', readTool: 'read_text_file' },
};

/** The latency rows, each against one peer; `goal` per issue 15. */
function latencyCases(files) {
  const [small, large] = files;
  return [
    { id: 'fs.read 1 KiB stdio vs bare SDK', peer: 'bare', read: small, goal: NO_GOAL },
    { id: 'fs.read 1 KiB stdio vs server-filesystem', peer: 'official', read: small, goal: AS_FAST_AS_OFFICIAL },
    { id: 'fs.read 1 MiB stdio vs bare SDK', peer: 'bare', read: large, goal: WITHIN_BARE_STDIO },
    { id: 'fs.read 1 MiB stdio vs server-filesystem', peer: 'official', read: large, goal: FASTER_THAN_OFFICIAL },
    { id: 'shell.exec true stdio vs bare SDK', peer: 'bare', exec: { command: 'true', args: [] }, stdout: '', goal: WITHIN_BARE_STDIO },
    { id: 'shell.exec echo hello stdio vs bare SDK', peer: 'bare', exec: { command: 'echo', args: ['hello'] }, stdout: 'hello\n', goal: WITHIN_BARE_STDIO },
  ];
}

const memoryIds = (peer) => ({
  idle: `idle RSS stdio vs ${PEERS[peer].label}`,
  after: `RSS after the latency runs stdio vs ${PEERS[peer].label}`,
  settled: `RSS 1 s after the latency runs stdio vs ${PEERS[peer].label}`,
});

export async function stdioScenario({ ours: oursModule, timing, wanted, progress }) {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'chatgpt-mcp-bench-stdio-')));
  const sessions = [];
  const rows = [];
  try {
    const files = [writeTextFile(dir, 'small.txt', KIB, { label: '1 KiB' }), writeTextFile(dir, 'large.txt', MIB, { label: '1 MiB' })];
    const cases = latencyCases(files);
    // The sandbox is off: scenario 5 measures it. The same grants as the HTTP rows, plus echo.
    const configPath = oursModule.writeStdioConfig(path.join(dir, 'bench-config.json'), {
      filesystem: { read: true, roots: [dir] },
      shell: { enabled: true, allowedCommands: ['true', 'echo'], sandbox: 'off' },
    });
    const spawnOurs = oursModule.stdioCommand(configPath);
    const spawnPeer = {
      bare: [process.execPath, [BARE_STDIO, 'system.info', 'fs.read', 'shell.exec']],
      official: [process.execPath, [OFFICIAL_FS, dir]],
    };

    for (const peer of Object.keys(PEERS)) {
      const todo = cases.filter((c) => c.peer === peer && wanted(c.id));
      const memory = memoryIds(peer);
      if (todo.length === 0 && !Object.values(memory).some(wanted)) continue;
      const { label, readTool } = PEERS[peer];
      const ours = await startStdioClient('ours (stdio)', spawnOurs.command, spawnOurs.args, repo, {}, { children: true });
      sessions.push(ours);
      const theirs = await startStdioClient(`${label} (stdio)`, ...spawnPeer[peer], repo, {}, { children: true });
      sessions.push(theirs);
      await Promise.all([ours.client.listTools(), theirs.client.listTools()]);
      await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
      const idle = { ours: residentMiB(ours.pid), theirs: residentMiB(theirs.pid) };

      for (const c of todo) {
        const [oursCall, theirsCall] = c.read
          ? [
              ['fs.read', { path: c.read.path }],
              [readTool, { path: c.read.path }],
            ]
          : [
              ['shell.exec', c.exec],
              ['shell.exec', c.exec],
            ];
        await checkFirst(c, ours, oursCall, theirs, theirsCall, label);
        progress(c.id);
        const figures = await interleave({
          ours: sequentialRunner(ours, ...oursCall, MAX_CALLS_PER_ROUND),
          baseline: sequentialRunner(theirs, ...theirsCall, MAX_CALLS_PER_ROUND),
          ...timing,
        });
        rows.push({
          id: c.id,
          tool: oursCall[0],
          transport: 'stdio',
          protocol: '2025-11-25 (v1 client)',
          concurrency: 1,
          ...(c.read ? { bytes: c.read.bytes } : { command: [c.exec.command, ...c.exec.args].join(' ') }),
          baselineName: label,
          cpuIncludesChildren: true,
          goal: c.goal,
          ...figures,
        });
      }

      const after = { ours: residentMiB(ours.pid), theirs: residentMiB(theirs.pid) };
      // Idle again, as long as before the idle reading: what stays resident between bursts of calls.
      await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
      const settled = { ours: residentMiB(ours.pid), theirs: residentMiB(theirs.pid) };
      if (![idle, after, settled].every((m) => m.ours && m.theirs)) {
        for (const id of Object.values(memory)) if (wanted(id)) rows.push({ id, skipped: 'resident memory is read from /proc (Linux only)' });
        continue;
      }
      const goals = peer === 'bare' ? { idle: IDLE_MEMORY, after: MEMORY_AFTER_RUNS } : { idle: NO_GOAL, after: NO_GOAL };
      if (wanted(memory.idle)) rows.push(memoryRow({ id: memory.idle, baselineName: label, ours: idle.ours, baseline: idle.theirs, goal: goals.idle }));
      const ran = todo.length ? `${label}, after ${todo.length} rows` : `${label}, no rows run`;
      for (const [id, figures] of [
        [memory.after, after],
        [memory.settled, settled],
      ]) {
        if (wanted(id)) rows.push(memoryRow({ id, baselineName: ran, ours: figures.ours, baseline: figures.theirs, goal: goals.after }));
      }
      await ours.close();
      await theirs.close();
    }
  } finally {
    for (const session of sessions) await session.close().catch(() => {});
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

/** One checked call on each side before measuring: the whole file back, or the command's exit 0 and output. */
async function checkFirst(c, ours, [oursTool, oursArgs], theirs, [theirsTool, theirsArgs], label) {
  const mine = await ours.call(oursTool, oursArgs);
  const other = await theirs.call(theirsTool, theirsArgs);
  if (c.exec) {
    checkExit(`ours ${c.id}`, mine, c.stdout);
    checkExit(`${label} ${c.id}`, other, c.stdout);
    return;
  }
  checkRead(`ours ${c.id}`, mine, c.read);
  if (theirsTool === 'fs.read') checkRead(`${label} ${c.id}`, other, c.read);
  else if (other.structuredContent?.content?.length !== c.read.bytes) throw new Error(`${label} ${theirsTool} ${c.read.label}: unexpected content length`);
}
