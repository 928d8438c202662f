/**
 * Scenario 4: the coding tools, over stdio with the v1 client as in scenario 2.
 *
 * - fs.search over this repository's node_modules (a real tree: ~18,000 files, 370 MB) against
 *   running ripgrep directly on it with the same pattern and ignore rules, once with our server
 *   using ripgrep and once with only its built-in scanner (the server started without rg on its
 *   PATH). Both must report the same matching lines as ripgrep before anything is measured.
 * - fs.edit of one line in a 1 MiB file against the official server-filesystem's edit_file
 *   (the same work: read, replace, diff, atomic write), each call undoing the previous one.
 *
 * CPU is the server's own plus its reaped children's (the rg our server runs); for ripgrep
 * alone it is rg's, read from the bench process's children time.
 */
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { childrenCpuMs } from '../lib/cpu.mjs';
import { FASTER_THAN_OFFICIAL, NO_GOAL } from '../lib/goals.mjs';
import { interleave } from '../lib/rounds.mjs';
import { alternatingRunner, sequentialRunner, startStdioClient } from '../lib/stdio-client.mjs';
import { officialFs, REPO } from '../lib/peers.mjs';

const NODE_MODULES = path.join(REPO, 'node_modules');
/** A word that occurs on some 500 lines in some 200 files of node_modules: a search with an answer worth returning. */
const PATTERN = 'readFileSync';
const MAX_CALLS_PER_ROUND = 2000;
const MIB = 1024 * 1024;

