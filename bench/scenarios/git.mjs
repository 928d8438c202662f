/**
 * Scenario 6: the git tools and the change journal, over stdio with the v1 client as in 2b.
 *
 * - git.status and git.diff of a 20,000-file repository (50 files changed, 10 untracked) against
 *   running git directly with the same arguments, from this process. Ours is the whole tool:
 *   the policy's look at the repository (git rev-parse and git config --list, reused while
 *   nothing they read has changed: adapter/git/probe-cache.ts), the command
 *   sandbox where the config has one (bubblewrap, the Linux default), git, the parsing and the
 *   protected-path filter. CPU is the server's plus its waited-for children's (git, bwrap);
 *   the baseline's is the git children's of this process.
 * - The checkpoint cost per fs.write of 64 KiB: the same server with undo on (the default)
 *   against undo.enabled false, in the same run. Two rows: rewriting one file (after its first
 *   change a group only stamps it), and a first change of an existing file on every call (its
 *   pre-image taken into the journal each time, by a hard link to the replaced inode: the most a
 *   checkpoint costs).
 */
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { childrenCpuMs } from '../lib/cpu.mjs';
import { replaceRunner } from '../lib/checkpoint-floor.mjs';
import { CHECKPOINT_COST, NO_GOAL, WITHIN_GIT } from '../lib/goals.mjs';
import { REPO } from '../lib/peers.mjs';
import { interleave } from '../lib/rounds.mjs';
import { alternatingRunner, startStdioClient } from '../lib/stdio-client.mjs';
import { KIB, textOfSize } from '../lib/text-files.mjs';

const FILES = 20_000;
const CHANGED = 50;
const WRITE_BYTES = 64 * KIB;
/** Calls per round: caps the first-change row's supply of untouched files. */
const MAX_CALLS_PER_ROUND = 100;
const IDS = {
  status: 'git.status 20000 files stdio vs git',
  diff: 'git.diff 20000 files stdio vs git',
  /** What the command sandbox adds (a bubblewrap start per git run): the same call with shell.sandbox "off". */
  statusUnsandboxed: 'git.status 20000 files stdio vs git (sandbox off)',
  rewrite: 'fs.write 64 KiB checkpoint (same file) vs undo off',
  first: 'fs.write 64 KiB checkpoint (first change each call) vs undo off',
  /** The first row's floor: the filesystem's own cost of keeping a replaced file (a hard link, no journal, no server). */
  floor: 'a 64 KiB replace keeping the old file (checkpoint floor) vs not',
};
/** The arguments adapter/git/read-ops.ts gives git. */
const STATUS_ARGS = ['--no-optional-locks', 'status', '--porcelain=v2', '--branch', '-z', '--ignore-submodules=all', '--'];
const DIFF_ARGS = [
  '--no-optional-locks',
  'diff',
  '--no-color',
  '--no-ext-diff',
  '--no-textconv',
  '--find-renames',
  '--raw',
  '--numstat',
  '--patch',
  '-z',
  '-U3',
  '--',
];

