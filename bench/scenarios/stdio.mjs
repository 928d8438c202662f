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
import { memoryRow, residentMiB, settle } from '../lib/memory.mjs';
import { interleave } from '../lib/rounds.mjs';
import { sequentialRunner, startStdioClient } from '../lib/stdio-client.mjs';
import { checkExit, checkRead, KIB, MIB, writeTextFile } from '../lib/text-files.mjs';
import { bareStdio, officialFs, REPO, stdioGrants } from '../lib/peers.mjs';

const MAX_CALLS_PER_ROUND = 5000;

const PEERS = {
  bare: { label: 'bare SDK', readTool: 'fs.read' },
  official: { label: 'server-filesystem', readTool: 'read_text_file' },
};

/** The latency rows, each against one peer; `goal` as bench/README.md states it. */
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
  const rows = [];
  try {
    const files = [writeTextFile(dir, 'small.txt', KIB, { label: '1 KiB' }), writeTextFile(dir, 'large.txt', MIB, { label: '1 MiB' })];
    const cases = latencyCases(files);
    // Whole answers, as the peers give them: the answer budget's cost and savings are scenario 6's.
    const configPath = oursModule.writeStdioConfig(path.join(dir, 'bench-config.json'), { ...stdioGrants(dir), server: { answerBudgetTokens: 0 } });
    const spawnOurs = oursModule.stdioCommand(configPath);
    const spawnPeer = {
      bare: bareStdio('system.info', 'fs.read', 'shell.exec'),
      official: officialFs(dir),
    };

    for (const peer of Object.keys(PEERS)) {
      const todo = cases.filter((c) => c.peer === peer && wanted(c.id));
      const memory = memoryIds(peer);
      if (todo.length === 0 && !Object.values(memory).some(wanted)) continue;
      const ours = await startStdioClient('ours (stdio)', spawnOurs.command, spawnOurs.args, REPO, {}, { children: true });
      try {
        const theirs = await startStdioClient(`${PEERS[peer].label} (stdio)`, ...spawnPeer[peer], REPO, {}, { children: true });
        try {
          rows.push(...(await peerRows(peer, todo, memory, ours, theirs, { timing, wanted, progress })));
        } finally {
          await theirs.close().catch(() => {});
        }
      } finally {
        await ours.close().catch(() => {});
      }
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

/** One peer's latency rows and memory rows, against a fresh copy of ours. */
async function peerRows(peer, todo, memory, ours, theirs, { timing, wanted, progress }) {
  const { label, readTool } = PEERS[peer];
  const resident = () => ({ ours: residentMiB(ours.pid), theirs: residentMiB(theirs.pid) });
  const rows = [];
  await Promise.all([ours.client.listTools(), theirs.client.listTools()]);
  await settle();
  const idle = resident();

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

  const after = resident();
  // Idle again, as long as before the idle reading: what stays resident between bursts of calls.
  await settle();
  const settled = resident();
  if (![idle, after, settled].every((m) => m.ours && m.theirs)) {
    for (const id of Object.values(memory)) if (wanted(id)) rows.push({ id, skipped: 'resident memory is read from /proc (Linux only)' });
    return rows;
  }
  const goals = peer === 'bare' ? { idle: IDLE_MEMORY, after: MEMORY_AFTER_RUNS } : { idle: NO_GOAL, after: NO_GOAL };
  const ran = todo.length ? `${label}, after ${todo.length} rows` : `${label}, no rows run`;
  for (const [id, figures, baselineName, goal] of [
    [memory.idle, idle, label, goals.idle],
    [memory.after, after, ran, goals.after],
    [memory.settled, settled, ran, goals.after],
  ]) {
    if (wanted(id)) rows.push(memoryRow({ id, baselineName, ours: figures.ours, baseline: figures.theirs, goal }));
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