export async function codingToolsScenario({ ours: oursModule, timing, wanted, progress }) {
  const ids = {
    rg: 'fs.search node_modules stdio vs rg',
    builtin: 'fs.search node_modules built-in stdio vs rg',
    edit: 'fs.edit 1 MiB stdio vs server-filesystem',
  };
  if (!Object.values(ids).some(wanted)) return [];
  const rows = [];
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'chatgpt-mcp-bench-')));
  const sessions = [];
  try {
    const rg = findRipgrep();
    const configPath = path.join(dir, 'bench-config.json');
    oursModule.writeStdioConfig(configPath, { filesystem: { write: true, roots: [{ path: NODE_MODULES, readOnly: true }, path.join(dir, 'edit')] } });
    const spawnOurs = oursModule.stdioCommand(configPath);

    for (const [key, engine] of [
      ['rg', 'ripgrep'],
      ['builtin', 'builtin'],
    ]) {
      const id = ids[key];
      if (!wanted(id)) continue;
      if (!rg) {
        rows.push({ id, tool: 'fs.search', skipped: 'ripgrep (rg) is not on the PATH (apt-get install ripgrep)' });
        continue;
      }
      // Without rg on its PATH the server uses its built-in scanner.
      const env = engine === 'builtin' ? { PATH: path.join(dir, 'no-programs-here') } : {};
      const ours = await startStdioClient(`ours (stdio, ${engine})`, spawnOurs.command, spawnOurs.args, REPO, env, { children: true });
      sessions.push(ours);
      const args = { path: NODE_MODULES, pattern: PATTERN, maxMatches: 1000, maxBytes: 1024 * 1024 };
      const expected = await ripgrepLines(rg.path);
      checkSearch(`ours fs.search (${engine})`, await ours.call('fs.search', args), engine, expected);
      progress(id);
      const figures = await interleave({
        ours: sequentialRunner(ours, 'fs.search', args, MAX_CALLS_PER_ROUND),
        baseline: ripgrepRunner(rg.path, MAX_CALLS_PER_ROUND),
        ...timing,
      });
      rows.push({
        id,
        tool: 'fs.search',
        transport: 'stdio',
        protocol: '2025-11-25 (v1 client)',
        concurrency: 1,
        matches: expected.size,
        engine,
        baselineName: `${rg.version} --json`,
        goal: NO_GOAL,
        ...figures,
      });
      await ours.close();
    }

    if (wanted(ids.edit)) rows.push(await editRow({ spawnOurs, dir, timing, progress, id: ids.edit, sessions }));
  } finally {
    for (const session of sessions) await session.close().catch(() => {});
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

/** fs.edit of one line in the middle of a 1 MiB file, against server-filesystem's edit_file; each call flips A <-> B. */
async function editRow({ spawnOurs, dir, timing, progress, id, sessions }) {
  const editDir = path.join(dir, 'edit');
  fs.mkdirSync(editDir);
  const line = 'The quick brown fox jumps over the lazy dog; 0123456789 ABCDEFGHIJ.\n';
  const half = line.repeat(Math.floor(MIB / 2 / line.length));
  const files = { ours: path.join(editDir, 'ours.txt'), theirs: path.join(editDir, 'theirs.txt') };
  const initial = `${half}const marker = 'MARKER-A';\n${half}`;
  for (const file of Object.values(files)) fs.writeFileSync(file, initial);
  const flip = (file) => [
    { path: file, edits: [{ oldText: "'MARKER-A'", newText: "'MARKER-B'" }] },
    { path: file, edits: [{ oldText: "'MARKER-B'", newText: "'MARKER-A'" }] },
  ];

  const ours = await startStdioClient('ours (stdio)', spawnOurs.command, spawnOurs.args, REPO);
  sessions.push(ours);
  const official = await startStdioClient('server-filesystem (stdio)', ...officialFs(editDir), REPO);
  sessions.push(official);

  // One checked round trip each: the file really changed, our hash is the file's, both return a diff.
  const mine = await ours.call('fs.edit', flip(files.ours)[0]);
  const after = fs.readFileSync(files.ours, 'utf8');
  if (
    !after.includes("'MARKER-B'") ||
    mine.structuredContent?.sha256 !== createHash('sha256').update(after).digest('hex') ||
    !mine.structuredContent?.diff?.includes("+const marker = 'MARKER-B';")
  )
    throw new Error(`ours fs.edit: unexpected result ${JSON.stringify(mine.structuredContent).slice(0, 300)}`);
  await ours.call('fs.edit', flip(files.ours)[1]);
  const theirs = await official.call('edit_file', flip(files.theirs)[0]);
  if (!fs.readFileSync(files.theirs, 'utf8').includes("'MARKER-B'") || !JSON.stringify(theirs.content).includes('MARKER-B'))
    throw new Error(`server-filesystem edit_file: unexpected result ${JSON.stringify(theirs.content).slice(0, 300)}`);
  await official.call('edit_file', flip(files.theirs)[1]);

  progress(id);
  const figures = await interleave({
    ours: alternatingRunner(ours, 'fs.edit', flip(files.ours), MAX_CALLS_PER_ROUND),
    baseline: alternatingRunner(official, 'edit_file', flip(files.theirs), MAX_CALLS_PER_ROUND),
    ...timing,
  });
  return {
    id,
    tool: 'fs.edit',
    transport: 'stdio',
    protocol: '2025-11-25 (v1 client)',
    concurrency: 1,
    bytes: initial.length,
    baselineName: 'server-filesystem edit_file',
    goal: FASTER_THAN_OFFICIAL,
    ...figures,
  };
}

/** The ripgrep fs.search runs, on the PATH the way the server finds it. */
function findRipgrep() {
  try {
    const found = execFileSync('sh', ['-c', 'command -v rg'], { encoding: 'utf8' }).trim();
    if (!found) return null;
    return { path: found, version: execFileSync(found, ['--version'], { encoding: 'utf8' }).split('\n')[0].trim() };
  } catch {
    return null;
  }
}

/** What a user would run: the same pattern and ignore rules as fs.search (no parent or global ignore files), JSON out. */
function ripgrepArgs() {
  return [
    '--json',
    '--no-config',
    '--no-ignore-parent',
    '--no-ignore-global',
    '--no-ignore-exclude',
    '--no-require-git',
    '--max-filesize=8388608',
    '--glob=!.git',
    '--fixed-strings',
    '--',
    PATTERN,
    '.',
  ];
}

function runRipgrep(rg) {
  return new Promise((resolve, reject) => {
    const child = spawn(rg, ripgrepArgs(), { cwd: NODE_MODULES, stdio: ['ignore', 'pipe', 'ignore'] });
    const chunks = [];
    child.stdout.on('data', (chunk) => chunks.push(chunk));
    child.once('error', reject);
    child.once('close', (code) => (code === 0 || code === 1 ? resolve(Buffer.concat(chunks).toString('utf8')) : reject(new Error(`rg exited with ${code}`))));
  });
}

/** Every matching line ripgrep reports, as "path:line", parsed from its JSON as a client would. */
async function ripgrepLines(rg) {
  const lines = new Set();
  for (const row of (await runRipgrep(rg)).split('\n')) {
    if (!row.startsWith('{"type":"match"')) continue;
    const { data } = JSON.parse(row);
    lines.add(`${data.path.text.replace(/^\.\//, '')}:${data.line_number}`);
  }
  return lines;
}

/** A runner for interleave(): ripgrep run to completion, its output parsed; CPU is rg's own (a reaped child of this process). */
function ripgrepRunner(rg, maxCalls) {
  return async (durationMs) => {
    const latencies = [];
    const cpu0 = childrenCpuMs();
    const started = performance.now();
    const deadline = started + durationMs;
    while (latencies.length < maxCalls && performance.now() < deadline) {
      const t0 = performance.now();
      const out = await runRipgrep(rg);
      for (const row of out.split('\n')) if (row.startsWith('{"type":"match"')) JSON.parse(row);
      latencies.push(performance.now() - t0);
    }
    const elapsedMs = performance.now() - started;
    const cpu1 = childrenCpuMs();
    return { latencies, elapsedMs, cpuMs: cpu0 === null || cpu1 === null ? null : cpu1 - cpu0 };
  };
}

function checkSearch(label, result, engine, expected) {
  const s = result.structuredContent ?? {};
  const got = new Set((s.matches ?? []).map((m) => `${m.path}:${m.line}`));
  const missing = [...expected].filter((x) => !got.has(x));
  const extra = [...got].filter((x) => !expected.has(x));
  if (s.engine !== engine || s.truncated !== false || missing.length || extra.length) {
    throw new Error(
      `${label}: expected ripgrep's ${expected.size} lines from the ${engine} engine, got ${got.size} (engine ${s.engine}, truncated ${s.truncated}; missing ${missing.slice(0, 5).join(' ')}; extra ${extra.slice(0, 5).join(' ')})`,
    );
  }
}