export async function gitScenario({ ours: oursModule, timing, wanted, progress }) {
  const ids = Object.values(IDS).filter(wanted);
  if (ids.length === 0) return [];
  if (process.platform !== 'linux' || childrenCpuMs() === null) return ids.map((id) => ({ id, tool: id.split(' ')[0], skipped: 'measured on Linux only' }));
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'chatgpt-mcp-bench-git-')));
  // The servers' app folder (where the journal lives) and git's HOME: never the real home.
  const home = path.join(dir, 'home');
  const env = { HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), GIT_CONFIG_NOSYSTEM: '1', LANG: 'C', LC_ALL: 'C' };
  fs.mkdirSync(home);
  fs.writeFileSync(path.join(home, '.gitconfig'), '[user]\n\tname = Bench\n\temail = bench@example.com\n[init]\n\tdefaultBranch = main\n');
  const sessions = [];
  const rows = [];
  const start = async (label, config) => {
    const spawn = oursModule.stdioCommand(oursModule.writeStdioConfig(path.join(dir, `${label}.json`), config));
    const session = await startStdioClient(label, spawn.command, spawn.args, REPO, env, { children: true });
    sessions.push(session);
    return session;
  };
  try {
    if (wanted(IDS.status) || wanted(IDS.diff) || wanted(IDS.statusUnsandboxed)) {
      const repo = path.join(dir, 'repo');
      progress(`git: making a ${FILES}-file repository`);
      makeRepository(repo, env);
      // Whole answers, as git gives them (the answer budget would elide files of the diff).
      const config = (sandbox) => ({ filesystem: { roots: [repo] }, git: { read: true }, shell: { sandbox }, server: { answerBudgetTokens: 0 } });
      const sandboxed = await start('ours-git', config('auto'));
      const status = { tool: 'git.status', args: { path: repo, maxEntries: 10_000 }, git: STATUS_ARGS, check: (s) => s.entries.length === CHANGED + 10 };
      const cases = [
        { id: IDS.status, ours: sandboxed, ...status },
        {
          id: IDS.diff,
          ours: sandboxed,
          tool: 'git.diff',
          args: { path: repo, maxBytes: 1024 * KIB },
          git: DIFF_ARGS,
          check: (s) => s.files.length === CHANGED && !s.truncated,
        },
        { id: IDS.statusUnsandboxed, ours: wanted(IDS.statusUnsandboxed) ? await start('ours-git-unsandboxed', config('off')) : null, ...status },
      ];
      for (const c of cases) {
        if (!wanted(c.id)) continue;
        const ours = c.ours;
        const answer = (await ours.call(c.tool, c.args)).structuredContent;
        if (!c.check(answer)) throw new Error(`${c.tool}: unexpected answer ${JSON.stringify(answer).slice(0, 300)}`);
        progress(c.id);
        const figures = await interleave({ ours: alternatingRunner(ours, c.tool, [c.args], 2000), baseline: gitRunner(repo, c.git, env), ...timing });
        rows.push(row(c.id, c.tool, `git ${c.git[1]} run directly`, WITHIN_GIT, figures));
      }
    }
    if (wanted(IDS.rewrite) || wanted(IDS.first)) {
      const work = path.join(dir, 'work');
      fs.mkdirSync(work);
      const config = (enabled) => ({ filesystem: { write: true, roots: [work] }, undo: { enabled } });
      const recording = await start('ours-undo-on', config(true));
      const plain = await start('ours-undo-off', config(false));
      const content = textOfSize(WRITE_BYTES);
      if (wanted(IDS.rewrite)) {
        progress(IDS.rewrite);
        const args = (side) => [{ path: path.join(work, `${side}.txt`), content }];
        const figures = await interleave({
          ours: alternatingRunner(recording, 'fs.write', args('on'), MAX_CALLS_PER_ROUND),
          baseline: alternatingRunner(plain, 'fs.write', args('off'), MAX_CALLS_PER_ROUND),
          ...timing,
        });
        rows.push(row(IDS.rewrite, 'fs.write', 'same server, undo.enabled false', CHECKPOINT_COST, figures));
      }
      if (wanted(IDS.first)) {
        progress(IDS.first);
        const rounds = timing.pairs + 1;
        // One folder for both sides: where a file's inode is allocated (its block group) decides
        // what creating the temporary file costs on this ext4 (see bench/README.md), so both
        // sides create theirs in the same place.
        const folder = path.join(work, 'first');
        fs.mkdirSync(folder);
        const supply = (side) => {
          const old = textOfSize(WRITE_BYTES).replace(/quick/g, 'early');
          const list = [];
          for (let i = 0; i < rounds * MAX_CALLS_PER_ROUND; i++) {
            const file = path.join(folder, `${side}-${i}.txt`);
            fs.writeFileSync(file, old);
            list.push({ path: file, content });
          }
          return list;
        };
        const figures = await interleave({
          ours: alternatingRunner(recording, 'fs.write', supply('on'), MAX_CALLS_PER_ROUND),
          baseline: alternatingRunner(plain, 'fs.write', supply('off'), MAX_CALLS_PER_ROUND),
          ...timing,
        });
        rows.push(row(IDS.first, 'fs.write', 'same server, undo.enabled false', CHECKPOINT_COST, figures));
      }
    }
    if (wanted(IDS.floor)) {
      progress(IDS.floor);
      const content = Buffer.from(textOfSize(WRITE_BYTES));
      const folder = path.join(dir, 'floor');
      fs.mkdirSync(folder);
      const files = (side) => {
        const old = textOfSize(WRITE_BYTES).replace(/quick/g, 'early');
        return Array.from({ length: (timing.pairs + 1) * MAX_CALLS_PER_ROUND }, (_, i) => {
          const file = path.join(folder, `${side}-${i}.txt`);
          fs.writeFileSync(file, old);
          return file;
        });
      };
      const kept = path.join(dir, 'floor-kept');
      fs.mkdirSync(kept);
      const figures = await interleave({
        ours: replaceRunner(files('keeping'), content, MAX_CALLS_PER_ROUND, kept),
        baseline: replaceRunner(files('plain'), content, MAX_CALLS_PER_ROUND, null),
        ...timing,
      });
      rows.push({ ...row(IDS.floor, 'fs.write', 'the same replace, the old file freed', NO_GOAL, figures), transport: 'in-process', protocol: 'none' });
    }
  } finally {
    for (const session of sessions) await session.close().catch(() => {});
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

function row(id, tool, baselineName, goal, figures) {
  return { id, tool, transport: 'stdio', protocol: '2025-11-25 (v1 client)', concurrency: 1, baselineName, cpuIncludesChildren: true, goal, ...figures };
}

/** FILES files in 200 folders, committed; then CHANGED of them edited and 10 new ones. */
function makeRepository(repo, env) {
  const run = (args) => execFileSync('git', args, { cwd: repo, env: { PATH: process.env.PATH, ...env }, stdio: 'ignore' });
  fs.mkdirSync(repo);
  run(['init', '-q']);
  for (let i = 0; i < FILES; i++) {
    const folder = path.join(repo, `src${String(i % 200).padStart(3, '0')}`);
    if (i < 200) fs.mkdirSync(folder);
    fs.writeFileSync(path.join(folder, `file${i}.ts`), `export const value${i} = ${i};\n// line two\n// line three\n`);
  }
  run(['add', '-A']);
  run(['commit', '-q', '-m', 'twenty thousand files']);
  for (let i = 0; i < CHANGED; i++) fs.appendFileSync(path.join(repo, `src${String(i % 200).padStart(3, '0')}`, `file${i}.ts`), `// changed ${i}\n`);
  for (let i = 0; i < 10; i++) fs.writeFileSync(path.join(repo, `new${i}.ts`), 'new\n');
  // As a repository someone works in: the index's stat data fresh, as after their last status.
  run(['status', '--porcelain']);
}

function gitOnce(args, cwd, env) {
  return new Promise((resolve, reject) =>
    execFile('git', args, { cwd, env: { PATH: process.env.PATH, ...env }, maxBuffer: 64 * 1024 * 1024 }, (error, stdout) =>
      error ? reject(error) : resolve(stdout),
    ),
  );
}

/** git run directly, one call after another; CPU is that of the git children this process waited for. */
function gitRunner(repo, args, env) {
  return async (durationMs) => {
    const latencies = [];
    const cpu0 = childrenCpuMs();
    const started = performance.now();
    const deadline = started + durationMs;
    while (latencies.length < 2000 && performance.now() < deadline) {
      const t0 = performance.now();
      await gitOnce(args, repo, env);
      latencies.push(performance.now() - t0);
    }
    const elapsedMs = performance.now() - started;
    return { latencies, elapsedMs, cpuMs: childrenCpuMs() - cpu0 };
  };
}
